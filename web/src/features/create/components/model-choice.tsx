import * as RadioGroup from '@radix-ui/react-radio-group';
import { namesInWords } from '@tunesmith/shared/model-settings';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { cn } from '@/lib/cn';
import { generationsCost } from '@/lib/models';
import type { ModelChoiceState } from '../hooks/use-model-choice';
import { modelTakes } from '../utils/model-fields';

const heading = 'text-sm font-medium text-zinc-200';

/**
 * The models as cards of one radio group named Model: each with what it is
 * best for, what it takes and its cost in generations, described to a screen
 * reader by those lines. A model the plan does not offer is shown but off,
 * with the plans that have it and the way to them. Tab reaches the chosen
 * model; the arrow keys move between the others.
 */
export function ModelChoice({ id, choice }: { id: string; choice: ModelChoiceState }) {
  const { catalogue, offered, model, pick } = choice;
  const labelId = `${id}-label`;
  if (catalogue.isPending) {
    return (
      <div className="grid gap-2" aria-busy="true">
        <span className={heading}>Model</span>
        <span role="status" className="sr-only">
          Loading models
        </span>
        <div className="grid gap-3 sm:grid-cols-2">
          <Skeleton className="h-28 rounded-xl" />
          <Skeleton className="h-28 rounded-xl" />
        </div>
      </div>
    );
  }
  if (catalogue.isError) {
    return (
      <div className="grid gap-2">
        <span className={heading}>Model</span>
        <p role="alert" className="flex flex-wrap items-center gap-3 text-sm text-zinc-200">
          The models could not be loaded; your track is made with the site's default model.
          <Button variant="outline" size="sm" onClick={() => void catalogue.refetch()}>
            Try Again
          </Button>
        </p>
      </div>
    );
  }
  if (offered.length === 0) {
    return (
      <div className="grid gap-2">
        <span className={heading}>Model</span>
        <p role="status" className="text-sm text-zinc-300">
          No model can make this kind of track right now.
        </p>
      </div>
    );
  }
  return (
    <div className="grid gap-2">
      <span id={labelId} className={heading}>
        Model
      </span>
      <RadioGroup.Root
        aria-labelledby={labelId}
        value={model?.id ?? ''}
        onValueChange={pick}
        className="grid gap-3 sm:grid-cols-2"
      >
        {offered.map((m) => {
          const item = `${id}-${m.id}`;
          const described = [`${item}-best`, `${item}-takes`, `${item}-cost`];
          if (!m.available) described.push(`${item}-plans`);
          return (
            <div
              key={m.id}
              className={cn(
                'flex flex-col gap-2 rounded-xl border bg-zinc-950/40 p-3 transition-colors',
                m.id === model?.id ? 'border-fuchsia-400/70 bg-fuchsia-500/10' : 'border-white/10',
              )}
            >
              <RadioGroup.Item
                value={m.id}
                id={item}
                disabled={!m.available}
                aria-labelledby={`${item}-name`}
                aria-describedby={described.join(' ')}
                className={cn(
                  'group flex w-full cursor-pointer items-start gap-3 rounded-lg text-left',
                  'focus-visible:outline-2 focus-visible:outline-offset-4 focus-visible:outline-violet-300',
                  'disabled:cursor-not-allowed',
                )}
              >
                <span
                  aria-hidden="true"
                  className="mt-0.5 grid size-4 shrink-0 place-items-center rounded-full border border-white/40 group-data-[state=checked]:border-fuchsia-300"
                >
                  <RadioGroup.Indicator className="size-2 rounded-full bg-fuchsia-300" />
                </span>
                <span className="grid gap-1">
                  <span className="flex flex-wrap items-baseline justify-between gap-x-3">
                    <span id={`${item}-name`} className="font-semibold text-white">
                      {m.name}
                    </span>
                    <span id={`${item}-cost`} className="text-xs text-fuchsia-200">
                      {generationsCost(m.quotaCost)}
                    </span>
                  </span>
                  <span id={`${item}-best`} className="text-sm text-zinc-200">
                    {m.bestFor}
                  </span>
                  <span id={`${item}-takes`} className="text-xs text-zinc-400">
                    {modelTakes(m)}
                  </span>
                </span>
              </RadioGroup.Item>
              {m.available ? null : (
                <p id={`${item}-plans`} className="pl-7 text-xs text-zinc-300">
                  {m.plans.length > 0
                    ? `In ${namesInWords(m.plans.map((plan) => plan.name))}.`
                    : 'Not in any plan right now.'}{' '}
                  <Link
                    to="/pricing"
                    aria-describedby={`${item}-name`}
                    className="rounded font-medium text-fuchsia-300 underline-offset-4 hover:underline focus-visible:outline-2 focus-visible:outline-violet-300"
                  >
                    Upgrade
                  </Link>
                </p>
              )}
            </div>
          );
        })}
      </RadioGroup.Root>
    </div>
  );
}
