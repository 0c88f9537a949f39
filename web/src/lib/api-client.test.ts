import * as adminSessionCalls from '@tunesmith/shared/calls/admin-session';
import * as billingCalls from '@tunesmith/shared/calls/billing';
import * as catalogCalls from '@tunesmith/shared/calls/catalog';
import * as generationCalls from '@tunesmith/shared/calls/generation';
import { describe, expect, it } from 'vitest';
import { jsonResponse, mockFetch } from '@/testing/mock-fetch';
import {
  ApiError,
  apiRequest,
  isNotFoundError,
  isUnauthorizedError,
  refusalMessage,
  serverMessage,
} from './api-client';

describe('apiRequest', () => {
  it('sends cookies and no body when none is given', async () => {
    const fetchMock = mockFetch({ 'GET /api/plans': jsonResponse([{ id: 'free' }]) });

    const plans = await apiRequest<{ id: string }[]>(catalogCalls.listPlans);

    expect(plans).toEqual([{ id: 'free' }]);
    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(url).toBe('/api/plans');
    expect(init?.credentials).toBe('include');
    expect(init?.method).toBe('GET');
    expect(init?.body).toBeUndefined();
    expect(new Headers(init?.headers).has('Content-Type')).toBe(false);
  });

  it('sends a given body as JSON with the route method', async () => {
    const fetchMock = mockFetch({
      'POST /api/stripe/create-checkout-session': jsonResponse({ url: 'https://checkout.test/s' }),
    });

    await apiRequest(billingCalls.createCheckoutSession, {
      body: { planId: 'basic', billingCycle: 'monthly' },
    });

    const [, init] = fetchMock.mock.calls[0] ?? [];
    expect(init?.method).toBe('POST');
    expect(new Headers(init?.headers).get('Content-Type')).toBe('application/json');
    expect(init?.body).toBe(JSON.stringify({ planId: 'basic', billingCycle: 'monthly' }));
  });

  it('sends an empty JSON object with a write that has no payload', async () => {
    const fetchMock = mockFetch({ 'POST /api/admin/logout': jsonResponse({ message: 'Logged out' }) });

    await apiRequest(adminSessionCalls.adminLogout);

    const [, init] = fetchMock.mock.calls[0] ?? [];
    expect(new Headers(init?.headers).get('Content-Type')).toBe('application/json');
    expect(init?.body).toBe('{}');
  });

  it('fills path parameters from the manifest', async () => {
    const fetchMock = mockFetch({ 'GET /api/track/a%2Fb': jsonResponse({ id: 'a/b' }) });

    await apiRequest(catalogCalls.getTrack, { params: { id: 'a/b' } });

    expect(fetchMock.mock.calls[0]?.[0]).toBe('/api/track/a%2Fb');
  });

  it('adds the given search parameters, leaving out the undefined ones', async () => {
    const fetchMock = mockFetch({ 'GET /api/generation/g1/download': jsonResponse({}) });

    await apiRequest(generationCalls.downloadGeneration, {
      params: { id: 'g1' },
      query: { name: 'a b&c', other: undefined },
    });
    await apiRequest(generationCalls.downloadGeneration, {
      params: { id: 'g1' },
      query: { name: undefined },
    });

    expect(fetchMock.mock.calls.map(([url]) => url)).toEqual([
      '/api/generation/g1/download?name=a+b%26c',
      '/api/generation/g1/download',
    ]);
  });

  it('throws "status: body text" for a non-ok answer', async () => {
    mockFetch({ 'GET /api/plans': new Response('{"message":"Not implemented yet"}', { status: 501 }) });

    await expect(apiRequest(catalogCalls.listPlans)).rejects.toThrow(
      '501: {"message":"Not implemented yet"}',
    );
  });

  it('falls back to the status text when the body is empty', async () => {
    mockFetch({ 'GET /api/plans': new Response(null, { status: 503, statusText: 'Service Unavailable' }) });

    const error = await apiRequest(catalogCalls.listPlans).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).message).toBe('503: Service Unavailable');
    expect((error as ApiError).status).toBe(503);
  });
});

describe('isUnauthorizedError', () => {
  it('recognises a 401 followed by Unauthorized', () => {
    expect(isUnauthorizedError(new Error('401: Unauthorized'))).toBe(true);
    expect(isUnauthorizedError(new Error('401: {"message":"Unauthorized"}'))).toBe(true);
    expect(isUnauthorizedError(new ApiError(401, '', 'Unauthorized'))).toBe(true);
  });

  it('rejects other statuses and messages', () => {
    expect(isUnauthorizedError(new Error('403: Unauthorized'))).toBe(false);
    expect(isUnauthorizedError(new Error('401: Forbidden'))).toBe(false);
    expect(isUnauthorizedError(new Error('Error 401: Unauthorized'))).toBe(false);
    expect(isUnauthorizedError('401: Unauthorized')).toBe(false);
  });
});

describe('serverMessage', () => {
  it('reads the message of a JSON error body', () => {
    expect(serverMessage(new ApiError(400, '{"message":"Plan not found"}', 'Bad Request'), 'fallback')).toBe(
      'Plan not found',
    );
  });

  it('uses the fallback otherwise', () => {
    expect(serverMessage(new ApiError(500, 'oops', 'Internal Server Error'), 'fallback')).toBe('fallback');
    expect(serverMessage(new Error('network'), 'fallback')).toBe('fallback');
  });
});

describe('refusalMessage', () => {
  const refused = (status: number) => new ApiError(status, '{"message":"Downloads need a paid plan."}', '');

  it("gives the server's message for any 4xx", () => {
    for (const status of [400, 402, 403, 404, 409, 429]) {
      expect(refusalMessage(refused(status), 'fallback')).toBe('Downloads need a paid plan.');
    }
  });

  it('gives the fallback for a 5xx, a 4xx without a message, or a network failure', () => {
    expect(refusalMessage(refused(500), 'fallback')).toBe('fallback');
    expect(refusalMessage(new ApiError(403, '', 'Forbidden'), 'fallback')).toBe('fallback');
    expect(refusalMessage(new TypeError('Failed to fetch'), 'fallback')).toBe('fallback');
  });
});

describe('isNotFoundError', () => {
  it('is true for a 404 only', () => {
    expect(isNotFoundError(new ApiError(404, '', 'Not Found'))).toBe(true);
    expect(isNotFoundError(new ApiError(403, '', 'Forbidden'))).toBe(false);
    expect(isNotFoundError(new Error('404: Not Found'))).toBe(false);
  });
});
