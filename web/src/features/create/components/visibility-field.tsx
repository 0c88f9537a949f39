import type { Visibility } from '@tunesmith/shared/tracks';
import { useEffect, useId } from 'react';
import { Link } from 'react-router';
import { ToggleGroup } from '@/components/ui/toggle-group';

/**
 * Public (the default) or private, as a radio group named Visibility. Without
 * `canPrivate` (the free plan), Private is shown but off, with the reason and
 * the way to the plans.
 */
export function VisibilityField({
  value,
  onChange,
  canPrivate = true,
}: {
  value: Visibility;
  onChange: (value: Visibility) => void;
  canPrivate?: boolean;
}) {
  const hintId = useId();
  // Private may have been picked before the plan was known.
  useEffect(() => {
    if (!canPrivate && value === 'private') onChange('public');
  }, [canPrivate, value, onChange]);
  const options = [
    { value: 'public', label: 'Public' },
    { value: 'private', label: 'Private', disabled: !canPrivate },
  ] as const;
  return (
    <div className="grid gap-2">
      <span aria-hidden="true" className="text-sm font-medium text-zinc-200">
        Visibility
      </span>
      <ToggleGroup
        label="Visibility"
        options={options}
        value={value}
        onChange={onChange}
        describedBy={canPrivate ? undefined : hintId}
        className="w-fit"
      />
      {canPrivate ? null : (
        <p id={hintId} className="text-xs text-zinc-400">
          Private tracks need a paid plan.{' '}
          <Link
            to="/pricing"
            className="rounded font-medium text-fuchsia-300 underline-offset-4 hover:underline focus-visible:outline-2 focus-visible:outline-violet-300"
          >
            See plans
          </Link>
        </p>
      )}
    </div>
  );
}
