import * as RadioGroupPrimitive from '@radix-ui/react-radio-group';
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
 * A segmented control: one choice, always one chosen. It is a radio group
 * (Radix Radio Group), so it behaves as one: Tab reaches the chosen option,
 * the arrow keys move to the next option and choose it, Space chooses the
 * focused one.
 */
export function ToggleGroup<T extends string>({
  label,
  options,
  value,
  onChange,
  describedBy,
  className,
}: ToggleGroupProps<T>) {
  return (
    <RadioGroupPrimitive.Root
      value={value}
      onValueChange={(next) => onChange(next as T)}
      aria-label={label}
      aria-describedby={describedBy}
      className={cn('inline-flex rounded-xl border border-white/10 bg-zinc-900/80 p-1', className)}
    >
      {options.map((option) => (
        <RadioGroupPrimitive.Item
          key={option.value}
          value={option.value}
          disabled={option.disabled}
          className={cn(
            'block cursor-pointer rounded-lg px-4 py-2 text-sm font-medium text-zinc-300 transition-colors hover:text-white',
            'data-[state=checked]:bg-gradient-to-r data-[state=checked]:from-violet-600 data-[state=checked]:to-fuchsia-600 data-[state=checked]:text-white',
            'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-violet-300',
            'disabled:cursor-not-allowed disabled:text-zinc-500 disabled:hover:text-zinc-500',
          )}
        >
          {option.label}
        </RadioGroupPrimitive.Item>
      ))}
    </RadioGroupPrimitive.Root>
  );
}
