import { zodResolver } from '@hookform/resolvers/zod';
import { generationMessages, type RepaintInput, secondsText } from '@tunesmith/shared/generations';
import { useId, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { trackTitle } from '@/components/tracks/track-title';
import { Dialog } from '@/components/ui/dialog';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { SectionPicker } from '@/components/waveform/section-picker';
import { useRepaintGeneration } from '../api/repaint-generation';
import { useStudioModel } from '../hooks/use-studio-model';
import { useStudioOutcome } from '../hooks/use-studio-outcome';
import { studioMessages } from '../messages';
import { defaultSection, type RepaintFormValues, repaintFormSchema } from '../utils/studio-forms';
import type { StudioDialogProps } from './extend-dialog';
import { StudioFooter, StudioTextFields } from './studio-form-parts';
import { VarianceSlider } from './variance-slider';

const asSeconds = (text: string) => (text.trim() === '' ? null : Number(text));

/**
 * Repaint section: a section chosen on the waveform or typed as start and end
 * in seconds (the keyboard's way), how far it may change, and optionally new
 * tags and lyrics for it.
 */
export function RepaintDialog({ track, onClose, onStarted }: StudioDialogProps) {
  const id = useId();
  const title = trackTitle(track);
  const duration = track.duration ?? 0;
  const repaint = useRepaintGeneration();
  const outcome = useStudioOutcome();
  const model = useStudioModel(track, 'repaint');
  const [refusal, setRefusal] = useState<string | null>(null);
  const initial = defaultSection(track.duration);
  const form = useForm<RepaintFormValues, unknown, RepaintInput>({
    resolver: zodResolver(repaintFormSchema(track)),
    defaultValues: {
      start: secondsText(initial.start),
      end: secondsText(initial.end),
      variance: 0.5,
      tags: track.tags,
      lyrics: track.lyrics ?? '',
    },
  });
  const { errors } = form.formState;
  const [startText, endText] = form.watch(['start', 'end']);
  const start = asSeconds(startText);
  const end = asSeconds(endText);
  const valid = (n: number | null): n is number => n != null && Number.isFinite(n);

  const pick = (section: { start: number; end: number }) => {
    form.setValue('start', secondsText(section.start), { shouldDirty: true });
    form.setValue('end', secondsText(section.end), { shouldDirty: true });
    form.clearErrors(['start', 'end']);
  };

  const submit = form.handleSubmit((input) => {
    setRefusal(null);
    repaint.mutate(
      { id: track.id, input },
      {
        onSuccess: (answer) => {
          const made = outcome.started('repaint', track, answer);
          onClose();
          onStarted?.(made);
        },
        onError: (error) => setRefusal(outcome.failed(error)),
      },
    );
  });

  const timeField = (name: 'start' | 'end', label: string) => (
    <FormField
      label={label}
      htmlFor={`${id}-${name}`}
      error={errors[name]?.message}
      errorId={`${id}-${name}-error`}
    >
      <Input
        id={`${id}-${name}`}
        type="number"
        inputMode="decimal"
        min={0}
        max={duration}
        step={0.1}
        aria-invalid={errors[name] ? true : undefined}
        aria-describedby={errors[name] ? `${id}-${name}-error` : `${id}-section-hint`}
        {...form.register(name)}
      />
    </FormField>
  );

  return (
    <Dialog
      open
      onClose={onClose}
      title={studioMessages.actions.repaint}
      description={`Play one section of "${title}" anew.`}
    >
      <form onSubmit={submit} noValidate className="grid gap-4" aria-label={`Repaint a section of ${title}`}>
        <SectionPicker
          peaksUrl={track.peaksUrl}
          src={track.audioUrl}
          duration={duration}
          start={valid(start) ? start : 0}
          end={valid(end) ? end : 0}
          onChange={pick}
          title={title}
        />
        <fieldset className="grid gap-2">
          <legend className="text-sm font-medium text-zinc-200">Section</legend>
          <div className="grid grid-cols-2 gap-3">
            {timeField('start', 'Start (seconds)')}
            {timeField('end', 'End (seconds)')}
          </div>
          <p id={`${id}-section-hint`} className="text-xs text-zinc-400">
            {generationMessages.sectionHint(duration)}
          </p>
        </fieldset>
        <div className="grid gap-2">
          <div className="flex items-center justify-between gap-2">
            <span id={`${id}-variance`} className="text-sm font-medium text-zinc-200">
              Variance
            </span>
            <span className="text-sm text-zinc-300 tabular-nums">{form.watch('variance').toFixed(2)}</span>
          </div>
          <Controller
            control={form.control}
            name="variance"
            render={({ field }) => (
              <VarianceSlider
                value={field.value}
                onChange={field.onChange}
                labelId={`${id}-variance`}
                describedBy={`${id}-variance-hint`}
              />
            )}
          />
          <p id={`${id}-variance-hint`} className="text-xs text-zinc-400">
            Low keeps close to the original; high lets the section change more.
          </p>
        </div>
        <StudioTextFields id={id} register={form.register} errors={errors} />
        <StudioFooter
          willMake={studioMessages.repaintWillMake(valid(start) ? start : null, valid(end) ? end : null)}
          refusal={refusal}
          pending={repaint.isPending}
          submitLabel={studioMessages.submit.repaint}
          onCancel={onClose}
          model={{ kind: 'repaint', which: model }}
        />
      </form>
    </Dialog>
  );
}
