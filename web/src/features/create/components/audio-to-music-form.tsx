import { DURATION_DEFAULT_SECONDS, TITLE_MAX_LENGTH } from '@tunesmith/shared/constants';
import { audioToMusicSchema, generationMessages, LYRICS_MAX_LENGTH } from '@tunesmith/shared/generations';
import type { Visibility } from '@tunesmith/shared/tracks';
import { type FormEvent, useId, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Textarea } from '@/components/ui/textarea';
import { toast } from '@/lib/toast';
import { useUnauthorizedHandler } from '@/lib/use-unauthorized';
import { useGenerateAudioToMusic } from '../api/generate-audio-to-music';
import { useGeneration } from '../hooks/use-generation';
import { createMessages } from '../messages';
import { startErrorMessage } from '../utils/start-error';
import { GenerationResult } from './generation-result';
import { LyricsHelperDialog } from './lyrics-helper-dialog';
import { parseTags, TagInput } from './tag-input';
import { UploadAudioDialog, type UploadedAudio } from './upload-audio-dialog';
import { VisibilityField } from './visibility-field';

/**
 * Audio to Music: upload a song, then restyle it with tags, optional lyrics and
 * title, and a visibility; the generation is followed like a text one.
 */
export function AudioToMusicForm() {
  const id = useId();
  const [audio, setAudio] = useState<UploadedAudio | null>(null);
  const [tags, setTags] = useState('');
  const [lyrics, setLyrics] = useState('');
  const [title, setTitle] = useState('');
  const [visibility, setVisibility] = useState<Visibility>('public');
  const [helperOpen, setHelperOpen] = useState(false);
  const start = useGenerateAudioToMusic();
  const generation = useGeneration();
  const handleUnauthorized = useUnauthorizedHandler();
  const busy = start.isPending || generation.isRunning;

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    const tagList = parseTags(tags).join(', ');
    if (!tagList) {
      toast({
        title: generationMessages.tagsRequiredTitle,
        description: generationMessages.tagsRequired,
        variant: 'destructive',
      });
      return;
    }
    if (!audio) {
      toast({
        title: generationMessages.audioMissingTitle,
        description: generationMessages.audioMissing,
        variant: 'destructive',
      });
      return;
    }
    const parsed = audioToMusicSchema.safeParse({
      tags: tagList,
      lyrics,
      inputAudioUrl: audio.objectPath,
      title,
      visibility,
    });
    if (!parsed.success) {
      toast({
        title: createMessages.generationFailedTitle,
        description: parsed.error.issues[0]?.message ?? generationMessages.startFailed,
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

  const audioId = `${id}-audio`;
  return (
    <div className="grid gap-6">
      <form noValidate onSubmit={submit} className="grid gap-6">
        <fieldset className="grid gap-2" aria-describedby={`${audioId}-hint`}>
          <legend className="mb-2 text-sm font-medium text-zinc-200">Source Audio</legend>
          <UploadAudioDialog onUploaded={setAudio} disabled={busy} />
          <p id={`${audioId}-hint`} className="text-xs text-zinc-400">
            One MP3, WAV, M4A, AAC or OGG file, up to 50MB. It is restyled into the tags below.
          </p>
          <p aria-live="polite" className="text-sm text-zinc-200">
            {audio ? (
              <>
                Selected file: <span className="font-medium text-white">{audio.fileName}</span>
              </>
            ) : (
              <span className="text-zinc-400">No audio file uploaded yet.</span>
            )}
          </p>
        </fieldset>

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

        <VisibilityField value={visibility} onChange={setVisibility} />

        <Button type="submit" size="lg" disabled={busy}>
          {busy ? 'Generating...' : 'Generate Music'}
        </Button>
      </form>

      <GenerationResult state={generation.state} elapsedSeconds={generation.elapsedSeconds} />

      <LyricsHelperDialog
        open={helperOpen}
        onClose={() => setHelperOpen(false)}
        initialDuration={DURATION_DEFAULT_SECONDS}
        onUseLyrics={setLyrics}
      />
    </div>
  );
}
