import { zodResolver } from '@hookform/resolvers/zod';
import {
  type AdminUserView,
  adminMessages,
  adminPlanStatuses,
  adminToasts,
  adminUpdateUserSchema,
} from '@tunesmith/shared/admin';
import { useId } from 'react';
import { Controller, useForm } from 'react-hook-form';
import * as z from 'zod/mini';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { FormField } from '@/components/ui/form-field';
import { fieldClasses, Input } from '@/components/ui/input';
import { Switch } from '@/components/ui/switch';
import { ToggleGroup } from '@/components/ui/toggle-group';
import { serverMessage } from '@/lib/api-client';
import { toast } from '@/lib/toast';
import { useActivePlans, useAssignPlan, useUpdateUser } from '../api';

const editSchema = z.required(adminUpdateUserSchema);
type EditValues = z.input<typeof editSchema>;

/** Edit a user's names, email and verification; only changed fields are sent. */
export function EditUserDialog({ user, onClose }: { user: AdminUserView; onClose: () => void }) {
  const id = useId();
  const update = useUpdateUser();
  const form = useForm<EditValues>({
    resolver: zodResolver(editSchema),
    defaultValues: {
      firstName: user.firstName,
      lastName: user.lastName,
      email: user.email,
      emailVerified: user.emailVerified,
    },
  });
  const { errors, dirtyFields } = form.formState;

  const submit = form.handleSubmit((values) => {
    const changes = Object.fromEntries(
      (Object.keys(dirtyFields) as (keyof EditValues)[])
        .filter((name) => dirtyFields[name])
        .map((name) => [name, values[name]]),
    );
    if (Object.keys(changes).length === 0) {
      onClose();
      return;
    }
    update.mutate(
      { id: user.id, changes },
      {
        onSuccess: () => {
          toast({
            title: adminToasts.userUpdated,
            description: `${user.firstName} ${user.lastName} was updated.`,
          });
          onClose();
        },
        onError: (error) =>
          toast({
            title: adminToasts.updateFailed,
            description: serverMessage(error, adminToasts.failedUpdateUser),
            variant: 'destructive',
          }),
      },
    );
  });

  const field = (name: 'firstName' | 'lastName' | 'email', label: string, type = 'text') => (
    <FormField
      label={label}
      htmlFor={`${id}-${name}`}
      error={errors[name]?.message}
      errorId={`${id}-${name}-error`}
    >
      <Input
        id={`${id}-${name}`}
        type={type}
        aria-invalid={errors[name] ? true : undefined}
        aria-describedby={errors[name] ? `${id}-${name}-error` : undefined}
        {...form.register(name)}
      />
    </FormField>
  );

  return (
    <Dialog open onClose={onClose} title="Edit User" description={user.email}>
      <form onSubmit={submit} noValidate className="grid gap-4" aria-label="Edit user">
        {field('firstName', 'First Name')}
        {field('lastName', 'Last Name')}
        {field('email', 'Email', 'email')}
        <div className="flex items-center justify-between gap-3">
          <label htmlFor={`${id}-verified`} className="text-sm font-medium text-zinc-200">
            Email Verified
          </label>
          <Controller
            control={form.control}
            name="emailVerified"
            render={({ field: f }) => (
              <Switch id={`${id}-verified`} checked={f.value} onCheckedChange={f.onChange} />
            )}
          />
        </div>
        <div className="mt-2 flex justify-end gap-2">
          <Button variant="outline" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" disabled={update.isPending}>
            {update.isPending ? 'Saving...' : 'Save Changes'}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

const FREE = 'free-plan';
const planFormSchema = z.object({ planId: z.string(), status: z.enum(adminPlanStatuses) });
type PlanValues = z.infer<typeof planFormSchema>;
const statusOptions = [
  { value: 'active', label: 'Active' },
  { value: 'expired', label: 'Expired' },
  { value: 'cancelled', label: 'Cancelled' },
] as const;
const planStatusLabels: Record<AdminUserView['planStatus'], string> = {
  free: 'Free',
  active: 'Active',
  cancelled: 'Cancelled',
  inactive: 'Inactive (a payment failed)',
  expired: 'Expired',
};

/**
 * Free Plan, or an active plan with Active, Expired or Cancelled; the current
 * ones prefilled. For a user who pays through Stripe the plan follows the
 * subscription: the dialog shows it with the reason, and nothing can be sent.
 */
export function PlanDialog({ user, onClose }: { user: AdminUserView; onClose: () => void }) {
  const id = useId();
  const plans = useActivePlans();
  const assign = useAssignPlan();
  const locked = user.hasStripeSubscription;
  const reasonId = `${id}-locked`;
  const current = user.subscriptionPlanId && user.planStatus !== 'free' ? user.subscriptionPlanId : FREE;
  const form = useForm<PlanValues>({
    resolver: zodResolver(planFormSchema),
    defaultValues: {
      planId: current,
      status: user.planStatus === 'expired' || user.planStatus === 'cancelled' ? user.planStatus : 'active',
    },
  });
  const planId = form.watch('planId');

  const submit = form.handleSubmit((values) => {
    if (locked) return;
    const input =
      values.planId === FREE
        ? { planId: null, status: 'free' as const }
        : { planId: values.planId, status: values.status === 'free' ? ('active' as const) : values.status };
    assign.mutate(
      { id: user.id, input },
      {
        onSuccess: (updated) => {
          toast({
            title: adminToasts.planUpdated,
            description: `${user.firstName} ${user.lastName} is on ${updated.subscriptionPlan?.name ?? 'the Free Plan'}.`,
          });
          onClose();
        },
        onError: (error) =>
          toast({
            title: adminToasts.updateFailed,
            description: serverMessage(error, adminToasts.failedUpdatePlan),
            variant: 'destructive',
          }),
      },
    );
  });

  return (
    <Dialog
      open
      onClose={onClose}
      title="Manage Plan"
      description={`${user.firstName} ${user.lastName} (${user.email})`}
    >
      <form onSubmit={submit} className="grid gap-4" aria-label="Manage plan">
        {locked ? (
          <p id={reasonId} role="note" className="rounded-lg bg-amber-500/10 p-3 text-sm text-amber-200">
            {adminMessages.paysThroughStripe}
          </p>
        ) : null}
        <FormField label="Plan" htmlFor={`${id}-plan`} errorId={`${id}-plan-error`}>
          <Controller
            control={form.control}
            name="planId"
            render={({ field }) => (
              <select
                id={`${id}-plan`}
                disabled={locked}
                aria-describedby={locked ? reasonId : undefined}
                className={`${fieldClasses} h-10 disabled:cursor-not-allowed disabled:opacity-60`}
                value={field.value}
                onChange={field.onChange}
                onBlur={field.onBlur}
                ref={field.ref}
              >
                <option value={FREE}>Free Plan</option>
                {(plans.data ?? [])
                  .filter((plan) => plan.name !== 'Free')
                  .map((plan) => (
                    <option key={plan.id} value={plan.id}>
                      {plan.name}
                    </option>
                  ))}
              </select>
            )}
          />
        </FormField>
        {plans.isLoading ? <p className="text-sm text-zinc-400">Loading plans...</p> : null}
        {locked ? (
          <p className="text-sm text-zinc-300">
            Status: {planStatusLabels[user.planStatus]}, as the subscription in Stripe stands.
          </p>
        ) : planId !== FREE ? (
          <Controller
            control={form.control}
            name="status"
            render={({ field }) => (
              <ToggleGroup
                label="Plan status"
                options={statusOptions}
                value={field.value === 'free' ? 'active' : field.value}
                onChange={field.onChange}
              />
            )}
          />
        ) : null}
        <div className="mt-2 flex justify-end gap-2">
          <Button variant="outline" onClick={onClose}>
            {locked ? 'Close' : 'Cancel'}
          </Button>
          <Button type="submit" disabled={locked || assign.isPending}>
            {assign.isPending ? 'Saving...' : 'Update Plan'}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
