import { useId } from 'react';
import { TrackCard } from '@/components/tracks/track-card';
import type { GenerationState } from '../hooks/use-generation';
import { GenerationProgress } from './generation-progress';

/** Below a create form: the running generation's progress, then the finished track. */
export function GenerationResult({
  state,
  elapsedSeconds,
}: {
  state: GenerationState;
  elapsedSeconds: number;
}) {
  const id = useId();
  if (state.phase === 'running') {
    return <GenerationProgress status={state.status} elapsedSeconds={elapsedSeconds} />;
  }
  if (state.phase === 'completed') {
    return (
      <section aria-labelledby={id} className="grid gap-3">
        <h2 id={id} className="text-lg font-semibold text-white">
          Your Track
        </h2>
        <TrackCard track={state.track} />
      </section>
    );
  }
  return null;
}
