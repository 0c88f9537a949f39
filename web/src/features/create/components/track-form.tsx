import { TITLE_MAX_LENGTH } from '@tunesmith/shared/constants';
import type { Visibility } from '@tunesmith/shared/tracks';
import { type FormEvent, type ReactNode, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Switch } from '@/components/ui/switch';
import { Textarea } from '@/components/ui/textarea';
import { canMakeTracksPrivate, useUser } from '@/lib/auth';
import type { useStartGeneration } from '../hooks/use-start-generation';
import {
  fallbackLimits,
  lyricsMax,
  type ModelLimits,
  noLyricsNote,
  requiredLyricsHint,
} from '../utils/model-fields';
import { GenerationResult } from './generation-result';
import { LyricsHelperDialog } from './lyrics-helper-dialog';
import { TagInput } from './tag-input';
import { VisibilityField } from './visibility-field';

/** The genre tags, lyrics, title and visibility both create forms ask for, as their form state. */
export function useTrackDetails() {
  const [tags, setTags] = useState('');
  const [lyrics, setLyrics] = useState('');
  const [title, setTitle] = useState('');
  const [visibility, setVisibility] = useState<Visibility>('public');
  return { tags, setTags, lyrics, setLyrics, title, setTitle, visibility, setVisibility };
}

export interface TrackFormProps {
  /** The opening form's `useId`; the fields are `{id}-tags`, `{id}-lyrics` and `{id}-title`. */
  id: string;
  /** The fields above the genre tags (the source audio). */
  leading?: ReactNode;
  /** The model choice, between the leading fields and the genre tags. */
  modelChoice?: ReactNode;
  /**
   * The chosen model's words: its lyrics box (hidden for an instrumental-only
   * model, required for one that always sings, as long as it takes).
   */
  model?: ModelLimits;
  /** The fields between the title and the visibility (the duration). */
  children?: ReactNode;
  details: ReturnType<typeof useTrackDetails>;
  /** The duration the Lyrics helper opens with. */
  helperDuration: number;
  /** The form's start: its submit button waits while busy; its generation shows below the form. */
  run: Pick<ReturnType<typeof useStartGeneration>, 'busy' | 'generation'>;
  /** Generate Music waits (off, keeping its text) while something the form needs is on its way. */
  waiting?: boolean;
  /**
   * The Instrumental switch beside the lyrics (text to music): while on, the
   * lyrics and the Lyrics helper are off; the typed lyrics stay in the field.
   */
  instrumental?: { value: boolean; onChange: (instrumental: boolean) => void };
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
}

/**
 * The frame both create forms share: their own leading fields, then genre tags, lyrics with
 * the Lyrics helper, title, visibility and Generate Music, and below the form
 * the generation's progress and result.
 */
export function TrackForm({
  id,
  leading,
  modelChoice,
  model = fallbackLimits,
  children,
  details,
  helperDuration,
  run,
  waiting = false,
  instrumental,
  onSubmit,
}: TrackFormProps) {
  const { busy, generation } = run;
  const [helperOpen, setHelperOpen] = useState(false);
  const { user } = useUser();
  // Only a model that sings or not as asked has the Instrumental switch.
  const switchable = instrumental && model.lyrics === 'optional' ? instrumental : undefined;
  const noLyrics = switchable?.value ?? false;
  const required = model.lyrics === 'required';
  return (
    <div className="grid gap-6">
      <form noValidate onSubmit={onSubmit} className="grid gap-6">
        {leading}

        {modelChoice}

        <TagInput id={`${id}-tags`} value={details.tags} onChange={details.setTags} />

        {model.lyrics === 'none' ? (
          <p role="status" className="text-sm text-zinc-300">
            {noLyricsNote(model)}
          </p>
        ) : (
          <div className="grid gap-2">
            <div className="flex flex-wrap items-center justify-between gap-2">
              <Label htmlFor={`${id}-lyrics`}>{required ? 'Lyrics (required)' : 'Lyrics (optional)'}</Label>
              <div className="flex flex-wrap items-center gap-3">
                {switchable ? (
                  <div className="flex items-center gap-2">
                    <Switch
                      id={`${id}-instrumental`}
                      checked={switchable.value}
                      onCheckedChange={switchable.onChange}
                    />
                    <Label htmlFor={`${id}-instrumental`}>Instrumental</Label>
                  </div>
                ) : null}
                <Button variant="outline" size="sm" onClick={() => setHelperOpen(true)} disabled={noLyrics}>
                  Lyrics helper
                </Button>
              </div>
            </div>
            <Textarea
              id={`${id}-lyrics`}
              value={details.lyrics}
              maxLength={lyricsMax(model)}
              placeholder="[verse]&#10;Your lyrics here..."
              aria-describedby={`${id}-lyrics-hint`}
              aria-required={required || undefined}
              disabled={noLyrics}
              onChange={(event) => details.setLyrics(event.target.value)}
            />
            <p id={`${id}-lyrics-hint`} className="text-xs text-zinc-400">
              {required
                ? requiredLyricsHint(model)
                : noLyrics
                  ? 'Instrumental: the track has no vocals, and these lyrics are not sent.'
                  : 'Leave empty for an instrumental track.'}
            </p>
          </div>
        )}

        <div className="grid gap-2">
          <Label htmlFor={`${id}-title`}>Title (optional)</Label>
          <Input
            id={`${id}-title`}
            value={details.title}
            maxLength={TITLE_MAX_LENGTH}
            placeholder="Untitled Track"
            onChange={(event) => details.setTitle(event.target.value)}
          />
        </div>

        {children}

        <VisibilityField
          value={details.visibility}
          onChange={details.setVisibility}
          canPrivate={!user || canMakeTracksPrivate(user)}
        />

        <Button type="submit" size="lg" disabled={busy || waiting}>
          {busy ? 'Generating...' : 'Generate Music'}
        </Button>
      </form>

      <GenerationResult
        state={generation.state}
        elapsedSeconds={generation.elapsedSeconds}
        duration={helperDuration}
      />

      {/* Outside the form: the dialog has a form of its own, and its submit must not start a track. */}
      <LyricsHelperDialog
        open={helperOpen}
        onClose={() => setHelperOpen(false)}
        initialDuration={helperDuration}
        onUseLyrics={details.setLyrics}
      />
    </div>
  );
}
