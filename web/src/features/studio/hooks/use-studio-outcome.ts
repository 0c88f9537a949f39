import { useQueryClient } from '@tanstack/react-query';
import { generationMessages, type StudioStarted } from '@tunesmith/shared/generations';
import { type EditKind, type Track, trackSchema } from '@tunesmith/shared/tracks';
import { useCallback } from 'react';
import { trackTitle } from '@/components/tracks/track-title';
import { refusalMessage } from '@/lib/api-client';
import { userQueryKey } from '@/lib/auth';
import { myGenerationsQueryKey, trackQueryKey } from '@/lib/query-keys';
import { toast } from '@/lib/toast';
import { useUnauthorizedHandler } from '@/lib/use-unauthorized';
import { studioMessages } from '../messages';

/**
 * What follows a studio call. Started: a toast, the new track at the top of the
 * library (which then follows it as it generates, like any generation), the
 * parent's page and the week's count refreshed. Refused: the create form's
 * toast with the server's message for a 4xx (a plan limit, a bad section),
 * returned so the dialog can show it too, and the week's count asked again;
 * a 401 goes through the usual sign-in.
 */
export function useStudioOutcome() {
  const queryClient = useQueryClient();
  const handleUnauthorized = useUnauthorizedHandler();

  const started = useCallback(
    (kind: EditKind, parent: Track, answer: StudioStarted): Track | null => {
      const parsed = trackSchema.safeParse(answer?.track);
      const track = parsed.success ? parsed.data : null;
      if (track) {
        queryClient.setQueryData<Track[]>(myGenerationsQueryKey, (tracks) =>
          tracks && !tracks.some((known) => known.id === track.id) ? [track, ...tracks] : tracks,
        );
      }
      void queryClient.invalidateQueries({ queryKey: myGenerationsQueryKey });
      void queryClient.invalidateQueries({ queryKey: trackQueryKey(parent.id) });
      void queryClient.invalidateQueries({ queryKey: userQueryKey });
      toast({
        title: studioMessages.startedTitle[kind],
        description: studioMessages.startedDescription(trackTitle(track ?? parent)),
      });
      return track;
    },
    [queryClient],
  );

  const failed = useCallback(
    (error: unknown): string | null => {
      if (handleUnauthorized(error)) return null;
      // A refusal may come from a count the screen had not seen (the week's used up elsewhere):
      // the dialogs then say so and offer the plans.
      void queryClient.invalidateQueries({ queryKey: userQueryKey });
      const message = refusalMessage(error, generationMessages.startFailed);
      toast({ title: studioMessages.generationFailedTitle, description: message, variant: 'destructive' });
      return message;
    },
    [handleUnauthorized, queryClient],
  );

  return { started, failed };
}
