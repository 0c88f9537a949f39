import { DURATION_DEFAULT_SECONDS } from '@tunesmith/shared/constants';
import { audioToMusicSchema, generationMessages } from '@tunesmith/shared/generations';
import { UPLOAD_MAX_LABEL } from '@tunesmith/shared/uploads';
import { type FormEvent, useId, useState } from 'react';
import { toast } from '@/lib/toast';
import { useGenerateAudioToMusic } from '../api/generate-audio-to-music';
import { useModelChoice } from '../hooks/use-model-choice';
import { useStartGeneration } from '../hooks/use-start-generation';
import { createMessages } from '../messages';
import type { UploadInProgress } from '../utils/audio-uploader';
import { fallbackLimits, modelRefusal } from '../utils/model-fields';
import { ModelChoice } from './model-choice';
import { parseTags } from './tag-input';
import { TrackForm, useTrackDetails } from './track-form';
import { UploadAudioDialog, type UploadedAudio } from './upload-audio-dialog';

/**
 * Audio to Music: upload a song, then restyle it with one of the models that
 * can, tags, lyrics as the model takes them, title and a visibility; the
 * generation is followed like a text one.
 */
export function AudioToMusicForm() {
  const id = useId();
  const [audio, setAudio] = useState<UploadedAudio | null>(null);
  // A finished upload is checked by the server before it counts as the form's audio.
  const [checking, setChecking] = useState(false);
  // An upload under way, shown here too: the dialog may have been closed while it goes on.
  const [uploading, setUploading] = useState<UploadInProgress | null>(null);
  const waiting = checking || uploading !== null;
  const details = useTrackDetails();
  const choice = useModelChoice('audio');
  const limits = choice.model ?? fallbackLimits;
  const run = useStartGeneration(useGenerateAudioToMusic());

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (run.busy || waiting) return;
    const tagList = parseTags(details.tags).join(', ');
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
    const lyrics = limits.lyrics === 'none' ? '' : details.lyrics;
    const parsed = audioToMusicSchema.safeParse({
      tags: tagList,
      lyrics,
      model: choice.model?.id,
      inputAudioUrl: audio.objectPath,
      title: details.title,
      visibility: details.visibility,
    });
    const refusal = parsed.success && choice.model ? modelRefusal(choice.model, tagList, lyrics) : null;
    if (!parsed.success || refusal) {
      toast({
        title: createMessages.generationFailedTitle,
        description:
          refusal ??
          (parsed.success ? undefined : parsed.error.issues[0]?.message) ??
          generationMessages.startFailed,
        variant: 'destructive',
      });
      return;
    }
    run.launch({ ...parsed.data, ...(limits.lyrics === 'none' ? { lyrics: undefined } : {}) });
  };

  const audioId = `${id}-audio`;
  return (
    <TrackForm
      id={id}
      leading={
        <fieldset className="grid gap-2" aria-describedby={`${audioId}-hint`}>
          <legend className="mb-2 text-sm font-medium text-zinc-200">Source Audio</legend>
          <UploadAudioDialog
            onUploaded={setAudio}
            onCheckingChange={setChecking}
            onUploadingChange={setUploading}
            disabled={run.busy}
          />
          <p id={`${audioId}-hint`} className="text-xs text-zinc-400">
            One MP3, WAV, M4A, AAC or OGG file, up to {UPLOAD_MAX_LABEL}. It is restyled into the tags below.
          </p>
          <p role="status" className="text-sm text-zinc-200">
            {checking ? (
              'Checking upload...'
            ) : uploading ? (
              <>
                Uploading <span className="font-medium text-white">{uploading.fileName}</span>... Upload Audio
                shows it and can cancel it.
              </>
            ) : audio ? (
              <>
                Selected file: <span className="font-medium text-white">{audio.fileName}</span>
              </>
            ) : (
              <span className="text-zinc-400">No audio file uploaded yet.</span>
            )}
          </p>
          {uploading && !checking ? (
            // Outside the status line, so its steps are not read out one by one.
            <div className="flex items-center gap-3">
              <progress
                max={100}
                value={uploading.percentage}
                aria-label={`Uploading ${uploading.fileName}`}
                className="h-1.5 flex-1 accent-fuchsia-500"
              />
              <span aria-hidden="true" className="text-xs text-zinc-300 tabular-nums">
                {uploading.percentage}%
              </span>
            </div>
          ) : null}
        </fieldset>
      }
      modelChoice={<ModelChoice id={`${id}-model`} choice={choice} />}
      model={limits}
      details={details}
      helperDuration={DURATION_DEFAULT_SECONDS}
      run={run}
      waiting={waiting}
      onSubmit={submit}
    />
  );
}
