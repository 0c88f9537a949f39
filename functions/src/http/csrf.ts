import { authMessages } from '@tunesmith/shared/auth-messages';
import { messages } from '@tunesmith/shared/messages';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { bodyText, header } from './request';
import { HttpError } from './responses';

const mutating = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Cross-site request forgery guard for calls that change state: the browser's
 * Origin must be the site's own (the configured public origin, or the host the
 * request was addressed to), and a body must be JSON, which a cross-site form
 * cannot send without a preflight.
 */
export function assertSameOrigin(event: APIGatewayProxyEventV2, publicOrigin: string | undefined): void {
  const method = event.requestContext?.http?.method ?? '';
  if (!mutating.has(method)) return;
  const origin = header(event, 'origin');
  const host = header(event, 'host');
  const proto = header(event, 'x-forwarded-proto') ?? 'http';
  const allowed = [publicOrigin, host ? `${proto}://${host}` : undefined].filter(Boolean);
  const sameSite = origin ? allowed.includes(origin) : header(event, 'sec-fetch-site') === 'same-origin';
  if (!sameSite) throw new HttpError(403, authMessages.csrf);
  if (bodyText(event).trim() !== '') {
    const type = header(event, 'content-type') ?? '';
    if (!/^application\/json\b/i.test(type)) throw new HttpError(415, messages.unsupportedMediaType);
  }
}

/**
 * For the one state-changing GET (the spec keeps logout a GET): a browser
 * following another site's link or image says `Sec-Fetch-Site: cross-site`,
 * and that is refused so no other site can sign our users out.
 */
export function assertNotCrossSite(event: APIGatewayProxyEventV2): void {
  if (header(event, 'sec-fetch-site') === 'cross-site') throw new HttpError(403, authMessages.csrf);
}
