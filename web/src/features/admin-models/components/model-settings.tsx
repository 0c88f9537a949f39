import { adminToasts } from '@tunesmith/shared/admin';
import type { AdminModels } from '@tunesmith/shared/model-settings';
import { useEffect, useId, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { AdminPage, LoadFailed } from '@/components/admin/admin-page';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Spinner } from '@/components/ui/spinner';
import { Switch } from '@/components/ui/switch';
import { ToggleGroup } from '@/components/ui/toggle-group';
import { serverMessage } from '@/lib/api-client';
import { toast } from '@/lib/toast';
import { useAdminModels, useSaveModels } from '../api';
import {
  checkQuotaCost,
  defaultRefusal,
  formOf,
  type ModelsFormValues,
  priceText,
  settingsOf,
  spendText,
} from '../utils/model-form';

const failedSave = 'Failed to save the models.';

const lyricsText = {
  optional: 'Lyrics or instrumental',
  required: 'Always sings',
  none: 'Instrumental only',
};

/** The settings form, once the page's data is here. */
function ModelsForm({ data }: { data: AdminModels }) {
  const id = useId();
  const save = useSaveModels();
  const [refusal, setRefusal] = useState<string | null>(null);
  const form = useForm<ModelsFormValues>({ defaultValues: formOf(data) });
  const { errors } = form.formState;
  // The settings as saved (by anyone) replace the form's once they are asked again.
  useEffect(() => {
    form.reset(formOf(data));
  }, [data, form]);

  const submit = form.handleSubmit((values) => {
    setRefusal(null);
    const wrongDefault = defaultRefusal(values, data);
    if (wrongDefault) {
      form.setError('defaultModel', { message: wrongDefault });
      return;
    }
    save.mutate(settingsOf(values), {
      onSuccess: () =>
        toast({ title: 'Models Saved', description: 'The changes apply to new tracks within a minute.' }),
      onError: (error) => {
        const message = serverMessage(error, failedSave);
        setRefusal(message);
        toast({ title: adminToasts.error, description: message, variant: 'destructive' });
      },
    });
  });

  const usage = new Map(data.usage.map((entry) => [entry.id, entry]));
  const defaultError = errors.defaultModel?.message;
  return (
    <form onSubmit={submit} noValidate className="grid gap-6" aria-label="Model settings">
      <Card className="grid gap-2 p-6">
        <span id={`${id}-default`} className="text-sm font-medium text-zinc-200">
          Default model
        </span>
        <Controller
          control={form.control}
          name="defaultModel"
          render={({ field }) => (
            <ToggleGroup
              label="Default model"
              options={data.models.map((m) => ({ value: m.id, label: m.name }))}
              value={field.value}
              onChange={(value) => {
                field.onChange(value);
                form.clearErrors('defaultModel');
              }}
              describedBy={defaultError ? `${id}-default-error` : `${id}-default-hint`}
              className="flex w-fit flex-wrap"
            />
          )}
        />
        {defaultError ? (
          <p id={`${id}-default-error`} role="alert" className="text-sm text-red-300">
            {defaultError}
          </p>
        ) : null}
        <p id={`${id}-default-hint`} className="text-xs text-zinc-400">
          Chosen on the create form unless a person picks another. It must be on and offered on every plan.
        </p>
      </Card>

      <div className="grid gap-6 lg:grid-cols-2">
        {data.models.map((model, index) => {
          const row = `${id}-${index}`;
          const used = usage.get(model.id);
          const costError = errors.models?.[index]?.quotaCost?.message;
          return (
            <Card key={model.id} className="p-6">
              <article aria-labelledby={`${row}-name`} className="grid gap-4">
                <header className="flex items-start justify-between gap-3">
                  <div className="min-w-0">
                    <h2 id={`${row}-name`} className="text-xl font-semibold text-white">
                      {model.name}
                    </h2>
                    <p className="text-sm text-zinc-400">{model.vendor}</p>
                  </div>
                  <div className="flex items-center gap-2">
                    <Controller
                      control={form.control}
                      name={`models.${index}.enabled`}
                      render={({ field }) => (
                        <Switch id={`${row}-on`} checked={field.value} onCheckedChange={field.onChange} />
                      )}
                    />
                    <Label htmlFor={`${row}-on`}>
                      On<span className="sr-only"> ({model.name})</span>
                    </Label>
                  </div>
                </header>
                <p className="text-sm text-zinc-300">{model.bestFor}</p>
                <dl className="grid grid-cols-2 gap-2 text-sm">
                  <div>
                    <dt className="text-zinc-400">Takes</dt>
                    <dd className="text-zinc-100">
                      {lyricsText[model.lyrics]};{' '}
                      {model.duration
                        ? `${model.duration.min} to ${model.duration.max} s`
                        : 'chooses its own length'}
                    </dd>
                  </div>
                  <div>
                    <dt className="text-zinc-400">Price at fal</dt>
                    <dd className="text-zinc-100">{priceText(model.price)}</dd>
                  </div>
                  <div>
                    <dt className="text-zinc-400">This week</dt>
                    <dd className="text-zinc-100">
                      {used
                        ? `${used.generations.toLocaleString('en-US')} ${used.generations === 1 ? 'generation' : 'generations'}, ${spendText(used.spendUsd)}`
                        : 'No generations'}
                    </dd>
                  </div>
                  <div>
                    <dt className="text-zinc-400">Endpoints</dt>
                    <dd className="break-all text-zinc-100">
                      {Object.entries(model.endpoints).map(([kind, endpoint]) => (
                        <code key={kind} className="block font-mono text-xs">
                          {kind}: {endpoint}
                        </code>
                      ))}
                    </dd>
                  </div>
                </dl>
                <FormField
                  label="Quota units per generation"
                  htmlFor={`${row}-cost`}
                  error={costError}
                  errorId={`${row}-cost-error`}
                >
                  <Input
                    id={`${row}-cost`}
                    type="number"
                    inputMode="numeric"
                    min={1}
                    max={10}
                    step={1}
                    className="w-28"
                    aria-invalid={costError ? true : undefined}
                    aria-describedby={costError ? `${row}-cost-error` : undefined}
                    {...form.register(`models.${index}.quotaCost`, { validate: checkQuotaCost })}
                  />
                </FormField>
                <Controller
                  control={form.control}
                  name={`models.${index}.plans`}
                  render={({ field }) => (
                    <fieldset className="grid gap-2">
                      <legend className="mb-1 text-sm font-medium text-zinc-200">
                        Plans that may use it
                      </legend>
                      {data.plans.length === 0 ? (
                        <p className="text-sm text-zinc-400">There are no plans yet.</p>
                      ) : (
                        <div className="flex flex-wrap gap-x-5 gap-y-2">
                          {data.plans.map((plan) => (
                            <label key={plan.id} className="flex items-center gap-2 text-sm text-zinc-200">
                              <input
                                type="checkbox"
                                className="size-4 accent-fuchsia-500"
                                checked={field.value.includes(plan.id)}
                                onChange={(event) =>
                                  field.onChange(
                                    event.target.checked
                                      ? data.plans
                                          .map((p) => p.id)
                                          .filter((p) => p === plan.id || field.value.includes(p))
                                      : field.value.filter((p) => p !== plan.id),
                                  )
                                }
                              />
                              {plan.name}
                            </label>
                          ))}
                        </div>
                      )}
                    </fieldset>
                  )}
                />
                <a
                  href={model.termsUrl}
                  target="_blank"
                  rel="noopener noreferrer"
                  className="w-fit rounded text-sm font-medium text-fuchsia-300 underline-offset-4 hover:underline focus-visible:outline-2 focus-visible:outline-violet-300"
                >
                  Terms of {model.name}
                </a>
              </article>
            </Card>
          );
        })}
      </div>

      {refusal ? (
        <p
          role="alert"
          className="rounded-lg border border-red-400/40 bg-red-500/10 px-3 py-2 text-sm text-red-200"
        >
          {refusal}
        </p>
      ) : null}
      <div className="flex flex-wrap items-center gap-3">
        <Button type="submit" disabled={save.isPending} aria-busy={save.isPending}>
          {save.isPending ? 'Saving...' : 'Save'}
        </Button>
        <Button variant="outline" onClick={() => form.reset(formOf(data))} disabled={save.isPending}>
          Reset
        </Button>
        <p className="text-xs text-zinc-400">Tracks under way finish with the model they started with.</p>
      </div>
    </form>
  );
}

/**
 * Models: turn each model on or off, choose the default, set what a
 * generation with it costs in quota units and which plans may use it; with
 * this week's generations and provider spend of each.
 */
export function ModelSettings() {
  const models = useAdminModels();
  return (
    <AdminPage title="Models">
      <p className="text-sm text-zinc-300">
        The music models people can choose from. Changes apply to new tracks within a minute and are recorded
        in the activity log.
      </p>
      {models.isError ? <LoadFailed what="the models" onRetry={() => void models.refetch()} /> : null}
      {models.isPending ? <Spinner label="Loading models" /> : null}
      {models.data ? <ModelsForm data={models.data} /> : null}
    </AdminPage>
  );
}
