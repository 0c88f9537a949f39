import { zodResolver } from '@hookform/resolvers/zod';
import type { ApiScope } from '@tunesmith/shared/api-routes';
import {
  API_KEY_NAME_MAX,
  type ApiKeyView,
  apiScopes,
  type CreateApiKeyRequest,
  createApiKeySchema,
  developerMessages,
} from '@tunesmith/shared/developer-api';
import { formatDate } from '@tunesmith/shared/track-text';
import { useId, useRef, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader } from '@/components/ui/card';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Skeleton } from '@/components/ui/skeleton';
import { refusalMessage } from '@/lib/api-client';
import { toast } from '@/lib/toast';
import { useUnauthorizedHandler } from '@/lib/use-unauthorized';
import { useApiKeys, useCreateApiKey, useRevokeApiKey } from '../api/api-keys';
import { fieldOf } from '../utils/field-of';
import { CheckboxGroup } from './checkbox-group';
import { ConfirmRemoval } from './confirm-removal';
import { SecretDialog } from './secret-dialog';

/** What each scope lets a key do, beside its checkbox. */
export const scopeHelp: Record<ApiScope, string> = {
  generate: 'Start tracks and uploads',
  read: 'Read your tracks',
};

type KeyForm = { name: string; scopes: ApiScope[] };

/** The server's messages that belong to a field of the form. */
const keyFields = {
  name: [developerMessages.keyNameRequired, developerMessages.keyNameTooLong],
  scopes: [developerMessages.scopesRequired, developerMessages.scopeInvalid],
} as const;

/** "Used May 2, 2026" or "Never used". */
export const lastUsed = (key: Pick<ApiKeyView, 'lastUsedAt'>) =>
  key.lastUsedAt ? `Used ${formatDate(key.lastUsedAt)}` : 'Never used';

/**
 * API keys: create one (a name and its scopes), see it once in full, list the
 * live ones by their prefixes, revoke one after a confirmation.
 */
export function ApiKeysCard() {
  const headingId = useId();
  const listHeading = useRef<HTMLHeadingElement>(null);
  const keys = useApiKeys();
  const [created, setCreated] = useState<string | null>(null);
  const [revoking, setRevoking] = useState<ApiKeyView | null>(null);
  const handleUnauthorized = useUnauthorizedHandler();
  const revoke = useRevokeApiKey();

  const confirmRevoke = () => {
    if (!revoking) return;
    const key = revoking;
    revoke.mutate(key.id, {
      onSuccess: () => {
        setRevoking(null);
        // The item and its button are gone: focus goes to the list's heading, not to the page's start.
        window.setTimeout(() => listHeading.current?.focus(), 0);
        toast({ title: 'Key revoked', description: `${key.name} no longer works.` });
      },
      onError: (error) => {
        setRevoking(null);
        if (handleUnauthorized(error)) return;
        toast({
          title: 'Could not revoke the key',
          description: refusalMessage(error, 'Please try again.'),
          variant: 'destructive',
        });
      },
    });
  };

  return (
    <Card role="region" aria-labelledby={headingId}>
      <CardHeader>
        <h3 id={headingId} className="text-lg font-semibold text-white">
          API Keys
        </h3>
        <p className="text-sm text-zinc-400">
          A key lets your own code call the Tunesmith API as you, within your plan's quota. Send it as{' '}
          <code className="text-zinc-200">Authorization: Bearer &lt;key&gt;</code>. Revoking a key stops it at
          once.
        </p>
      </CardHeader>
      <CardContent className="grid gap-6">
        <CreateKeyForm onCreated={setCreated} />
        <div className="grid gap-3">
          <h4
            ref={listHeading}
            tabIndex={-1}
            className="text-sm font-semibold text-zinc-200 focus:outline-none"
          >
            Your keys
          </h4>
          {keys.isPending ? (
            <div className="grid gap-2" aria-busy="true">
              <span className="sr-only">Loading your API keys</span>
              <Skeleton className="h-16 w-full" />
              <Skeleton className="h-16 w-full" />
            </div>
          ) : keys.isError ? (
            <div className="flex flex-wrap items-center gap-3">
              <p className="text-sm text-red-300">
                {refusalMessage(keys.error, 'We could not load your API keys.')}
              </p>
              <Button variant="outline" size="sm" onClick={() => void keys.refetch()}>
                Try Again
              </Button>
            </div>
          ) : keys.data.length === 0 ? (
            <p className="text-sm text-zinc-400">You have no API keys yet.</p>
          ) : (
            <ul className="grid gap-2" aria-label="Your API keys">
              {keys.data.map((key) => (
                <li
                  key={key.id}
                  aria-label={key.name}
                  className="flex flex-col gap-3 rounded-xl border border-white/10 bg-zinc-950/40 p-4 sm:flex-row sm:items-center sm:justify-between"
                >
                  <div className="grid min-w-0 gap-1 text-sm">
                    <p className="font-medium break-words text-white">{key.name}</p>
                    <p className="font-mono text-zinc-300">{key.prefix}…</p>
                    <p className="text-zinc-400">
                      {key.scopes.join(', ')} · Created {formatDate(key.createdAt)} · {lastUsed(key)}
                    </p>
                  </div>
                  <Button
                    variant="outline"
                    size="sm"
                    className="self-start sm:self-center"
                    onClick={() => setRevoking(key)}
                    aria-label={`Revoke ${key.name}`}
                  >
                    Revoke
                  </Button>
                </li>
              ))}
            </ul>
          )}
        </div>
      </CardContent>
      <SecretDialog
        secret={created}
        title="Your new API key"
        label="API key"
        note="You will not see this key again. Copy it now and keep it somewhere safe."
        onClose={() => setCreated(null)}
      />
      <ConfirmRemoval
        open={revoking !== null}
        onCancel={() => {
          if (!revoke.isPending) setRevoking(null);
        }}
        title="Revoke this API key?"
        description={
          revoking ? (
            <>
              <span className="font-medium text-white">{revoking.name}</span> ({revoking.prefix}…) stops
              working at once. Anything that uses it will be refused.
            </>
          ) : null
        }
        confirmLabel="Revoke Key"
        onConfirm={confirmRevoke}
        pending={revoke.isPending}
      />
    </Card>
  );
}

/** The create form: a name, both scopes ticked to begin with; the server's refusals shown where they belong. */
function CreateKeyForm({ onCreated }: { onCreated: (key: string) => void }) {
  const id = useId();
  const handleUnauthorized = useUnauthorizedHandler();
  const create = useCreateApiKey();
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<KeyForm, unknown, CreateApiKeyRequest>({
    resolver: zodResolver(createApiKeySchema),
    defaultValues: { name: '', scopes: [...apiScopes] },
    reValidateMode: 'onSubmit',
  });
  const { errors } = form.formState;
  const nameError = errors.name?.message;
  const scopesError = errors.scopes?.message ?? errors.scopes?.root?.message;

  const submit = form.handleSubmit((input) => {
    setFormError(null);
    create.mutate(input, {
      onSuccess: (key) => {
        form.reset();
        onCreated(key.key);
      },
      onError: (error) => {
        if (handleUnauthorized(error)) return;
        const message = refusalMessage(error, 'Could not create the key. Please try again.');
        const field = fieldOf(message, keyFields);
        if (field) form.setError(field, { type: 'server', message }, { shouldFocus: true });
        else setFormError(message);
      },
    });
  });

  return (
    <form noValidate aria-label="Create an API key" onSubmit={submit} className="grid gap-4">
      <FormField label="Key name" htmlFor={`${id}-name`} error={nameError} errorId={`${id}-name-error`}>
        <Input
          id={`${id}-name`}
          placeholder="My music bot"
          maxLength={API_KEY_NAME_MAX}
          autoComplete="off"
          aria-invalid={nameError ? true : undefined}
          aria-describedby={nameError ? `${id}-name-error` : undefined}
          {...form.register('name', { onChange: () => form.clearErrors('name') })}
        />
      </FormField>
      <Controller
        control={form.control}
        name="scopes"
        render={({ field }) => (
          <CheckboxGroup
            legend="Scopes"
            name={field.name}
            options={apiScopes}
            help={scopeHelp}
            value={field.value}
            onChange={(value) => {
              form.clearErrors('scopes');
              field.onChange(value);
            }}
            inputRef={field.ref}
            error={scopesError}
            errorId={`${id}-scopes-error`}
          />
        )}
      />
      {formError ? (
        <p role="alert" className="text-sm text-red-300">
          {formError}
        </p>
      ) : null}
      <Button type="submit" disabled={create.isPending} className="justify-self-start">
        {create.isPending ? 'Creating…' : 'Create Key'}
      </Button>
    </form>
  );
}
