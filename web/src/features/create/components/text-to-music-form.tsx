import { DURATION_DEFAULT_SECONDS, TITLE_MAX_LENGTH } from '@tunesmith/shared/constants';
import { generationMessages, LYRICS_MAX_LENGTH, textToMusicSchema } from '@tunesmith/shared/generations';
import type { Visibility } from '@tunesmith/shared/tracks';
import { type FormEvent, useId, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Textarea } from '@/components/ui/textarea';
import { toast } from '@/lib/toast';
import { useUnauthorizedHandler } from '@/lib/use-unauthorized';
import { useGenerateTextToMusic } from '../api/generate-text-to-music';
import { useGeneration } from '../hooks/use-generation';
import { createMessages } from '../messages';
import { startErrorMessage } from '../utils/start-error';
import { DurationSlider } from './duration-slider';
import { GenerationResult } from './generation-result';
import { LyricsHelperDialog } from './lyrics-helper-dialog';
import { parseTags, TagInput } from './tag-input';
import { VisibilityField } from './visibility-field';

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

        <VisibilityField value={visibility} onChange={setVisibility} />

        <Button type="submit" size="lg" disabled={busy}>
          {busy ? 'Generating...' : 'Generate Music'}
        </Button>
      </form>

      <GenerationResult state={generation.state} elapsedSeconds={generation.elapsedSeconds} />

      <LyricsHelperDialog
        open={helperOpen}
        onClose={() => setHelperOpen(false)}
        initialDuration={duration}
        onUseLyrics={setLyrics}
      />
    </div>
  );
}
