import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { useRef, useState } from 'react';
import { buttonClasses } from '@/components/ui/button';
import { ReportDialog } from './report-dialog';

export interface TrackReportMenuProps {
  trackId: string;
  /** The track's title, as the dialog names it. */
  title: string;
  /** The id of the track's title, so the menu says which track it is for. */
  describedBy?: string;
}

/** The More menu of someone else's track (Radix Dropdown Menu): Report track, which opens the report dialog. */
export function TrackReportMenu({ trackId, title, describedBy }: TrackReportMenuProps) {
  const [reporting, setReporting] = useState(false);
  const trigger = useRef<HTMLButtonElement>(null);
  const close = () => {
    setReporting(false);
    // The menu item that opened the dialog is gone: the More button keeps the reader's place.
    window.setTimeout(() => trigger.current?.isConnected && trigger.current.focus(), 0);
  };
  return (
    <>
      <DropdownMenu.Root modal={false}>
        <DropdownMenu.Trigger
          ref={trigger}
          className={buttonClasses('outline', 'sm')}
          aria-describedby={describedBy}
        >
          More
          <span aria-hidden="true">▾</span>
        </DropdownMenu.Trigger>
        <DropdownMenu.Portal>
          <DropdownMenu.Content
            align="end"
            sideOffset={6}
            className="z-40 min-w-48 rounded-xl border border-white/10 bg-zinc-900 p-1 text-sm text-zinc-100 shadow-xl shadow-black/50"
          >
            <DropdownMenu.Item
              onSelect={() => setReporting(true)}
              className="cursor-pointer rounded-lg px-3 py-2 outline-none data-[highlighted]:bg-violet-600 data-[highlighted]:text-white"
            >
              Report track
            </DropdownMenu.Item>
          </DropdownMenu.Content>
        </DropdownMenu.Portal>
      </DropdownMenu.Root>
      {reporting ? (
        <ReportDialog subject={{ kind: 'track', id: trackId }} name={`"${title}"`} onClose={close} />
      ) : null}
    </>
  );
}
