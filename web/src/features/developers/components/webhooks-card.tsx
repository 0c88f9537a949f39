import { zodResolver } from '@hookform/resolvers/zod';
import {
  type CreateWebhookRequest,
  createWebhookSchema,
  developerMessages,
  WEBHOOK_URL_MAX,
  type WebhookEndpointView,
  type WebhookEventType,
  webhookEvents,
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
import {
  useCreateWebhookEndpoint,
  useDeleteWebhookEndpoint,
  useSendWebhookTestEvent,
  useWebhookEndpoints,
} from '../api/webhooks';
import { fieldOf } from '../utils/field-of';
import { CheckboxGroup } from './checkbox-group';
import { ConfirmRemoval } from './confirm-removal';
import { SecretDialog } from './secret-dialog';
import { WebhookDeliveries } from './webhook-deliveries';

/** When each event is sent, beside its checkbox. */
export const eventHelp: Record<WebhookEventType, string> = {
  'track.completed': 'A track is ready',
  'track.failed': 'A track could not be made',
  'stems.ready': "A track's stems are separated",
};

type EndpointForm = { url: string; events: WebhookEventType[] };

const endpointFields = {
  url: [developerMessages.webhookUrlInvalid, developerMessages.webhookUrlLocalOnly],
  events: [developerMessages.webhookEventsRequired, developerMessages.webhookEventInvalid],
} as const;

/**
 * Webhooks: add an endpoint (its signing secret shown once), list them with
 * their events, send a test event, read each one's deliveries, delete one
 * after a confirmation.
 */
export function WebhooksCard() {
  const headingId = useId();
  const listHeading = useRef<HTMLHeadingElement>(null);
  const endpoints = useWebhookEndpoints();
  const [secret, setSecret] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<WebhookEndpointView | null>(null);
  const handleUnauthorized = useUnauthorizedHandler();
  const remove = useDeleteWebhookEndpoint();

  const confirmDelete = () => {
    if (!deleting) return;
    const endpoint = deleting;
    remove.mutate(endpoint.id, {
      onSuccess: () => {
        setDeleting(null);
        // The item and its button are gone: focus goes to the list's heading, not to the page's start.
        window.setTimeout(() => listHeading.current?.focus(), 0);
        toast({ title: 'Endpoint deleted', description: `Nothing more is sent to ${endpoint.url}.` });
      },
      onError: (error) => {
        setDeleting(null);
        if (handleUnauthorized(error)) return;
        toast({
          title: 'Could not delete the endpoint',
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
          Webhooks
        </h3>
        <p className="text-sm text-zinc-400">
          We send an event to your endpoint when a track of yours is ready, fails or has its stems. Each
          delivery is signed with the endpoint's secret in the{' '}
          <code className="text-zinc-200">Tunesmith-Signature</code> header, and retried for 24 hours until
          your endpoint answers 2xx.
        </p>
      </CardHeader>
      <CardContent className="grid gap-6">
        <AddEndpointForm onCreated={setSecret} />
        <div className="grid gap-3">
          <h4
            ref={listHeading}
            tabIndex={-1}
            className="text-sm font-semibold text-zinc-200 focus:outline-none"
          >
            Your endpoints
          </h4>
          {endpoints.isPending ? (
            <div className="grid gap-2" aria-busy="true">
              <span className="sr-only">Loading your webhook endpoints</span>
              <Skeleton className="h-20 w-full" />
            </div>
          ) : endpoints.isError ? (
            <div className="flex flex-wrap items-center gap-3">
              <p className="text-sm text-red-300">
                {refusalMessage(endpoints.error, 'We could not load your webhook endpoints.')}
              </p>
              <Button variant="outline" size="sm" onClick={() => void endpoints.refetch()}>
                Try Again
              </Button>
            </div>
          ) : endpoints.data.length === 0 ? (
            <p className="text-sm text-zinc-400">You have no webhook endpoints yet.</p>
          ) : (
            <ul className="grid gap-3" aria-label="Your webhook endpoints">
              {endpoints.data.map((endpoint) => (
                <EndpointItem key={endpoint.id} endpoint={endpoint} onDelete={() => setDeleting(endpoint)} />
              ))}
            </ul>
          )}
        </div>
      </CardContent>
      <SecretDialog
        secret={secret}
        title="Your endpoint's signing secret"
        label="Signing secret"
        note="You will not see this secret again. Copy it now: your endpoint needs it to check each delivery's signature."
        onClose={() => setSecret(null)}
      />
      <ConfirmRemoval
        open={deleting !== null}
        onCancel={() => {
          if (!remove.isPending) setDeleting(null);
        }}
        title="Delete this endpoint?"
        description={
          deleting ? (
            <>
              Nothing more is sent to <span className="font-medium break-all text-white">{deleting.url}</span>
              , and its deliveries log goes with it.
            </>
          ) : null
        }
        confirmLabel="Delete Endpoint"
        onConfirm={confirmDelete}
        pending={remove.isPending}
      />
    </Card>
  );
}

/** One endpoint: its address and events, Send test event, its deliveries on demand, Delete. */
function EndpointItem({ endpoint, onDelete }: { endpoint: WebhookEndpointView; onDelete: () => void }) {
  const logId = useId();
  const [showLog, setShowLog] = useState(false);
  const handleUnauthorized = useUnauthorizedHandler();
  const test = useSendWebhookTestEvent();

  const sendTest = () => {
    setShowLog(true);
    test.mutate(endpoint.id, {
      onSuccess: (delivery) => {
        if (delivery.status === 'delivered') {
          toast({
            title: 'Test event delivered',
            description: `Your endpoint answered ${delivery.responseStatus}.`,
          });
        } else {
          // The server's reason names the answer when there was one; a bare status says it alone.
          const why =
            delivery.error ??
            (delivery.responseStatus
              ? `Your endpoint answered ${delivery.responseStatus}.`
              : 'See the deliveries below.');
          toast({ title: 'Test event not delivered', description: why, variant: 'destructive' });
        }
      },
      onError: (error) => {
        if (handleUnauthorized(error)) return;
        toast({
          title: 'Could not send the test event',
          description: refusalMessage(error, 'Please try again.'),
          variant: 'destructive',
        });
      },
    });
  };

  return (
    <li aria-label={endpoint.url} className="grid gap-3 rounded-xl border border-white/10 bg-zinc-950/40 p-4">
      <div className="grid min-w-0 gap-1 text-sm">
        <p className="font-mono break-all text-white">{endpoint.url}</p>
        <p className="text-zinc-400">
          {endpoint.events.join(', ')} · Added {formatDate(endpoint.createdAt)}
        </p>
      </div>
      <div className="flex flex-wrap gap-2">
        <Button size="sm" variant="secondary" onClick={sendTest} disabled={test.isPending}>
          {test.isPending ? 'Sending…' : 'Send test event'}
        </Button>
        <Button
          size="sm"
          variant="outline"
          aria-expanded={showLog}
          aria-controls={logId}
          onClick={() => setShowLog((shown) => !shown)}
        >
          {showLog ? 'Hide deliveries' : 'Show deliveries'}
        </Button>
        <Button
          size="sm"
          variant="ghost"
          className="text-red-300 hover:text-red-200"
          onClick={onDelete}
          aria-label={`Delete ${endpoint.url}`}
        >
          Delete
        </Button>
      </div>
      <div id={logId} hidden={!showLog}>
        {showLog ? <WebhookDeliveries endpointId={endpoint.id} /> : null}
      </div>
    </li>
  );
}

/** The add form: an address and the events to send, all ticked to begin with. */
function AddEndpointForm({ onCreated }: { onCreated: (secret: string) => void }) {
  const id = useId();
  const handleUnauthorized = useUnauthorizedHandler();
  const create = useCreateWebhookEndpoint();
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<EndpointForm, unknown, CreateWebhookRequest>({
    resolver: zodResolver(createWebhookSchema),
    defaultValues: { url: '', events: [...webhookEvents] },
    reValidateMode: 'onSubmit',
  });
  const { errors } = form.formState;
  const urlError = errors.url?.message;
  const eventsError = errors.events?.message ?? errors.events?.root?.message;

  const submit = form.handleSubmit((input) => {
    setFormError(null);
    create.mutate(input, {
      onSuccess: (endpoint) => {
        form.reset();
        onCreated(endpoint.secret);
      },
      onError: (error) => {
        if (handleUnauthorized(error)) return;
        const message = refusalMessage(error, 'Could not add the endpoint. Please try again.');
        const field = fieldOf(message, endpointFields);
        if (field) form.setError(field, { type: 'server', message }, { shouldFocus: true });
        else setFormError(message);
      },
    });
  });

  return (
    <form noValidate aria-label="Add a webhook endpoint" onSubmit={submit} className="grid gap-4">
      <FormField label="Endpoint URL" htmlFor={`${id}-url`} error={urlError} errorId={`${id}-url-error`}>
        <Input
          id={`${id}-url`}
          type="url"
          inputMode="url"
          placeholder="https://example.com/tunesmith-events"
          maxLength={WEBHOOK_URL_MAX}
          autoComplete="off"
          aria-invalid={urlError ? true : undefined}
          aria-describedby={urlError ? `${id}-url-error` : undefined}
          {...form.register('url', { onChange: () => form.clearErrors('url') })}
        />
      </FormField>
      <Controller
        control={form.control}
        name="events"
        render={({ field }) => (
          <CheckboxGroup
            legend="Events"
            name={field.name}
            options={webhookEvents}
            help={eventHelp}
            value={field.value}
            onChange={(value) => {
              form.clearErrors('events');
              field.onChange(value);
            }}
            inputRef={field.ref}
            error={eventsError}
            errorId={`${id}-events-error`}
          />
        )}
      />
      {formError ? (
        <p role="alert" className="text-sm text-red-300">
          {formError}
        </p>
      ) : null}
      <Button type="submit" disabled={create.isPending} className="justify-self-start">
        {create.isPending ? 'Adding…' : 'Add Endpoint'}
      </Button>
    </form>
  );
}
