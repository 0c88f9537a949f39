import { LYRICS_MAX_LENGTH, TAGS_MAX_LENGTH } from '@tunesmith/shared/generations';
import type { EditKind } from '@tunesmith/shared/tracks';
import type { FieldErrors, UseFormRegister } from 'react-hook-form';
import { Link } from 'react-router';
import { Button, buttonClasses } from '@/components/ui/button';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Textarea } from '@/components/ui/textarea';
import type { StudioModel } from '../hooks/use-studio-model';
import { studioMessages } from '../messages';
import { StudioCost, useStudioQuota } from './studio-cost';

/** Which model will make the new track and what it costs, or that none the user may use can. */
function modelLine(model: StudioModel, kind: EditKind): string {
  const does = studioMessages.modelDoes[kind];
  switch (model.state) {
    case 'loading':
      return studioMessages.modelLoading;
    case 'unknown':
      return studioMessages.modelUnknown;
    case 'none':
      return studioMessages.noModel(model.trackModel, does);
    case 'chosen':
      return studioMessages.madeWith(model.trackModel, model.model.name, does, model.model.quotaCost);
  }
}

/** The optional tags and lyrics of a studio dialog, filled with the track's own. */
export function StudioTextFields({
  id,
  register,
  errors,
}: {
  id: string;
  // biome-ignore lint/suspicious/noExplicitAny: both dialogs' forms have tags and lyrics
  register: UseFormRegister<any>;
  errors: FieldErrors<{ tags: string; lyrics: string }>;
}) {
  const field = (name: 'tags' | 'lyrics') => ({
    id: `${id}-${name}`,
    'aria-invalid': errors[name] ? true : undefined,
    'aria-describedby': errors[name] ? `${id}-${name}-error` : `${id}-text-hint`,
  });
  return (
    <fieldset className="grid gap-3">
      <legend className="text-sm font-medium text-zinc-200">Tags and lyrics (optional)</legend>
      <p id={`${id}-text-hint`} className="text-xs text-zinc-400">
        {studioMessages.textHint}
      </p>
      <FormField
        label="Tags"
        htmlFor={`${id}-tags`}
        error={errors.tags?.message}
        errorId={`${id}-tags-error`}
      >
        <Input {...field('tags')} maxLength={TAGS_MAX_LENGTH} {...register('tags')} />
      </FormField>
      <FormField
        label="Lyrics"
        htmlFor={`${id}-lyrics`}
        error={errors.lyrics?.message}
        errorId={`${id}-lyrics-error`}
      >
        <Textarea
          {...field('lyrics')}
          className="min-h-20"
          maxLength={LYRICS_MAX_LENGTH}
          {...register('lyrics')}
        />
      </FormField>
    </fieldset>
  );
}

/**
 * The end of every studio dialog: what will happen, which model will do it
 * (a studio action of a model's), what it costs, the server's refusal if it
 * refused, and Cancel and the action. With none of the week's generations
 * left it says so and offers the plans instead of the action; where the
 * action cannot be taken at all (`canSubmit` false, or no model the user may
 * use runs it) it only closes.
 */
export function StudioFooter({
  willMake,
  refusal,
  pending,
  submitLabel,
  onCancel,
  canSubmit = true,
  model,
}: {
  willMake: string;
  refusal: string | null;
  pending: boolean;
  submitLabel: string;
  onCancel: () => void;
  canSubmit?: boolean;
  /** The model the action runs, and the action. */
  model?: { kind: EditKind; which: StudioModel };
}) {
  const quota = useStudioQuota();
  const line = model ? (
    // Room for two lines from the start: the dialog keeps its height as the model is known.
    <p role="status" aria-live="polite" className="min-h-10 text-sm text-zinc-200">
      {modelLine(model.which, model.kind)}
    </p>
  ) : null;
  if (model?.which.state === 'none') {
    return (
      <div className="grid gap-3">
        {line}
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Button variant="outline" onClick={onCancel}>
            {studioMessages.close}
          </Button>
          <Link to="/pricing" className={buttonClasses('primary', 'md')}>
            {studioMessages.seePlans}
          </Link>
        </div>
      </div>
    );
  }
  if (!canSubmit) {
    return (
      <div className="flex justify-end">
        <Button variant="outline" onClick={onCancel}>
          {studioMessages.close}
        </Button>
      </div>
    );
  }
  const units = model?.which.state === 'chosen' ? model.which.model.quotaCost : 1;
  const spent = quota.left !== null && quota.left < units;
  return (
    <div className="grid gap-3">
      <p className="text-sm text-zinc-200">
        {willMake} {studioMessages.originalStays}
      </p>
      {line}
      <StudioCost quota={quota} units={units} />
      {refusal ? (
        <p
          role="alert"
          className="rounded-lg border border-red-400/40 bg-red-500/10 px-3 py-2 text-sm text-red-200"
        >
          {refusal}
        </p>
      ) : null}
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button variant="outline" onClick={onCancel} disabled={pending}>
          {spent ? studioMessages.close : 'Cancel'}
        </Button>
        {spent ? (
          <Link to="/pricing" className={buttonClasses('primary', 'md')}>
            {studioMessages.seePlans}
          </Link>
        ) : (
          <Button type="submit" disabled={pending} aria-busy={pending}>
            {pending ? studioMessages.pending : submitLabel}
          </Button>
        )}
      </div>
    </div>
  );
}
