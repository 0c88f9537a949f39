import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import * as developerCalls from '@tunesmith/shared/calls/developers';
import {
  type CreateWebhookRequest,
  createdWebhookSchema,
  type WebhookDeliveryView,
  type WebhookEndpointView,
  webhookDeliveryListSchema,
  webhookDeliverySchema,
  webhookEndpointListSchema,
} from '@tunesmith/shared/developer-api';
import type * as z from 'zod/mini';
import { apiRequest } from '@/lib/api-client';

/** While a delivery is waiting for a try, its endpoint's log is read again this often. */
export const DELIVERIES_POLL_MS = 5000;

export const webhooksQueryKey = ['developers', 'webhooks'] as const;
export const deliveriesQueryKey = (endpointId: string) =>
  [...webhooksQueryKey, endpointId, 'deliveries'] as const;

/** The user's webhook endpoints (`GET /api/user/webhooks`); their secrets are never sent again. */
export async function listWebhookEndpoints(): Promise<WebhookEndpointView[]> {
  return webhookEndpointListSchema.parse(await apiRequest(developerCalls.listWebhookEndpoints)).endpoints;
}

export function useWebhookEndpoints() {
  return useQuery(queryOptions({ queryKey: webhooksQueryKey, queryFn: listWebhookEndpoints }));
}

export type CreatedWebhook = z.infer<typeof createdWebhookSchema>;

/** Adds an endpoint (`POST /api/user/webhooks`, 201): the answer carries its signing secret, this once. */
export async function createWebhookEndpoint(input: CreateWebhookRequest): Promise<CreatedWebhook> {
  return createdWebhookSchema.parse(await apiRequest(developerCalls.createWebhookEndpoint, { body: input }));
}

export function useCreateWebhookEndpoint() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createWebhookEndpoint,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: webhooksQueryKey }),
  });
}

/** Deletes an endpoint (`DELETE /api/user/webhooks/{id}`): nothing more is sent to it. */
export async function deleteWebhookEndpoint(id: string): Promise<void> {
  await apiRequest(developerCalls.deleteWebhookEndpoint, { params: { id } });
}

export function useDeleteWebhookEndpoint() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteWebhookEndpoint,
    onSuccess: (_, id) => {
      queryClient.setQueryData<WebhookEndpointView[]>(webhooksQueryKey, (endpoints) =>
        endpoints?.filter((endpoint) => endpoint.id !== id),
      );
      queryClient.removeQueries({ queryKey: deliveriesQueryKey(id) });
    },
    // Read again after a refusal too: an endpoint deleted meanwhile elsewhere is a 404 here.
    onSettled: () => queryClient.invalidateQueries({ queryKey: webhooksQueryKey, exact: true }),
  });
}

/** An endpoint's deliveries, newest first (`GET /api/user/webhooks/{id}/deliveries`). */
export async function listWebhookDeliveries(endpointId: string): Promise<WebhookDeliveryView[]> {
  const answer = await apiRequest(developerCalls.listWebhookDeliveries, { params: { id: endpointId } });
  return webhookDeliveryListSchema.parse(answer).deliveries;
}

/** The log of one endpoint, read again while any delivery waits for its next try. */
export function useWebhookDeliveries(endpointId: string, enabled: boolean) {
  return useQuery({
    queryKey: deliveriesQueryKey(endpointId),
    queryFn: () => listWebhookDeliveries(endpointId),
    enabled,
    refetchInterval: (query) =>
      query.state.data?.some((delivery) => delivery.status === 'pending') ? DELIVERIES_POLL_MS : false,
  });
}

/**
 * Sends `webhook.test` to the endpoint now (`POST /api/user/webhooks/{id}/test`):
 * the answer is that delivery after its one try.
 */
export async function sendWebhookTestEvent(endpointId: string): Promise<WebhookDeliveryView> {
  const answer = await apiRequest(developerCalls.sendWebhookTestEvent, {
    params: { id: endpointId },
    body: {},
  });
  return webhookDeliverySchema.parse(answer);
}

export function useSendWebhookTestEvent() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: sendWebhookTestEvent,
    onSettled: (_, __, endpointId) =>
      queryClient.invalidateQueries({ queryKey: deliveriesQueryKey(endpointId) }),
  });
}
