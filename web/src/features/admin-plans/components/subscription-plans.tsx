import { adminToasts } from '@tunesmith/shared/admin';
import { planFeatures } from '@tunesmith/shared/plan-values';
import { useState } from 'react';
import { AdminPage, EmptyState, LoadFailed } from '@/components/admin/admin-page';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { serverMessage } from '@/lib/api-client';
import { formatPrice } from '@/lib/format';
import { toast } from '@/lib/toast';
import { type AdminPlan, useAllPlans, useDeletePlan } from '../api';
import { PlanFormDialog } from './plan-form-dialog';

function PlanCard({ plan, onEdit }: { plan: AdminPlan; onEdit: () => void }) {
  const remove = useDeletePlan();
  const features = planFeatures(plan.features);
  const onDelete = () => {
    if (!window.confirm(`Delete the plan "${plan.name}"? This cannot be undone.`)) return;
    remove.mutate(plan.id, {
      onSuccess: () => toast({ title: 'Plan Deleted', description: `${plan.name} was deleted.` }),
      onError: (error) =>
        toast({
          title: adminToasts.error,
          description: serverMessage(error, adminToasts.failedDeletePlan),
          variant: 'destructive',
        }),
    });
  };
  const priceIds = [
    ['Weekly', plan.weeklyPriceId],
    ['Monthly', plan.monthlyPriceId],
    ['Yearly', plan.yearlyPriceId],
  ] as const;
  return (
    <Card className="flex flex-col gap-4 p-6">
      <article aria-label={plan.name} className="flex flex-1 flex-col gap-4">
        <header className="flex items-start justify-between gap-2">
          <div>
            <h2 className="text-xl font-semibold text-white">{plan.name}</h2>
            <p className="text-sm text-zinc-400">Sort order: {plan.sortOrder}</p>
          </div>
          <Badge className={plan.isActive ? '' : 'bg-none bg-zinc-700'}>
            {plan.isActive ? 'Active' : 'Inactive'}
          </Badge>
        </header>
        {/* Three prices over two counts; each term and its value in one div, as a <dl> allows. */}
        <dl className="grid grid-cols-6 gap-2 text-sm">
          {(['weekly', 'monthly', 'yearly'] as const).map((cycle) => (
            <div key={cycle} className="col-span-2">
              <dt className="text-zinc-400 capitalize">{cycle}</dt>
              <dd className="font-semibold text-white">{formatPrice(plan[`${cycle}Price`])}</dd>
            </div>
          ))}
          <div className="col-span-3">
            <dt className="text-zinc-400">Max Generations</dt>
            <dd className="text-white">{plan.maxGenerations}</dd>
          </div>
          <div className="col-span-3">
            <dt className="text-zinc-400">Generations Number</dt>
            <dd className="text-white">{plan.generationsNumber}</dd>
          </div>
          <div className="col-span-6">
            <dt className="text-zinc-400">Commercial use</dt>
            <dd className="text-white">{plan.commercialUse ? 'Allowed' : 'Personal use only'}</dd>
          </div>
          <div className="col-span-6">
            <dt className="text-zinc-400">API access</dt>
            <dd className="text-white">{plan.apiAccess ? 'Included' : 'Not included'}</dd>
          </div>
        </dl>
        {plan.description ? (
          <p className="text-sm whitespace-pre-line text-zinc-300">{plan.description}</p>
        ) : null}
        {features.length > 0 ? (
          <ul className="list-inside list-disc text-sm text-zinc-300">
            {features.map((feature) => (
              <li key={feature}>{feature}</li>
            ))}
          </ul>
        ) : null}
        <dl className="grid gap-1 text-xs text-zinc-400">
          {priceIds.map(([label, value]) => (
            <div key={label} className="flex gap-1">
              <dt>{label} price ID:</dt>
              <dd className="break-all text-zinc-300">{value ?? 'not set'}</dd>
            </div>
          ))}
        </dl>
      </article>
      <div className="flex gap-2">
        <Button size="sm" variant="outline" onClick={onEdit} aria-label={`Edit ${plan.name}`}>
          Edit
        </Button>
        <Button
          size="sm"
          variant="ghost"
          className="text-red-300 hover:text-red-200"
          onClick={onDelete}
          disabled={remove.isPending}
          aria-label={`Delete ${plan.name}`}
        >
          Delete
        </Button>
      </div>
    </Card>
  );
}

/** Subscription Plans: every plan, inactive ones too, with create, edit and delete. */
export function SubscriptionPlans() {
  const plans = useAllPlans();
  const [editing, setEditing] = useState<AdminPlan | 'new' | null>(null);
  const create = <Button onClick={() => setEditing('new')}>Create Plan</Button>;
  return (
    <AdminPage title="Subscription Plans" actions={create}>
      {plans.isError ? <LoadFailed what="plans" onRetry={() => void plans.refetch()} /> : null}
      {plans.isLoading ? <Spinner label="Loading plans" /> : null}
      {plans.isSuccess && plans.data.length === 0 ? (
        <EmptyState>
          <p className="mb-4">No subscription plans</p>
          {create}
        </EmptyState>
      ) : null}
      <div className="grid gap-6 md:grid-cols-2 xl:grid-cols-3">
        {(plans.data ?? []).map((plan) => (
          <PlanCard key={plan.id} plan={plan} onEdit={() => setEditing(plan)} />
        ))}
      </div>
      {editing ? (
        <PlanFormDialog {...(editing === 'new' ? {} : { plan: editing })} onClose={() => setEditing(null)} />
      ) : null}
    </AdminPage>
  );
}
