import { useId } from 'react';
import { cn } from '@/lib/cn';

export interface ToggleOption<T extends string> {
  value: T;
  label: string;
  /** Shown but not choosable (say, a paid feature). */
  disabled?: boolean;
}

export interface ToggleGroupProps<T extends string> {
  /** Accessible name of the group. */
  label: string;
  options: readonly ToggleOption<T>[];
  value: T;
  onChange: (value: T) => void;
  /** The id of text that explains the group, such as why an option is off. */
  describedBy?: string;
  className?: string;
}

/**
 * A segmented control built on native radio buttons, so arrow keys, focus
 * and screen readers behave as for any radio group.
 */
export function ToggleGroup<T extends string>({
  label,
  options,
  value,
  onChange,
  describedBy,
  className,
}: ToggleGroupProps<T>) {
  const name = useId();
  return (
    <fieldset
      aria-describedby={describedBy}
      className={cn('inline-flex rounded-xl border border-white/10 bg-zinc-900/80 p-1', className)}
    >
      <legend className="sr-only">{label}</legend>
      {options.map((option) => (
        <label key={option.value} className="relative">
          <input
            type="radio"
            name={name}
            value={option.value}
            checked={value === option.value}
            disabled={option.disabled}
            onChange={() => onChange(option.value)}
            className="peer sr-only"
          />
          <span
            className={cn(
              'block cursor-pointer rounded-lg px-4 py-2 text-sm font-medium text-zinc-300 transition-colors hover:text-white',
              'peer-checked:bg-gradient-to-r peer-checked:from-violet-600 peer-checked:to-fuchsia-600 peer-checked:text-white',
              'peer-focus-visible:outline-2 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-violet-300',
              'peer-disabled:cursor-not-allowed peer-disabled:text-zinc-500 peer-disabled:hover:text-zinc-500',
            )}
          >
            {option.label}
          </span>
        </label>
      ))}
    </fieldset>
  );
}
