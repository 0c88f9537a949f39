import { useQueryClient } from '@tanstack/react-query';
import type { Track } from '@tunesmith/shared/tracks';
import { type ReactNode, useEffect, useId, useState } from 'react';
import { Link } from 'react-router';
import { trackTitle } from '@/components/tracks/track-title';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Switch } from '@/components/ui/switch';
import { refusalMessage } from '@/lib/api-client';
import { trackQueryKey } from '@/lib/query-keys';
import { toast } from '@/lib/toast';
import { useRemixes, useSetRemixable } from '../api/remixes';

export const remixText = {
  switchLabel: 'Let others remix',
  switchHint:
    'Others may restyle this track into their own. Each remix names it and links here while it stays public; nobody can remix a private track.',
  remix: 'Remix',
  gone: 'Remix of a track that is no longer public',
  heading: 'Remixes',
  none: 'No public remixes yet.',
  loading: 'Loading remixes',
  failed: 'The remixes could not be loaded.',
  switchFailed: 'The remix setting was not changed',
} as const;

const privateLine = (n: number) => (n === 1 ? '1 private remix' : `${n} private remixes`);

const linkClasses =
  'font-medium text-violet-300 underline underline-offset-4 hover:text-violet-200 focus-visible:outline-2 focus-visible:outline-violet-300';

/** A creator's public name, linking their page; "anonymous" for one without a public profile. */
function CreatorName({ creator }: { creator: Track['creator'] }) {
  if (!creator) return <>anonymous</>;
  return (
    <Link to={`/@${creator.handle}`} className={linkClasses}>
      {creator.displayName}
    </Link>
  );
}

/** "Remix of <title> by <creator>", linking the source while it is public. */
export function RemixCredit({ credit }: { credit: NonNullable<Track['remixOf']> }) {
  if (!credit.available || !credit.trackId) return <p className="text-sm text-zinc-300">{remixText.gone}</p>;
  return (
    <p className="text-sm text-zinc-300">
      Remix of{' '}
      <Link to={`/track/${credit.trackId}`} className={linkClasses}>
        {trackTitle({ title: credit.title })}
      </Link>{' '}
      by <CreatorName creator={credit.creator} />
    </p>
  );
}

function RemixSwitch({ track }: { track: Track }) {
  const id = useId();
  const change = useSetRemixable(track.id);
  const toggle = (remixable: boolean) =>
    change.mutate(remixable, {
      onError: (error) =>
        toast({
          title: remixText.switchFailed,
          description: refusalMessage(error, 'Please try again.'),
          variant: 'destructive',
        }),
    });
  return (
    <div className="grid gap-1">
      <div className="flex items-center gap-3">
        <Switch
          id={`${id}-remixable`}
          checked={change.isPending ? (change.variables ?? track.remixable) : track.remixable}
          onCheckedChange={toggle}
          disabled={change.isPending}
          aria-describedby={`${id}-hint`}
        />
        {/* A plain label, styled as the form labels are: the page's chunk stays apart from the forms'. */}
        <label htmlFor={`${id}-remixable`} className="text-sm font-medium text-zinc-200">
          {remixText.switchLabel}
        </label>
      </div>
      <p id={`${id}-hint`} className="text-xs text-zinc-400">
        {remixText.switchHint}
      </p>
    </div>
  );
}

function RemixList({ track, owner }: { track: Track; owner: boolean }) {
  const list = useRemixes(track.id);
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} className="grid gap-2">
      <h2 id={headingId} className="text-lg font-semibold text-white">
        {remixText.heading}
      </h2>
      {list.isPending ? (
        <p role="status" className="text-sm text-zinc-400">
          {remixText.loading}
        </p>
      ) : list.isError ? (
        <p className="text-sm text-zinc-400">{remixText.failed}</p>
      ) : (
        <>
          {list.data.remixes.length === 0 ? (
            <p className="text-sm text-zinc-400">{remixText.none}</p>
          ) : (
            <ul className="grid gap-1">
              {list.data.remixes.map((remix) => (
                <li key={remix.id}>
                  <Link to={`/track/${remix.id}`} className={linkClasses}>
                    {trackTitle(remix)}
                  </Link>{' '}
                  <span className="text-sm text-zinc-400">
                    by <CreatorName creator={remix.creator} />
                  </span>
                </li>
              ))}
            </ul>
          )}
          {owner && list.data.privateCount ? (
            <p className="text-sm text-zinc-400">{privateLine(list.data.privateCount)}</p>
          ) : null}
        </>
      )}
    </section>
  );
}

export interface RemixPanelProps {
  track: Track;
  /** The viewer owns the track. */
  owner: boolean;
  signedIn: boolean;
  /** The restyle form that starts a remix of the track (the create feature's), open until `close`. */
  remixForm: (close: () => void) => ReactNode;
}

/**
 * A track's remixes (decision 060): the credit of a remix, the owner's permission on a public
 * track, Remix for others where the owner allows it, and the track's own remixes.
 */
export default function RemixPanel({ track, owner, signedIn, remixForm }: RemixPanelProps) {
  const [open, setOpen] = useState(false);
  const queryClient = useQueryClient();
  const finished = track.status === 'completed';
  const sourceId = track.remixOf?.trackId;
  useEffect(() => {
    // A finished remix joins its source's list: the source's page reads it again when next shown.
    if (finished && sourceId)
      void queryClient.invalidateQueries({ queryKey: trackQueryKey(sourceId), refetchType: 'none' });
  }, [finished, sourceId, queryClient]);
  const listed = track.visibility === 'public' && finished;
  if (!track.remixOf && !listed) return null;
  return (
    <Card className="mt-6 grid gap-4 p-6 sm:p-8">
      {track.remixOf ? <RemixCredit credit={track.remixOf} /> : null}
      {listed && owner ? <RemixSwitch track={track} /> : null}
      {listed && !owner && signedIn && track.remixable ? (
        <div>
          <Button onClick={() => setOpen(true)}>{remixText.remix}</Button>
        </div>
      ) : null}
      {open ? remixForm(() => setOpen(false)) : null}
      {listed ? <RemixList track={track} owner={owner} /> : null}
    </Card>
  );
}
