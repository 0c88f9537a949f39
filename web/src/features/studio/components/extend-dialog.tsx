import { zodResolver } from '@hookform/resolvers/zod';
import { DURATION_MIN_SECONDS } from '@tunesmith/shared/constants';
import { type ExtendInput, extendRoom, generationMessages } from '@tunesmith/shared/generations';
import type { Track } from '@tunesmith/shared/tracks';
import { useId, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { trackTitle } from '@/components/tracks/track-title';
import { Dialog } from '@/components/ui/dialog';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { ToggleGroup } from '@/components/ui/toggle-group';
import { useExtendGeneration } from '../api/extend-generation';
import { useStudioModel } from '../hooks/use-studio-model';
import { useStudioOutcome } from '../hooks/use-studio-outcome';
import { studioMessages } from '../messages';
import { type ExtendFormValues, extendFormSchema } from '../utils/studio-forms';
import { StudioFooter, StudioTextFields } from './studio-form-parts';

export interface StudioDialogProps {
  track: Track;
  onClose: () => void;
  /** The new track, once the server has accepted the call. */
  onStarted?: (track: Track | null) => void;
}

const places = [
  { value: 'end', label: 'At the end' },
  { value: 'start', label: 'At the start' },
] as const;

/** Extend: how many seconds, at the start or the end, and optionally new tags and lyrics for them. */
export function ExtendDialog({ track, onClose, onStarted }: StudioDialogProps) {
  const id = useId();
  const max = extendRoom(track.duration);
  const extend = useExtendGeneration();
  const outcome = useStudioOutcome();
  const model = useStudioModel(track, 'extend');
  const [refusal, setRefusal] = useState<string | null>(null);
  const form = useForm<ExtendFormValues, unknown, ExtendInput>({
    resolver: zodResolver(extendFormSchema(track)),
    defaultValues: {
      seconds: String(Math.min(30, Math.max(DURATION_MIN_SECONDS, max))),
      at: 'end',
      tags: track.tags,
      lyrics: track.lyrics ?? '',
    },
  });
  const { errors } = form.formState;
  const typed = Number(form.watch('seconds'));
  const seconds = Number.isInteger(typed) && typed >= DURATION_MIN_SECONDS && typed <= max ? typed : null;
  const roomToGrow = max >= DURATION_MIN_SECONDS;

  const submit = form.handleSubmit((input) => {
    setRefusal(null);
    extend.mutate(
      { id: track.id, input },
      {
        onSuccess: (answer) => {
          const made = outcome.started('extend', track, answer);
          onClose();
          onStarted?.(made);
        },
        onError: (error) => setRefusal(outcome.failed(error)),
      },
    );
  });

  return (
    <Dialog
      open
      onClose={onClose}
      title={studioMessages.actions.extend}
      description={`Make "${trackTitle(track)}" longer.`}
    >
      <form onSubmit={submit} noValidate className="grid gap-4" aria-label={`Extend ${trackTitle(track)}`}>
        {roomToGrow ? (
          <>
            <FormField
              label="Seconds to add"
              htmlFor={`${id}-seconds`}
              error={errors.seconds?.message}
              errorId={`${id}-seconds-error`}
            >
              <Input
                id={`${id}-seconds`}
                type="number"
                inputMode="numeric"
                min={DURATION_MIN_SECONDS}
                max={max}
                step={1}
                aria-invalid={errors.seconds ? true : undefined}
                aria-describedby={errors.seconds ? `${id}-seconds-error` : `${id}-seconds-hint`}
                {...form.register('seconds')}
              />
              <p id={`${id}-seconds-hint`} className="text-xs text-zinc-400">
                {generationMessages.extendSecondsHint(max)}
              </p>
            </FormField>
            <div className="grid gap-2">
              <span className="text-sm font-medium text-zinc-200">Where to add the new music</span>
              <Controller
                control={form.control}
                name="at"
                render={({ field }) => (
                  <ToggleGroup
                    label="Where to add the new music"
                    options={places}
                    value={field.value}
                    onChange={field.onChange}
                    className="w-fit"
                  />
                )}
              />
            </div>
            <StudioTextFields id={id} register={form.register} errors={errors} />
          </>
        ) : (
          <p role="status" className="text-sm text-zinc-200">
            {generationMessages.extendNoRoom}
          </p>
        )}
        <StudioFooter
          willMake={studioMessages.extendWillMake(seconds)}
          refusal={refusal}
          pending={extend.isPending}
          submitLabel={studioMessages.submit.extend}
          onCancel={onClose}
          model={{ kind: 'extend', which: model }}
          canSubmit={roomToGrow}
        />
      </form>
    </Dialog>
  );
}
