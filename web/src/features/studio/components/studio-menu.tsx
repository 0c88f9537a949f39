import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import type { EditKind, Track } from '@tunesmith/shared/tracks';
import { useRef, useState } from 'react';
import { Link } from 'react-router';
import { buttonClasses } from '@/components/ui/button';
import { useStemOffer } from '../hooks/use-stem-offer';
import { studioMessages } from '../messages';
import { StemsDialog } from './stems-dialog';
import { StudioDialog, studioKinds } from './studio-dialog';

export interface StudioEntryProps {
  /** One of the viewer's own tracks: the studio offers nothing for one that is not completed. */
  track: Track;
  /** The id of the track's title, so each action says which track it acts on. */
  describedBy?: string;
  /** The new track, once the server has accepted a studio call. */
  onStarted?: (track: Track | null) => void;
}

/**
 * The library card's More menu (Radix Dropdown Menu): Extend, Repaint section,
 * Make variation, Separate stems, each opening its dialog (Upgrade for Stems, to the plans, when the
 * plan separates into no set). Only for a completed track.
 */
export function StudioMenu({ track, describedBy, onStarted }: StudioEntryProps) {
  const [open, setOpen] = useState<EditKind | 'stems' | null>(null);
  const trigger = useRef<HTMLButtonElement>(null);
  // Set when a new track was started and handed to the page, which then places focus on it.
  const handedOn = useRef(false);
  const stems = useStemOffer();
  if (track.status !== 'completed') return null;

  const close = () => {
    setOpen(null);
    // The menu item that opened the dialog is gone: the More button keeps the reader's place.
    window.setTimeout(() => {
      if (handedOn.current) {
        handedOn.current = false;
        return;
      }
      if (trigger.current?.isConnected && !document.querySelector('[role="dialog"],[role="alertdialog"]')) {
        trigger.current.focus();
      }
    }, 0);
  };
  const started = onStarted
    ? (made: Track | null) => {
        handedOn.current = true;
        onStarted(made);
      }
    : undefined;

  return (
    <>
      <DropdownMenu.Root modal={false}>
        <DropdownMenu.Trigger
          ref={trigger}
          className={buttonClasses('outline', 'sm')}
          aria-describedby={describedBy}
        >
          {studioMessages.menu}
          <span aria-hidden="true">▾</span>
        </DropdownMenu.Trigger>
        <DropdownMenu.Portal>
          <DropdownMenu.Content
            align="end"
            sideOffset={6}
            className="z-40 min-w-48 rounded-xl border border-white/10 bg-zinc-900 p-1 text-sm text-zinc-100 shadow-xl shadow-black/50"
          >
            {studioKinds.map((kind) => (
              <DropdownMenu.Item
                key={kind}
                onSelect={() => setOpen(kind)}
                className="cursor-pointer rounded-lg px-3 py-2 outline-none data-[highlighted]:bg-violet-600 data-[highlighted]:text-white"
              >
                {studioMessages.actions[kind]}
              </DropdownMenu.Item>
            ))}
            {stems.upgradeOnly ? (
              <DropdownMenu.Item
                asChild
                className="block cursor-pointer rounded-lg px-3 py-2 outline-none data-[highlighted]:bg-violet-600 data-[highlighted]:text-white"
              >
                <Link to="/pricing">{studioMessages.stemsUpgrade}</Link>
              </DropdownMenu.Item>
            ) : stems.nowhere ? null : (
              <DropdownMenu.Item
                onSelect={() => setOpen('stems')}
                className="cursor-pointer rounded-lg px-3 py-2 outline-none data-[highlighted]:bg-violet-600 data-[highlighted]:text-white"
              >
                {studioMessages.actions.stems}
              </DropdownMenu.Item>
            )}
          </DropdownMenu.Content>
        </DropdownMenu.Portal>
      </DropdownMenu.Root>
      {open === 'stems' ? <StemsDialog track={track} onClose={close} /> : null}
      {open && open !== 'stems' ? (
        <StudioDialog kind={open} track={track} onClose={close} onStarted={started} />
      ) : null}
    </>
  );
}
