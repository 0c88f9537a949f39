import {
  DURATION_DEFAULT_SECONDS,
  DURATION_MAX_SECONDS,
  DURATION_MIN_SECONDS,
} from '@tunesmith/shared/constants';
import {
  generationMessages,
  LYRICS_PROMPT_MAX_LENGTH,
  lyricsRequestSchema,
} from '@tunesmith/shared/generations';
import { type FormEvent, useId, useRef, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Textarea } from '@/components/ui/textarea';
import { toast } from '@/lib/toast';
import { useGenerateLyrics } from '../api/generate-lyrics';
import { createMessages } from '../messages';

export interface LyricsHelperDialogProps {
  open: boolean;
  onClose: () => void;
  /** The duration the dialog opens with (the audio form opens it with 60). */
  initialDuration?: number;
  /** Receives the lyrics for the lyrics box of the form that opened the dialog. */
  onUseLyrics: (lyrics: string) => void;
}

/**
 * Writes lyrics from a description: prompt and duration, Generate, then Copy
 * or Use These Lyrics (which fills the opening form's lyrics and closes).
 * Close, Escape and the backdrop close it; every field is cleared when it closes.
 */
export function LyricsHelperDialog({
  open,
  onClose,
  initialDuration = DURATION_DEFAULT_SECONDS,
  onUseLyrics,
}: LyricsHelperDialogProps) {
  const id = useId();
  const [prompt, setPrompt] = useState('');
  const [duration, setDuration] = useState(String(initialDuration));
  const [durationError, setDurationError] = useState<string>();
  const [lyrics, setLyrics] = useState('');
  const mutation = useGenerateLyrics();
  // Answers that arrive after the dialog closed belong to a session that is over.
  const session = useRef(0);
  // Each opening starts from the opener's duration (React's "adjust state on prop change").
  const [wasOpen, setWasOpen] = useState(open);
  if (open !== wasOpen) {
    setWasOpen(open);
    if (open) setDuration(String(initialDuration));
  }

  const close = () => {
    session.current += 1;
    setPrompt('');
    setDuration(String(initialDuration));
    setDurationError(undefined);
    setLyrics('');
    mutation.reset();
    onClose();
  };

  const generate = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const parsed = lyricsRequestSchema.safeParse({ prompt, duration: Number(duration) });
    if (!parsed.success) {
      const fields = new Set(parsed.error.issues.map((issue) => issue.path[0]));
      if (fields.has('prompt')) {
        toast({
          title: generationMessages.promptRequiredTitle,
          description: prompt.trim() ? generationMessages.promptTooLong : generationMessages.promptRequired,
          variant: 'destructive',
        });
      }
      setDurationError(fields.has('duration') ? generationMessages.durationInvalid : undefined);
      return;
    }
    setDurationError(undefined);
    const current = session.current;
    mutation.mutate(parsed.data, {
      onSuccess: (answer) => {
        if (session.current === current) setLyrics(answer?.lyrics ?? '');
      },
      onError: () => {
        if (session.current !== current) return;
        toast({
          title: createMessages.lyricsFailedTitle,
          description: createMessages.lyricsFailed,
          variant: 'destructive',
        });
      },
    });
  };

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(lyrics);
      toast({ title: createMessages.copiedTitle });
    } catch {
      toast({
        title: createMessages.copyFailedTitle,
        description: createMessages.copyFailed,
        variant: 'destructive',
      });
    }
  };

  const use = () => {
    onUseLyrics(lyrics);
    toast({ title: createMessages.lyricsAddedTitle });
    close();
  };

  const promptId = `${id}-prompt`;
  const durationId = `${id}-duration`;
  const lyricsId = `${id}-lyrics`;
  return (
    <Dialog
      open={open}
      onClose={close}
      title="Lyrics Helper"
      description="Describe your song and we'll write lyrics for it."
      className="max-w-lg"
    >
      <form noValidate onSubmit={generate} className="grid gap-4">
        <FormField label="What is your song about?" htmlFor={promptId} errorId={`${promptId}-error`}>
          <Textarea
            id={promptId}
            value={prompt}
            maxLength={LYRICS_PROMPT_MAX_LENGTH}
            placeholder="e.g. a summer road trip with old friends"
            className="min-h-24"
            onChange={(event) => setPrompt(event.target.value)}
          />
        </FormField>
        <FormField
          label="Duration (seconds)"
          htmlFor={durationId}
          error={durationError}
          errorId={`${durationId}-error`}
        >
          <Input
            id={durationId}
            type="number"
            inputMode="numeric"
            min={DURATION_MIN_SECONDS}
            max={DURATION_MAX_SECONDS}
            step={1}
            value={duration}
            aria-invalid={durationError ? true : undefined}
            aria-describedby={durationError ? `${durationId}-error` : undefined}
            onChange={(event) => {
              setDuration(event.target.value);
              setDurationError(undefined);
            }}
          />
        </FormField>
        <Button type="submit" disabled={mutation.isPending}>
          {mutation.isPending ? 'Generating...' : 'Generate Lyrics'}
        </Button>
      </form>
      {lyrics ? (
        <div className="mt-5 grid gap-3">
          <FormField label="Generated Lyrics" htmlFor={lyricsId} errorId={`${lyricsId}-error`}>
            <Textarea id={lyricsId} value={lyrics} readOnly className="min-h-48 font-mono text-xs" />
          </FormField>
        </div>
      ) : null}
      <div className="mt-5 flex flex-wrap justify-end gap-2">
        <Button variant="ghost" onClick={close}>
          Close
        </Button>
        {lyrics ? (
          <>
            <Button variant="outline" onClick={copy}>
              Copy
            </Button>
            <Button onClick={use}>Use These Lyrics</Button>
          </>
        ) : null}
      </div>
    </Dialog>
  );
}
