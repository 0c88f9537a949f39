import { type ChangeEvent, type FormEvent, useId, useRef, useState } from 'react';
import type * as z from 'zod';

export type FormErrors<K extends string> = Partial<Record<K, string>>;

/** The outcome of checking a form's values: the data to send, or one message per invalid field. */
export type ValidationResult<K extends string, Out> =
  | { success: true; data: Out }
  | { success: false; errors: FormErrors<K> };

export type Validator<K extends string, Out> = (values: Record<K, string>) => ValidationResult<K, Out>;

/** Checks values with a zod schema, keeping the first message for each field. */
export function zodValidator<K extends string, Out>(schema: z.ZodType<Out>): Validator<K, Out> {
  return (values) => {
    const result = schema.safeParse(values);
    if (result.success) return { success: true, data: result.data };
    const errors: FormErrors<K> = {};
    for (const issue of result.error.issues) {
      const field = issue.path[0];
      if (typeof field === 'string' && field in values) errors[field as K] ??= issue.message;
    }
    return { success: false, errors };
  };
}

/**
 * State for a small form of text fields: values, per-field messages shown
 * under each field, and a submit handler that validates first and moves focus
 * to the first invalid field. A field's message clears when it is edited.
 */
export function useForm<K extends string, Out>(
  initialValues: Record<K, string>,
  validate: Validator<K, Out> | z.ZodType<Out>,
) {
  const id = useId();
  const initial = useRef(initialValues);
  const [values, setValues] = useState(initialValues);
  const [errors, setErrors] = useState<FormErrors<K>>({});
  const check: Validator<K, Out> = typeof validate === 'function' ? validate : zodValidator<K, Out>(validate);
  const fieldOrder = Object.keys(initial.current) as K[];

  const fieldId = (name: K) => `${id}-${name}`;
  const errorId = (name: K) => `${id}-${name}-error`;

  const focusFirst = (next: FormErrors<K>) => {
    const first = fieldOrder.find((name) => next[name]);
    if (first) document.getElementById(fieldId(first))?.focus();
  };

  const setValue = (name: K, value: string) => {
    setValues((current) => ({ ...current, [name]: value }));
    setErrors((current) => (current[name] ? { ...current, [name]: undefined } : current));
  };

  /** Shows messages (for example a rule the schema cannot know) and focuses the first field with one. */
  const showErrors = (next: FormErrors<K>) => {
    setErrors(next);
    focusFirst(next);
  };

  const handleSubmit = (onValid: (data: Out) => void) => (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const result = check(values);
    if (!result.success) {
      showErrors(result.errors);
      return;
    }
    setErrors({});
    onValid(result.data);
  };

  /** Props for a field's input: id, name, value, change handler and its error wiring. */
  const register = (name: K) => ({
    id: fieldId(name),
    name,
    value: values[name],
    'aria-invalid': errors[name] ? true : undefined,
    'aria-describedby': errors[name] ? errorId(name) : undefined,
    onChange: (event: ChangeEvent<HTMLInputElement>) => setValue(name, event.target.value),
  });

  /** Props for the field's label and message (see `FormField`). */
  const fieldMeta = (name: K) => ({ htmlFor: fieldId(name), error: errors[name], errorId: errorId(name) });

  const reset = (next: Record<K, string> = initial.current) => {
    setValues(next);
    setErrors({});
  };

  return { values, errors, setValue, showErrors, handleSubmit, register, fieldMeta, reset };
}
