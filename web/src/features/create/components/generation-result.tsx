import { generationMessages } from '@tunesmith/shared/generations';
import { useId } from 'react';
import { DownloadAction } from '@/components/tracks/download-action';
import { TrackCard } from '@/components/tracks/track-card';
import { trackTitle } from '@/components/tracks/track-title';
import { canDownloadTracks, useUser } from '@/lib/auth';
import type { FinishedTrackData, GenerationState } from '../hooks/use-generation';
import { createMessages } from '../messages';
import { GenerationProgress } from './generation-progress';

/** The Create page's download name (spec 1 section 9), taken when the download starts. */
const createDownloadName = () => `ai-music-${Date.now()}`;

/** The finished track with its download, or the upgrade that allows one. */
function FinishedTrack({ track }: { track: FinishedTrackData }) {
  const { user } = useUser();
  return (
    <>
      <TrackCard track={track} />
      {/* Shown once the plan is known, so a paid user never sees the upgrade flash by. */}
      {user ? (
        <div className="flex flex-wrap gap-2">
          <DownloadAction
            trackId={track.id}
            title={trackTitle(track)}
            license={track.license}
            canDownload={canDownloadTracks(user)}
            ready={track.downloadReady}
            fileName={createDownloadName}
          />
        </div>
      ) : null}
    </>
  );
}

/**
 * Below a create form: the running generation's progress, then the finished
 * track, or why there is none (it stays after the toast fades, until the next start).
 */
export function GenerationResult({
  state,
  elapsedSeconds,
  duration,
}: {
  state: GenerationState;
  elapsedSeconds: number;
  /** The requested length in seconds: the expected wait scales with it. */
  duration: number;
}) {
  const id = useId();
  if (state.phase === 'running') {
    return <GenerationProgress status={state.status} elapsedSeconds={elapsedSeconds} duration={duration} />;
  }
  if (state.phase === 'completed') {
    return (
      <section aria-labelledby={id} className="grid gap-3">
        <h2 id={id} className="text-lg font-semibold text-white">
          Your Track
        </h2>
        <FinishedTrack track={state.track} />
      </section>
    );
  }
  if (state.phase === 'failed') {
    return (
      <div
        role="status"
        className="rounded-xl border border-red-400/30 bg-red-500/10 p-4 text-sm text-red-100"
      >
        <p className="font-semibold">{createMessages.generationFailedTitle}</p>
        <p className="mt-1">{generationMessages.statusFailed}</p>
      </div>
    );
  }
  return null;
}
