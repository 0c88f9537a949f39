import { ApiError } from '@/lib/api-client';

/**
 * The server's sentence for a refused request (a 4xx): `{ message }` as the
 * app's calls answer, or `{ error: { message } }` as the developer API does;
 * the fallback for anything else. A 5xx body is the server's business.
 */
export function refusal(error: unknown, fallback: string): string {
  if (!(error instanceof ApiError) || error.status < 400 || error.status >= 500) return fallback;
  try {
    const body: unknown = JSON.parse(error.body);
    if (body && typeof body === 'object') {
      if ('message' in body && typeof body.message === 'string' && body.message) return body.message;
      if ('error' in body && body.error && typeof body.error === 'object' && 'message' in body.error) {
        const { message } = body.error;
        if (typeof message === 'string' && message) return message;
      }
    }
  } catch {
    // Not JSON: the fallback says it better than a raw body would.
  }
  return fallback;
}

/** Which field of a form a server's message is about, by the shared messages a field can get. */
export function fieldOf<K extends string>(
  message: string,
  fields: Record<K, readonly string[]>,
): K | undefined {
  return (Object.keys(fields) as K[]).find((field) => fields[field].includes(message));
}
