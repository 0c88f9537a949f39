import { DURATION_DEFAULT_SECONDS } from '@tunesmith/shared/constants';
import { generationMessages, textToMusicSchema } from '@tunesmith/shared/generations';
import { type FormEvent, useId, useState } from 'react';
import { toast } from '@/lib/toast';
import { useGenerateTextToMusic } from '../api/generate-text-to-music';
import { useModelChoice } from '../hooks/use-model-choice';
import { useStartGeneration } from '../hooks/use-start-generation';
import { createMessages } from '../messages';
import { clampDuration, fallbackLimits, modelRefusal } from '../utils/model-fields';
import { DurationSlider } from './duration-slider';
import { ModelChoice } from './model-choice';
import { parseTags } from './tag-input';
import { TempoKeyFields } from './tempo-key-fields';
import { TrackForm, useTrackDetails } from './track-form';

/**
 * Text to Music: the model, tags, lyrics as the model takes them (or
 * Instrumental), title, duration within the model's range (none for a model
 * that decides the length), an optional tempo and key, and visibility, then
 * the generation's progress.
 */
export function TextToMusicForm() {
  const id = useId();
  const details = useTrackDetails();
  const choice = useModelChoice('text');
  const limits = choice.model ?? fallbackLimits;
  const [wantedDuration, setDuration] = useState(DURATION_DEFAULT_SECONDS);
  // The slider keeps the length asked for; a model with a shorter range takes the nearest it can make.
  const duration = clampDuration(limits, wantedDuration);
  // The typed lyrics stay in their field while Instrumental is on, and are sent again once it is off.
  const [instrumentalOn, setInstrumental] = useState(false);
  const instrumental = limits.lyrics === 'optional' && instrumentalOn;
  const [bpm, setBpm] = useState('');
  const [musicalKey, setMusicalKey] = useState('');
  const run = useStartGeneration(useGenerateTextToMusic());

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (run.busy) return;
    const tags = parseTags(details.tags).join(', ');
    // An instrumental-only model is sent no lyrics, whatever the box held before it was chosen.
    const lyrics = instrumental || limits.lyrics === 'none' ? '' : details.lyrics;
    const parsed = textToMusicSchema.safeParse({
      tags,
      lyrics,
      instrumental,
      // A model that decides the length is asked for none.
      duration: limits.duration ? duration : undefined,
      model: choice.model?.id,
      title: details.title,
      visibility: details.visibility,
      // An empty tempo asks for none; anything else typed is checked by the schema (a whole number in range).
      bpm: bpm.trim() === '' ? undefined : Number(bpm),
      key: musicalKey || undefined,
    });
    const refusal = parsed.success && choice.model ? modelRefusal(choice.model, tags, lyrics) : null;
    if (!parsed.success || refusal) {
      const issue = parsed.success ? undefined : parsed.error.issues[0];
      const missingTags = issue?.path[0] === 'tags';
      toast({
        title: missingTags ? generationMessages.tagsRequiredTitle : createMessages.generationFailedTitle,
        description: refusal ?? issue?.message ?? generationMessages.startFailed,
        variant: 'destructive',
      });
      return;
    }
    run.launch({ ...parsed.data, ...(limits.lyrics === 'none' ? { lyrics: undefined } : {}) });
  };

  return (
    <TrackForm
      id={id}
      modelChoice={<ModelChoice id={`${id}-model`} choice={choice} />}
      model={limits}
      details={details}
      helperDuration={duration}
      run={run}
      instrumental={{ value: instrumentalOn, onChange: setInstrumental }}
      onSubmit={submit}
    >
      {limits.duration ? (
        <DurationSlider
          id={`${id}-duration`}
          value={duration}
          onChange={setDuration}
          min={limits.duration.min}
          max={limits.duration.max}
        />
      ) : (
        <div className="grid gap-1">
          <span className="text-sm font-medium text-zinc-200">Duration</span>
          <p className="text-sm text-zinc-300">The model chooses the length.</p>
        </div>
      )}
      <TempoKeyFields
        id={id}
        bpm={bpm}
        onBpmChange={setBpm}
        musicalKey={musicalKey}
        onKeyChange={setMusicalKey}
      />
    </TrackForm>
  );
}
