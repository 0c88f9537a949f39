import { useQueryClient } from '@tanstack/react-query';
import { STATUS_POLL_INTERVAL_MS } from '@tunesmith/shared/constants';
import { generationMessages } from '@tunesmith/shared/generations';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { TrackCardTrack } from '@/components/tracks/track-card';
import { myGenerationsQueryKey } from '@/lib/query-keys';
import { toast } from '@/lib/toast';
import { useUnauthorizedHandler } from '@/lib/use-unauthorized';
import { type GenerationStatus, getGenerationStatus } from '../api/get-generation-status';
import { createMessages } from '../messages';

/**
 * A finished track as the Create page shows it: the card, the license its download dialog states,
 * and whether its download is there yet (it plays before).
 */
export type FinishedTrackData = TrackCardTrack & {
  license: GenerationStatus['license'];
  downloadReady: boolean;
};

export type GenerationState =
  | { phase: 'idle' }
  | { phase: 'running'; id: string; status: GenerationStatus['status']; startedAt: number }
  | { phase: 'completed'; track: FinishedTrackData }
  | { phase: 'failed' };

/**
 * Follows a started generation: checks its status every
 * {@link STATUS_POLL_INTERVAL_MS} until it completes (success toast, library
 * refresh, the finished track) or fails (error toast). A 401 goes through the
 * shared unauthorized handling; any other error stops with an error toast.
 */
export function useGeneration() {
  const queryClient = useQueryClient();
  const handleUnauthorized = useUnauthorizedHandler();
  const [state, setState] = useState<GenerationState>({ phase: 'idle' });
  const [elapsedSeconds, setElapsedSeconds] = useState(0);
  // The title the user gave, shown on the finished track (the status answer has none).
  const titleRef = useRef<string | null>(null);

  const runningId = state.phase === 'running' ? state.id : null;
  const startedAt = state.phase === 'running' ? state.startedAt : 0;

  useEffect(() => {
    if (!runningId) return;
    const controller = new AbortController();
    let checking = false;
    setElapsedSeconds(0);
    const clock = window.setInterval(() => {
      setElapsedSeconds(Math.floor((Date.now() - startedAt) / 1000));
    }, 1000);

    const stop = () => {
      controller.abort();
      window.clearInterval(clock);
      window.clearInterval(poll);
    };

    const check = async () => {
      // A slow answer must not overlap the next check.
      if (checking) return;
      checking = true;
      try {
        const answer = await getGenerationStatus(runningId, controller.signal);
        if (controller.signal.aborted) return;
        if (answer.status === 'completed') {
          stop();
          setState({
            phase: 'completed',
            track: {
              id: runningId,
              title: titleRef.current,
              tags: answer.tags,
              duration: answer.duration,
              type: answer.type,
              audioUrl: answer.audioUrl,
              license: answer.license ?? null,
              downloadReady: answer.downloadReady !== false,
            },
          });
          toast({ title: createMessages.generatedTitle });
          void queryClient.invalidateQueries({ queryKey: myGenerationsQueryKey });
        } else if (answer.status === 'failed') {
          stop();
          setState({ phase: 'failed' });
          toast({
            title: createMessages.generationFailedTitle,
            description: generationMessages.statusFailed,
            variant: 'destructive',
          });
        } else {
          setState((current) =>
            current.phase === 'running' && current.id === runningId && current.status !== answer.status
              ? { ...current, status: answer.status }
              : current,
          );
        }
      } catch (error) {
        if (controller.signal.aborted) return;
        stop();
        setState({ phase: 'idle' });
        if (handleUnauthorized(error)) return;
        toast({
          title: createMessages.statusErrorTitle,
          description: createMessages.statusError,
          variant: 'destructive',
        });
      } finally {
        checking = false;
      }
    };

    const poll = window.setInterval(() => void check(), STATUS_POLL_INTERVAL_MS);
    return stop;
  }, [runningId, startedAt, queryClient, handleUnauthorized]);

  // A finished track plays at once; its download follows moments later. Until then it is checked
  // again, and Download takes the place of "The download is being prepared" once it is there.
  const preparingId = state.phase === 'completed' && !state.track.downloadReady ? state.track.id : null;
  useEffect(() => {
    if (!preparingId) return;
    const controller = new AbortController();
    let checking = false;
    const poll = window.setInterval(async () => {
      if (checking) return;
      checking = true;
      try {
        const answer = await getGenerationStatus(preparingId, controller.signal);
        if (controller.signal.aborted || answer.downloadReady === false) return;
        window.clearInterval(poll);
        setState((current) =>
          current.phase === 'completed' && current.track.id === preparingId
            ? { ...current, track: { ...current.track, downloadReady: true } }
            : current,
        );
        void queryClient.invalidateQueries({ queryKey: myGenerationsQueryKey });
      } catch (error) {
        if (controller.signal.aborted) return;
        // Signed out meanwhile: the shared handling. Anything else: the next check tries again.
        if (handleUnauthorized(error)) window.clearInterval(poll);
      } finally {
        checking = false;
      }
    }, STATUS_POLL_INTERVAL_MS);
    return () => {
      controller.abort();
      window.clearInterval(poll);
    };
  }, [preparingId, queryClient, handleUnauthorized]);

  /** Starts following a generation the server has accepted; the library shows it as pending meanwhile. */
  const track = useCallback(
    (generationId: string, title?: string) => {
      titleRef.current = title ?? null;
      setState({ phase: 'running', id: generationId, status: 'pending', startedAt: Date.now() });
      void queryClient.invalidateQueries({ queryKey: myGenerationsQueryKey });
    },
    [queryClient],
  );

  return { state, elapsedSeconds, isRunning: state.phase === 'running', track };
}
