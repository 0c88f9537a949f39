import { ownershipMessages, type UserExport } from '@tunesmith/shared/ownership';
import { formatBytes } from '@tunesmith/shared/uploads';
import { useId, useRef, useState } from 'react';
import { Button, buttonClasses } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { ApiError, serverMessage } from '@/lib/api-client';
import { useUnauthorizedHandler } from '@/lib/use-unauthorized';
import { useLatestExport, useStartExport } from '../api/export-music';

/** The button that starts an export (the words; the e2e journey presses it). */
export const DOWNLOAD_ALL = 'Download all my music';

/** "12 of 40 tracks"; before the tracks are counted, nothing to count yet. */
export function exportProgress(current: Pick<UserExport, 'tracksDone' | 'tracksTotal'>): string {
  if (current.tracksTotal === null) return 'Counting your tracks…';
  const noun = current.tracksTotal === 1 ? 'track' : 'tracks';
  return `${current.tracksDone} of ${current.tracksTotal} ${noun}`;
}

/** When a link stops working, in the reader's time zone: `May 2, 2026, 10:00 AM`. */
const formatUntil = (iso: string) =>
  new Date(iso).toLocaleString('en-US', {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
  });

/**
 * "Download all my music": starts an export of every finished track (one zip
 * of WAVs, lyrics and provenance records, prepared in the background), shows
 * how far it got, then the download link with its size and when it ends. A
 * reload picks a running export up again; progress is announced politely to
 * screen readers, errors at once. Starting one puts focus on the card's
 * heading, which stays through every state, as the button pressed goes.
 */
export function ExportMusicCard() {
  const headingId = useId();
  const progressLabelId = useId();
  const current = useLatestExport();
  const handleUnauthorized = useUnauthorizedHandler();
  const heading = useRef<HTMLHeadingElement>(null);
  const [startError, setStartError] = useState<string | null>(null);
  // The server's word that another export (another tab, another device) is being prepared: said beside
  // that export while it is, not left as an error once it is done.
  const [joined, setJoined] = useState<string | null>(null);
  const start = useStartExport({
    onError: (error) => {
      if (handleUnauthorized(error)) return;
      if (error instanceof ApiError && error.status === 409) {
        setJoined(serverMessage(error, ownershipMessages.exportRunning));
        void current.refetch();
        return;
      }
      setStartError(serverMessage(error, 'Could not start the export. Please try again.'));
    },
  });
  const begin = () => {
    setStartError(null);
    setJoined(null);
    heading.current?.focus();
    start.mutate();
  };

  const exported = current.data ?? null;
  const preparing = exported?.status === 'preparing' || start.isPending;
  const startButton = (label: string, variant: 'primary' | 'outline' = 'primary') => (
    <Button variant={variant} onClick={begin} disabled={start.isPending}>
      {start.isPending ? 'Starting…' : label}
    </Button>
  );

  return (
    <Card role="region" aria-labelledby={headingId} aria-busy={current.isPending || undefined}>
      <div className="flex flex-col gap-4 p-6">
        <div>
          <h2
            id={headingId}
            ref={heading}
            tabIndex={-1}
            className="text-xl font-semibold text-white focus:outline-none"
          >
            Your Music
          </h2>
          <p className="text-sm text-zinc-400">
            Every finished track in one zip file: each WAV with its lyrics and its provenance record (what
            made it and its license), and a list of everything inside.
          </p>
        </div>

        {current.isPending ? (
          <Skeleton className="h-10 w-56" />
        ) : current.isError && !exported ? (
          <div className="flex flex-wrap items-center gap-3">
            <p className="text-sm text-zinc-300">We could not check on your exports.</p>
            <Button variant="outline" onClick={() => void current.refetch()}>
              Try Again
            </Button>
          </div>
        ) : preparing ? (
          <div className="flex flex-col gap-2">
            {joined ? <p className="text-sm text-zinc-300">{joined}</p> : null}
            <p id={progressLabelId} className="text-sm font-medium text-white">
              Preparing your music
            </p>
            {/* Announced as it changes, without interrupting. */}
            <p role="status" aria-live="polite" className="text-sm text-zinc-300">
              {exported?.status === 'preparing' ? exportProgress(exported) : 'Starting…'}
            </p>
            <div
              role="progressbar"
              aria-labelledby={progressLabelId}
              aria-valuemin={0}
              aria-valuemax={exported?.tracksTotal ?? undefined}
              aria-valuenow={exported?.tracksTotal ? exported.tracksDone : undefined}
              aria-valuetext={exported ? exportProgress(exported) : undefined}
              className="h-2 overflow-hidden rounded-full bg-white/10"
            >
              <div
                className="h-full rounded-full bg-gradient-to-r from-violet-500 to-fuchsia-500 transition-[width]"
                style={{
                  width: `${exported?.tracksTotal ? Math.min(100, (exported.tracksDone / exported.tracksTotal) * 100) : 0}%`,
                }}
              />
            </div>
            <p className="text-sm text-zinc-400">{ownershipMessages.exportStarted}</p>
          </div>
        ) : exported?.status === 'ready' && exported.url ? (
          <div className="flex flex-col gap-3">
            <p role="status" className="text-sm font-medium text-emerald-300">
              {ownershipMessages.exportReady}
            </p>
            <div className="flex flex-wrap items-center gap-3">
              <a href={exported.url} download className={buttonClasses('primary')}>
                Download Zip{exported.size !== undefined ? ` (${formatBytes(exported.size)})` : ''}
              </a>
              {startButton('Prepare a New Export', 'outline')}
            </div>
            <p className="text-sm text-zinc-400">
              {exportProgress(exported)}.
              {exported.expiresAt ? ` The link works until ${formatUntil(exported.expiresAt)}.` : ''}
            </p>
          </div>
        ) : (
          <div className="flex flex-col gap-3">
            {exported?.status === 'failed' ? (
              <p role="alert" className="text-sm text-red-300">
                {ownershipMessages.exportFailed}
              </p>
            ) : exported?.status === 'ready' ? (
              <p className="text-sm text-zinc-300">
                The link to your last export has expired. Prepare a new one to download your music.
              </p>
            ) : (
              <p className="text-sm text-zinc-300">
                We prepare the file in the background and email you a link when it is ready.
              </p>
            )}
            <div>{startButton(DOWNLOAD_ALL)}</div>
          </div>
        )}

        {startError ? (
          <p role="alert" className="text-sm text-red-300">
            {startError}
          </p>
        ) : null}
      </div>
    </Card>
  );
}
