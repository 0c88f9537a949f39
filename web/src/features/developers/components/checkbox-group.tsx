import type { Ref } from 'react';

interface CheckboxGroupProps<T extends string> {
  legend: string;
  name: string;
  /** Every choice, in the order offered; the value keeps this order whatever order they are ticked in. */
  options: readonly T[];
  help: Record<T, string>;
  value: readonly T[];
  onChange(value: T[]): void;
  /** Takes the first box, so a refusal of the group moves focus to it. */
  inputRef?: Ref<HTMLInputElement>;
  error?: string | undefined;
  errorId: string;
}

/** A fieldset of checkboxes choosing some of `options` (a key's scopes, an endpoint's events). */
export function CheckboxGroup<T extends string>(props: CheckboxGroupProps<T>) {
  const { legend, name, options, help, value, onChange, inputRef, error, errorId } = props;
  return (
    <fieldset className="grid gap-2" aria-describedby={error ? errorId : undefined}>
      <legend className="mb-1 text-sm font-medium text-zinc-200">{legend}</legend>
      {options.map((option) => (
        <label key={option} className="flex items-center gap-2 text-sm text-zinc-200">
          <input
            type="checkbox"
            name={name}
            ref={option === options[0] ? inputRef : undefined}
            className="size-4 accent-fuchsia-500"
            checked={value.includes(option)}
            onChange={(change) =>
              onChange(
                change.target.checked
                  ? options.filter((o) => o === option || value.includes(o))
                  : value.filter((o) => o !== option),
              )
            }
          />
          <span>
            <span className="font-mono">{option}</span>
            <span className="text-zinc-400"> · {help[option]}</span>
          </span>
        </label>
      ))}
      {error ? (
        <p id={errorId} className="text-sm text-red-300">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}
