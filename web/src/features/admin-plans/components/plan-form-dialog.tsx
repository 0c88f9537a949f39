import { zodResolver } from '@hookform/resolvers/zod';
import { adminToasts } from '@tunesmith/shared/admin';
import { priceEditNotice } from '@tunesmith/shared/billing';
import { planFeatures } from '@tunesmith/shared/plan-values';
import { useId } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Switch } from '@/components/ui/switch';
import { Textarea } from '@/components/ui/textarea';
import { serverMessage } from '@/lib/api-client';
import { formatPrice } from '@/lib/format';
import { toast } from '@/lib/toast';
import {
  type AdminPlan,
  type AdminPlanFormValues,
  type AdminPlanInput,
  adminPlanInputSchema,
  useSavePlan,
} from '../api';

const cycles = [
  { price: 'weeklyPrice', unit: 'week' },
  { price: 'monthlyPrice', unit: 'month' },
  { price: 'yearlyPrice', unit: 'year' },
] as const;

/** "$12.00 per month" for each price the form changed from the plan's, as new subscribers will pay it. */
function changedPrices(
  plan: AdminPlan | undefined,
  values: Pick<AdminPlanFormValues, (typeof cycles)[number]['price']>,
) {
  if (!plan) return [];
  return cycles.flatMap(({ price, unit }) => {
    const typed = Number(values[price] === '' ? 0 : values[price]);
    if (!Number.isFinite(typed) || typed === plan[price] || typed <= 0) return [];
    return [`${formatPrice(typed)} per ${unit}`];
  });
}

type TextName = Exclude<
  keyof AdminPlanFormValues,
  'isActive' | 'commercialUse' | 'stemsFour' | 'stemsSix' | 'apiAccess' | 'features'
>;

const emptyForm: AdminPlanFormValues = {
  name: '',
  description: '',
  features: '',
  weeklyPrice: '',
  monthlyPrice: '',
  yearlyPrice: '',
  weeklyPriceId: '',
  monthlyPriceId: '',
  yearlyPriceId: '',
  maxGenerations: '',
  generationsNumber: '',
  sortOrder: '',
  isActive: true,
  commercialUse: false,
  stemsFour: true,
  stemsSix: false,
  apiAccess: true,
};

const formOf = (plan: AdminPlan): AdminPlanFormValues => ({
  name: plan.name,
  description: plan.description ?? '',
  features: planFeatures(plan.features).join('\n'),
  weeklyPrice: String(plan.weeklyPrice),
  monthlyPrice: String(plan.monthlyPrice),
  yearlyPrice: String(plan.yearlyPrice),
  weeklyPriceId: plan.weeklyPriceId ?? '',
  monthlyPriceId: plan.monthlyPriceId ?? '',
  yearlyPriceId: plan.yearlyPriceId ?? '',
  maxGenerations: String(plan.maxGenerations),
  generationsNumber: String(plan.generationsNumber),
  sortOrder: String(plan.sortOrder),
  isActive: plan.isActive,
  commercialUse: plan.commercialUse,
  stemsFour: plan.stemsFour,
  stemsSix: plan.stemsSix,
  apiAccess: plan.apiAccess,
});

/** Create or edit a plan: the spec's defaults (5, 5, 0) fill empty numbers, prices take cents. */
export function PlanFormDialog({ plan, onClose }: { plan?: AdminPlan; onClose: () => void }) {
  const id = useId();
  const save = useSavePlan();
  const form = useForm<AdminPlanFormValues, unknown, AdminPlanInput>({
    resolver: zodResolver(adminPlanInputSchema),
    defaultValues: plan ? formOf(plan) : emptyForm,
  });
  const { errors } = form.formState;
  const [weeklyPrice, monthlyPrice, yearlyPrice] = form.watch(['weeklyPrice', 'monthlyPrice', 'yearlyPrice']);
  const changes = changedPrices(plan, { weeklyPrice, monthlyPrice, yearlyPrice });

  const submit = form.handleSubmit((input) =>
    save.mutate(
      { ...(plan ? { id: plan.id } : {}), input },
      {
        onSuccess: (saved) => {
          toast({ title: plan ? 'Plan Updated' : 'Plan Created', description: `${saved.name} was saved.` });
          onClose();
        },
        onError: (error) =>
          toast({
            title: adminToasts.error,
            description: serverMessage(
              error,
              plan ? adminToasts.failedUpdatePlanRecord : adminToasts.failedCreatePlan,
            ),
            variant: 'destructive',
          }),
      },
    ),
  );

  const text = (name: TextName, label: string, extra: Record<string, string | number> = {}) => {
    const message = errors[name]?.message;
    return (
      <FormField label={label} htmlFor={`${id}-${name}`} error={message} errorId={`${id}-${name}-error`}>
        <Input
          id={`${id}-${name}`}
          aria-invalid={message ? true : undefined}
          aria-describedby={message ? `${id}-${name}-error` : undefined}
          {...extra}
          {...form.register(name)}
        />
      </FormField>
    );
  };
  const price = (name: TextName, label: string, placeholder: string) =>
    text(name, label, { type: 'number', step: '0.01', min: 0, inputMode: 'decimal', placeholder });
  const count = (name: TextName, label: string, placeholder: string, min: number) =>
    text(name, label, { type: 'number', step: 1, min, inputMode: 'numeric', placeholder });

  return (
    <Dialog open onClose={onClose} title={plan ? 'Edit Plan' : 'Create Plan'} className="max-w-2xl">
      <form
        onSubmit={submit}
        noValidate
        className="grid gap-4"
        aria-label={plan ? 'Edit plan' : 'Create plan'}
      >
        {text('name', 'Name', { placeholder: 'Premium' })}
        <FormField label="Description" htmlFor={`${id}-description`} errorId={`${id}-description-error`}>
          <Textarea id={`${id}-description`} className="min-h-20" {...form.register('description')} />
        </FormField>
        <FormField
          label="Features (one per line)"
          htmlFor={`${id}-features`}
          error={errors.features?.message}
          errorId={`${id}-features-error`}
        >
          <Textarea id={`${id}-features`} className="min-h-24" {...form.register('features')} />
        </FormField>
        <div className="grid gap-4 sm:grid-cols-3">
          {price('weeklyPrice', 'Weekly Price ($)', '2.99')}
          {price('monthlyPrice', 'Monthly Price ($)', '9.99')}
          {price('yearlyPrice', 'Yearly Price ($)', '99.99')}
        </div>
        {changes.length > 0 ? (
          <p
            role="status"
            className="rounded-md border border-amber-400/40 bg-amber-500/10 px-3 py-2 text-sm text-amber-100"
          >
            {priceEditNotice(changes)}
          </p>
        ) : null}
        <div className="grid gap-4 sm:grid-cols-3">
          {text('weeklyPriceId', 'Weekly Price ID', {
            readOnly: 'true',
            'aria-describedby': `${id}-price-ids`,
          })}
          {text('monthlyPriceId', 'Monthly Price ID', {
            readOnly: 'true',
            'aria-describedby': `${id}-price-ids`,
          })}
          {text('yearlyPriceId', 'Yearly Price ID', {
            readOnly: 'true',
            'aria-describedby': `${id}-price-ids`,
          })}
        </div>
        <p id={`${id}-price-ids`} className="-mt-2 text-xs text-zinc-400">
          Stripe price IDs are made when an active plan is saved: a new price for each changed amount.
        </p>
        <div className="grid gap-4 sm:grid-cols-3">
          {count('maxGenerations', 'Max Generations', '5', 1)}
          {count('generationsNumber', 'Generations Number', '5', 1)}
          {count('sortOrder', 'Sort Order', '0', 0)}
        </div>
        <div className="flex items-center gap-3">
          <Controller
            control={form.control}
            name="isActive"
            render={({ field }) => (
              <Switch id={`${id}-active`} checked={field.value ?? true} onCheckedChange={field.onChange} />
            )}
          />
          <label htmlFor={`${id}-active`} className="text-sm font-medium text-zinc-200">
            Active (offered on Pricing)
          </label>
        </div>
        <div className="grid gap-1">
          <div className="flex items-center gap-3">
            <Controller
              control={form.control}
              name="commercialUse"
              render={({ field }) => (
                <Switch
                  id={`${id}-commercial`}
                  checked={field.value ?? false}
                  onCheckedChange={field.onChange}
                  aria-describedby={`${id}-commercial-help`}
                />
              )}
            />
            <label htmlFor={`${id}-commercial`} className="text-sm font-medium text-zinc-200">
              Commercial use
            </label>
          </div>
          <p id={`${id}-commercial-help`} className="text-xs text-zinc-400">
            Tracks made on this plan may be used commercially. A track keeps the license of the plan it was
            made on; changing this affects only tracks made afterwards.
          </p>
        </div>
        <fieldset className="grid gap-2" aria-describedby={`${id}-stems-help`}>
          <legend className="text-sm font-medium text-zinc-200">Stems</legend>
          {(
            [
              ['stemsFour', '4 stems (vocals, drums, bass, other)'],
              ['stemsSix', '6 stems (adds guitar and piano)'],
            ] as const
          ).map(([name, label]) => (
            <div key={name} className="flex items-center gap-3">
              <Controller
                control={form.control}
                name={name}
                render={({ field }) => (
                  <Switch
                    id={`${id}-${name}`}
                    checked={field.value ?? name === 'stemsFour'}
                    onCheckedChange={field.onChange}
                  />
                )}
              />
              <label htmlFor={`${id}-${name}`} className="text-sm text-zinc-200">
                {label}
              </label>
            </div>
          ))}
          <p id={`${id}-stems-help`} className="text-xs text-zinc-400">
            Which separations users on this plan may ask for; each costs one generation of the week.
          </p>
        </fieldset>
        <div className="grid gap-1">
          <div className="flex items-center gap-3">
            <Controller
              control={form.control}
              name="apiAccess"
              render={({ field }) => (
                <Switch
                  id={`${id}-api-access`}
                  checked={field.value ?? true}
                  onCheckedChange={field.onChange}
                  aria-describedby={`${id}-api-access-help`}
                />
              )}
            />
            <label htmlFor={`${id}-api-access`} className="text-sm font-medium text-zinc-200">
              API access
            </label>
          </div>
          <p id={`${id}-api-access-help`} className="text-xs text-zinc-400">
            Users on this plan may create API keys and call the Tunesmith API, within the plan's quota.
            Turning it off refuses their keys at once.
          </p>
        </div>
        <div className="mt-2 flex justify-end gap-2">
          <Button variant="outline" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" disabled={save.isPending}>
            {save.isPending ? 'Saving...' : plan ? 'Update Plan' : 'Create Plan'}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
