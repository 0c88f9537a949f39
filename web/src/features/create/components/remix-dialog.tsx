import { useQueryClient } from '@tanstack/react-query';
import { remixSchema } from '@tunesmith/shared/community';
import { DURATION_DEFAULT_SECONDS } from '@tunesmith/shared/constants';
import { generationMessages } from '@tunesmith/shared/generations';
import type { Track } from '@tunesmith/shared/tracks';
import { type FormEvent, useId } from 'react';
import { trackTitle } from '@/components/tracks/track-title';
import { Dialog } from '@/components/ui/dialog';
import { refusalMessage } from '@/lib/api-client';
import { trackQueryKey } from '@/lib/query-keys';
import { toast } from '@/lib/toast';
import { useUnauthorizedHandler } from '@/lib/use-unauthorized';
import { useRemixTrack } from '../api/remix-track';
import { useGeneration } from '../hooks/use-generation';
import { useModelChoice } from '../hooks/use-model-choice';
import { fallbackLimits, modelRefusal } from '../utils/model-fields';
import { ModelChoice } from './model-choice';
import { parseTags } from './tag-input';
import { TrackForm, useTrackDetails } from './track-form';

export interface RemixDialogProps {
  track: Track;
  onClose: () => void;
  onStarted: (id: string) => void;
}

const REMIX_FAILED = 'The remix did not start';

/**
 * Remix: the restyle form (models that restyle, tags, lyrics, title, visibility) with the
 * source track's audio as its input; a started remix opens its own page.
 */
export default function RemixDialog({ track, onClose, onStarted }: RemixDialogProps) {
  const id = useId();
  const details = useTrackDetails();
  const choice = useModelChoice('audio');
  const limits = choice.model ?? fallbackLimits;
  const remix = useRemixTrack(track.id);
  const queryClient = useQueryClient();
  // The form's progress line stays idle: the remix's own page follows it.
  const generation = useGeneration();
  const handleUnauthorized = useUnauthorizedHandler();
  const title = trackTitle(track);

  const refuse = (description: string) => toast({ title: REMIX_FAILED, description, variant: 'destructive' });

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (remix.isPending) return;
    const tagList = parseTags(details.tags).join(', ');
    if (!tagList) return refuse(generationMessages.tagsRequired);
    const lyrics = limits.lyrics === 'none' ? '' : details.lyrics;
    const parsed = remixSchema.safeParse({
      tags: tagList,
      lyrics,
      model: choice.model?.id,
      title: details.title,
      visibility: details.visibility,
    });
    const refusal = parsed.success && choice.model ? modelRefusal(choice.model, tagList, lyrics) : null;
    if (!parsed.success || refusal)
      return refuse(refusal ?? parsed.error?.issues[0]?.message ?? generationMessages.startFailed);
    remix.mutate(parsed.data, {
      onSuccess: ({ generationId }) => {
        // The source's page (and its remixes) is read again when next shown: it has a remix on the way.
        void queryClient.invalidateQueries({ queryKey: trackQueryKey(track.id), refetchType: 'none' });
        onClose();
        onStarted(generationId);
      },
      onError: (error) => {
        if (!handleUnauthorized(error)) refuse(refusalMessage(error, generationMessages.startFailed));
      },
    });
  };

  return (
    <Dialog
      open
      onClose={onClose}
      title={`Remix "${title}"`}
      description="Restyle this track into your own. It uses your weekly generations, and its page names the original."
      className="max-w-2xl"
    >
      <TrackForm
        id={id}
        modelChoice={<ModelChoice id={`${id}-model`} choice={choice} />}
        model={limits}
        details={details}
        helperDuration={DURATION_DEFAULT_SECONDS}
        run={{ busy: remix.isPending, generation }}
        onSubmit={submit}
      />
    </Dialog>
  );
}
