import { DURATION_DEFAULT_SECONDS, TITLE_MAX_LENGTH } from '@tunesmith/shared/constants';
import { generationMessages, LYRICS_MAX_LENGTH, textToMusicSchema } from '@tunesmith/shared/generations';
import type { Visibility } from '@tunesmith/shared/tracks';
import { type FormEvent, useId, useState } from 'react';
import { TrackCard } from '@/components/tracks/track-card';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Textarea } from '@/components/ui/textarea';
import { ToggleGroup } from '@/components/ui/toggle-group';
import { ApiError, serverMessage } from '@/lib/api-client';
import { toast } from '@/lib/toast';
import { useUnauthorizedHandler } from '@/lib/use-unauthorized';
import { useGenerateTextToMusic } from '../api/generate-text-to-music';
import { useGeneration } from '../hooks/use-generation';
import { createMessages } from '../messages';
import { DurationSlider } from './duration-slider';
import { GenerationProgress } from './generation-progress';
import { LyricsHelperDialog } from './lyrics-helper-dialog';
import { parseTags, TagInput } from './tag-input';

const visibilityOptions = [
  { value: 'public', label: 'Public' },
  { value: 'private', label: 'Private' },
] as const;

/** The message for a refused start: the server's own for a 4xx (such as the quota), else the spec's. */
function startErrorMessage(error: unknown): string {
  if (error instanceof ApiError && error.status >= 400 && error.status < 500) {
    return serverMessage(error, generationMessages.startFailed);
  }
  return generationMessages.startFailed;
}

/** Text to Music: tags, optional lyrics and title, duration and visibility, then the generation's progress. */
export function TextToMusicForm() {
  const id = useId();
  const [tags, setTags] = useState('');
  const [lyrics, setLyrics] = useState('');
  const [title, setTitle] = useState('');
  const [duration, setDuration] = useState(DURATION_DEFAULT_SECONDS);
  const [visibility, setVisibility] = useState<Visibility>('public');
  const [helperOpen, setHelperOpen] = useState(false);
  const start = useGenerateTextToMusic();
  const generation = useGeneration();
  const handleUnauthorized = useUnauthorizedHandler();
  const busy = start.isPending || generation.isRunning;

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    const parsed = textToMusicSchema.safeParse({
      tags: parseTags(tags).join(', '),
      lyrics,
      duration,
      title,
      visibility,
    });
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const missingTags = issue?.path[0] === 'tags';
      toast({
        title: missingTags ? generationMessages.tagsRequiredTitle : createMessages.generationFailedTitle,
        description: issue?.message ?? generationMessages.startFailed,
        variant: 'destructive',
      });
      return;
    }
    start.mutate(parsed.data, {
      onSuccess: ({ generationId }) => generation.track(generationId, parsed.data.title),
      onError: (error) => {
        if (handleUnauthorized(error)) return;
        toast({
          title: createMessages.generationFailedTitle,
          description: startErrorMessage(error),
          variant: 'destructive',
        });
      },
    });
  };

  const { state } = generation;
  return (
    <div className="grid gap-6">
      <form noValidate onSubmit={submit} className="grid gap-6">
        <TagInput id={`${id}-tags`} value={tags} onChange={setTags} />

        <div className="grid gap-2">
          <div className="flex flex-wrap items-center justify-between gap-2">
            <Label htmlFor={`${id}-lyrics`}>Lyrics (optional)</Label>
            <Button variant="outline" size="sm" onClick={() => setHelperOpen(true)}>
              Lyrics helper
            </Button>
          </div>
          <Textarea
            id={`${id}-lyrics`}
            value={lyrics}
            maxLength={LYRICS_MAX_LENGTH}
            placeholder="[verse]&#10;Your lyrics here..."
            aria-describedby={`${id}-lyrics-hint`}
            onChange={(event) => setLyrics(event.target.value)}
          />
          <p id={`${id}-lyrics-hint`} className="text-xs text-zinc-400">
            Leave empty for an instrumental track.
          </p>
        </div>

        <div className="grid gap-2">
          <Label htmlFor={`${id}-title`}>Title (optional)</Label>
          <Input
            id={`${id}-title`}
            value={title}
            maxLength={TITLE_MAX_LENGTH}
            placeholder="Untitled Track"
            onChange={(event) => setTitle(event.target.value)}
          />
        </div>

        <DurationSlider id={`${id}-duration`} value={duration} onChange={setDuration} />

        <div className="grid gap-2">
          <span aria-hidden="true" className="text-sm font-medium text-zinc-200">
            Visibility
          </span>
          <ToggleGroup
            label="Visibility"
            options={visibilityOptions}
            value={visibility}
            onChange={setVisibility}
            className="w-fit"
          />
        </div>

        <Button type="submit" size="lg" disabled={busy}>
          {busy ? 'Generating...' : 'Generate Music'}
        </Button>
      </form>

      {state.phase === 'running' ? (
        <GenerationProgress status={state.status} elapsedSeconds={generation.elapsedSeconds} />
      ) : null}
      {state.phase === 'completed' ? (
        <section aria-labelledby={`${id}-result`} className="grid gap-3">
          <h2 id={`${id}-result`} className="text-lg font-semibold text-white">
            Your Track
          </h2>
          <TrackCard track={state.track} />
        </section>
      ) : null}

      <LyricsHelperDialog
        open={helperOpen}
        onClose={() => setHelperOpen(false)}
        initialDuration={duration}
        onUseLyrics={setLyrics}
      />
    </div>
  );
}
