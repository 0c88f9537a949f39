import type { EditKind } from '@tunesmith/shared/tracks';
import { useState } from 'react';
import { UpgradeLink } from '@/components/tracks/upgrade-link';
import { Button } from '@/components/ui/button';
import { useStemOffer } from '../hooks/use-stem-offer';
import { studioMessages } from '../messages';
import { StemsDialog } from './stems-dialog';
import { StudioDialog, studioKinds } from './studio-dialog';
import type { StudioEntryProps } from './studio-menu';

/**
 * The track page's studio buttons for the owner: Extend, Repaint section, Make variation, Separate stems.
 * Only when completed. A plan that separates into no set offers the plans in place of Separate stems.
 */
export function StudioActions({ track, describedBy, onStarted }: StudioEntryProps) {
  const [open, setOpen] = useState<EditKind | 'stems' | null>(null);
  const stems = useStemOffer();
  if (track.status !== 'completed') return null;
  return (
    <section aria-label="Studio" className="flex flex-wrap gap-2">
      {studioKinds.map((kind) => (
        <Button
          key={kind}
          variant="secondary"
          size="sm"
          onClick={() => setOpen(kind)}
          aria-describedby={describedBy}
        >
          {studioMessages.actions[kind]}
        </Button>
      ))}
      {stems.upgradeOnly ? (
        <UpgradeLink describedBy={describedBy}>{studioMessages.stemsUpgrade}</UpgradeLink>
      ) : stems.nowhere ? null : (
        <Button variant="secondary" size="sm" onClick={() => setOpen('stems')} aria-describedby={describedBy}>
          {studioMessages.actions.stems}
        </Button>
      )}
      {open === 'stems' ? <StemsDialog track={track} onClose={() => setOpen(null)} /> : null}
      {open && open !== 'stems' ? (
        <StudioDialog kind={open} track={track} onClose={() => setOpen(null)} onStarted={onStarted} />
      ) : null}
    </section>
  );
}
