import { usualGenerationLabel, usualGenerationSeconds } from '@tunesmith/shared/generations';
import { formatTime } from '@/lib/format';
import type { GenerationStatus } from '../api/get-generation-status';

const statusLabels: Record<GenerationStatus['status'], string> = {
  pending: 'Pending',
  generating: 'Generating',
  processing: 'Generating',
  completed: 'Completed',
  failed: 'Failed',
};

/**
 * What a running generation shows: the expected wait (scaled to the requested
 * length), the time so far and the last status; once the expected wait has
 * passed it says the provider is busy rather than repeating it.
 */
export function GenerationProgress({
  status,
  elapsedSeconds,
  duration,
}: {
  status: GenerationStatus['status'];
  elapsedSeconds: number;
  duration: number;
}) {
  const { high } = usualGenerationSeconds(duration);
  const headline =
    elapsedSeconds > high
      ? 'Generating... taking longer than usual, still working on it'
      : `Generating... ${usualGenerationLabel(duration)}`;
  return (
    <div
      role="status"
      className="flex items-center gap-4 rounded-xl border border-violet-400/30 bg-violet-500/10 p-4 text-sm text-zinc-100"
    >
      <span
        aria-hidden="true"
        className="size-6 shrink-0 animate-spin rounded-full border-2 border-white/20 border-t-violet-400 motion-reduce:animate-none"
      />
      <div className="grid gap-1">
        <p className="font-medium">{headline}</p>
        <p className="text-zinc-300">
          Elapsed <span className="tabular-nums">{formatTime(elapsedSeconds)}</span> · Status:{' '}
          {statusLabels[status] ?? status}
        </p>
      </div>
    </div>
  );
}
