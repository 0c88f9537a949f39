import { useEffect, useId, useRef } from 'react';
import {
  type FieldErrors,
  type Resolver,
  type UseFormRegisterReturn,
  useForm as useHookForm,
} from 'react-hook-form';
import type * as z from 'zod/mini';
import { loadOnce } from './load-once';

export type FormErrors<K extends string> = Partial<Record<K, string>>;

/** The outcome of checking a form's values: the data to send, or one message per invalid field. */
export type ValidationResult<K extends string, Out> =
  | { success: true; data: Out }
  | { success: false; errors: FormErrors<K> };

export type Validator<K extends string, Out> = (values: Record<K, string>) => ValidationResult<K, Out>;

/** Checks values with a zod schema, keeping the first message for each field. */
export function zodValidator<K extends string, Out>(schema: z.ZodMiniType<Out>): Validator<K, Out> {
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
 * A schema the form loads when it is first used (a field focused or touched,
 * or the form sent) rather than with the page: a page whose first paint is
 * the form (sign-in) does not run the schema library while it starts.
 */
export interface LazySchema<Out> {
  load: () => Promise<z.ZodMiniType<Out>>;
}

/** A schema loaded on first use; asked once, and again only after a failed load. */
export function lazySchema<Out>(load: () => Promise<z.ZodMiniType<Out>>): LazySchema<Out> {
  return { load: loadOnce(load) };
}

/** The zod resolver's code (and zod's), asked for once. */
const loadZodResolver = loadOnce(() => import('@hookform/resolvers/zod'));

/** A react-hook-form resolver from a zod schema; the resolver's code (and zod's) load apart from the page's. */
function schemaResolver<K extends string, Out>(
  schema: z.ZodMiniType<Out> | LazySchema<Out>,
): Resolver<Record<K, string>> {
  return (async (...args: Parameters<Resolver<Record<K, string>>>) => {
    const [{ zodResolver }, loaded] = await Promise.all([
      loadZodResolver(),
      'load' in schema ? schema.load() : schema,
    ]);
    return (zodResolver(loaded as never) as unknown as Resolver<Record<K, string>>)(...args);
  }) as Resolver<Record<K, string>>;
}

/** What `register` gives a field's input. */
export type FieldInputProps = UseFormRegisterReturn & {
  id: string;
  'aria-invalid': boolean | undefined;
  'aria-describedby': string | undefined;
  /** With a lazily loaded schema: asks for it. */
  onFocus?: () => void;
};

/** A react-hook-form resolver from a check written as a function (rules across fields, say). */
function functionResolver<K extends string, Out>(check: Validator<K, Out>): Resolver<Record<K, string>> {
  return (async (values: Record<K, string>) => {
    const result = check(values);
    if (result.success) return { values: result.data as unknown as Record<K, string>, errors: {} };
    const errors: FieldErrors = {};
    for (const [name, message] of Object.entries(result.errors) as [K, string | undefined][]) {
      if (message) errors[name] = { type: 'validate', message };
    }
    return { values: {}, errors };
  }) as unknown as Resolver<Record<K, string>>;
}

/**
 * The text-field forms of the app on react-hook-form with the zod resolver
 * (the shared schemas and their messages): each field's input props and
 * label/message wiring, submit that validates first and focuses the first
 * invalid field, and a field's message cleared as soon as it is edited.
 */
export function useForm<K extends string, Out>(
  initialValues: Record<K, string>,
  validate: Validator<K, Out> | z.ZodMiniType<Out> | LazySchema<Out>,
) {
  const id = useId();
  const initial = useRef(initialValues);
  const form = useHookForm<Record<K, string>>({
    defaultValues: initialValues as never,
    resolver: typeof validate === 'function' ? functionResolver(validate) : schemaResolver(validate),
    shouldFocusError: true,
    reValidateMode: 'onSubmit',
  });
  const fieldOrder = Object.keys(initial.current) as K[];
  const values = form.watch() as Record<K, string>;
  const errors: FormErrors<K> = {};
  for (const name of fieldOrder) {
    const message = (form.formState.errors as Record<string, { message?: string } | undefined>)[name]
      ?.message;
    if (message) errors[name] = message;
  }

  const fieldId = (name: K) => `${id}-${name}`;
  const errorId = (name: K) => `${id}-${name}-error`;
  const path = (name: K) => name as never;

  const setValue = (name: K, value: string) => {
    form.setValue(path(name), value as never);
    form.clearErrors(path(name));
  };

  /** Shows messages (for example a rule the schema cannot know) and focuses the first field with one. */
  const showErrors = (next: FormErrors<K>) => {
    form.clearErrors();
    for (const name of fieldOrder) {
      const message = next[name];
      if (message) form.setError(path(name), { type: 'server', message });
    }
    const first = fieldOrder.find((name) => next[name]);
    if (first) form.setFocus(path(first));
  };

  const handleSubmit = (onValid: (data: Out) => void) =>
    form.handleSubmit((data) => onValid(data as unknown as Out));

  // A lazily loaded schema is asked for as soon as the form is used, so it is here by the time it is sent.
  const loadSchema = typeof validate === 'object' && 'load' in validate ? validate.load : undefined;
  const warm = () => {
    if (!loadSchema) return;
    loadSchema().catch(() => undefined);
    loadZodResolver().catch(() => undefined);
  };
  // A form with its schema at hand asks for the resolver's code as it mounts; one with a lazy schema, when used.
  const eager = typeof validate !== 'function' && !loadSchema;
  useEffect(() => {
    if (eager) loadZodResolver().catch(() => undefined);
  }, [eager]);

  /** Props for a field's input: id, name, ref, change handler and its error wiring. */
  const register = (name: K): FieldInputProps => ({
    ...form.register(path(name), { onChange: () => form.clearErrors(path(name)) }),
    ...(loadSchema ? { onFocus: warm } : {}),
    id: fieldId(name),
    'aria-invalid': errors[name] ? true : undefined,
    'aria-describedby': errors[name] ? errorId(name) : undefined,
  });

  /** Props for the field's label and message (see `FormField`). */
  const fieldMeta = (name: K) => ({ htmlFor: fieldId(name), error: errors[name], errorId: errorId(name) });

  const reset = (next: Record<K, string> = initial.current) => form.reset(next as never);

  return { values, errors, setValue, showErrors, handleSubmit, register, fieldMeta, reset };
}
