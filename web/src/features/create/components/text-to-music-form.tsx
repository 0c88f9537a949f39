import { DURATION_DEFAULT_SECONDS } from '@tunesmith/shared/constants';
import { generationMessages, textToMusicSchema } from '@tunesmith/shared/generations';
import { type FormEvent, useId, useState } from 'react';
import { toast } from '@/lib/toast';
import { useGenerateTextToMusic } from '../api/generate-text-to-music';
import { useStartGeneration } from '../hooks/use-start-generation';
import { createMessages } from '../messages';
import { DurationSlider } from './duration-slider';
import { parseTags } from './tag-input';
import { TempoKeyFields } from './tempo-key-fields';
import { TrackForm, useTrackDetails } from './track-form';

/**
 * Text to Music: tags, optional lyrics (or Instrumental), title, duration, an optional tempo and
 * key, and visibility, then the generation's progress.
 */
export function TextToMusicForm() {
  const id = useId();
  const details = useTrackDetails();
  const [duration, setDuration] = useState(DURATION_DEFAULT_SECONDS);
  // The typed lyrics stay in their field while Instrumental is on, and are sent again once it is off.
  const [instrumental, setInstrumental] = useState(false);
  const [bpm, setBpm] = useState('');
  const [musicalKey, setMusicalKey] = useState('');
  const run = useStartGeneration(useGenerateTextToMusic());

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (run.busy) return;
    const parsed = textToMusicSchema.safeParse({
      tags: parseTags(details.tags).join(', '),
      lyrics: instrumental ? '' : details.lyrics,
      instrumental,
      duration,
      title: details.title,
      visibility: details.visibility,
      // An empty tempo asks for none; anything else typed is checked by the schema (a whole number in range).
      bpm: bpm.trim() === '' ? undefined : Number(bpm),
      key: musicalKey || undefined,
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
    run.launch(parsed.data);
  };

  return (
    <TrackForm
      id={id}
      details={details}
      helperDuration={duration}
      run={run}
      instrumental={{ value: instrumental, onChange: setInstrumental }}
      onSubmit={submit}
    >
      <DurationSlider id={`${id}-duration`} value={duration} onChange={setDuration} />
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
