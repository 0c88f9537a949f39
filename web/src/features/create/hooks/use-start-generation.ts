import type { UseMutationResult } from '@tanstack/react-query';
import { type GenerationStarted, generationMessages } from '@tunesmith/shared/generations';
import { refusalMessage } from '@/lib/api-client';
import { toast } from '@/lib/toast';
import { useUnauthorizedHandler } from '@/lib/use-unauthorized';
import { createMessages } from '../messages';
import { useGeneration } from './use-generation';

/**
 * Starts a generation with a create form's start call and follows it once the
 * server accepts it. A refused start shows the server's message, except a 401,
 * which goes through the shared unauthorized handling. `busy` holds from the
 * request until the generation ends, so a second one cannot be started meanwhile.
 */
export function useStartGeneration<TRequest extends { title?: string }>(
  start: UseMutationResult<GenerationStarted, Error, TRequest>,
) {
  const generation = useGeneration();
  const handleUnauthorized = useUnauthorizedHandler();
  const busy = start.isPending || generation.isRunning;

  const launch = (request: TRequest) => {
    start.mutate(request, {
      onSuccess: ({ generationId }) => generation.track(generationId, request.title),
      onError: (error) => {
        if (handleUnauthorized(error)) return;
        toast({
          title: createMessages.generationFailedTitle,
          // The server's own message for a 4xx, such as the weekly quota.
          description: refusalMessage(error, generationMessages.startFailed),
          variant: 'destructive',
        });
      },
    });
  };

  return { generation, busy, launch };
}
