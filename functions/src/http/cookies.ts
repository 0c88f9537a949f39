import type { APIGatewayProxyEventV2 } from 'aws-lambda';

/** Longer than any token we set; a longer value is not ours. */
const MAX_COOKIE_VALUE = 8192;

/** A cookie's value, or undefined when it cannot be read (bad percent-encoding, too long, empty). */
function decodeValue(raw: string): string | undefined {
  if (raw === '' || raw.length > MAX_COOKIE_VALUE) return undefined;
  try {
    return decodeURIComponent(raw);
  } catch {
    return undefined;
  }
}

/**
 * Reads a cookie from the event (API Gateway v2 passes them in `cookies`).
 * An unreadable value counts as absent, so a damaged cookie is treated as no
 * session (and cleared) rather than breaking every call.
 */
export function readCookie(event: APIGatewayProxyEventV2, name: string): string | undefined {
  for (const entry of event.cookies ?? []) {
    for (const part of entry.split(';')) {
      const index = part.indexOf('=');
      if (index > 0 && part.slice(0, index).trim() === name) return decodeValue(part.slice(index + 1).trim());
    }
  }
  return undefined;
}

/** Whether the request names the cookie at all, readable or not. */
export function hasCookie(event: APIGatewayProxyEventV2, name: string): boolean {
  return (event.cookies ?? []).some((entry) =>
    entry.split(';').some((part) => part.slice(0, Math.max(0, part.indexOf('='))).trim() === name),
  );
}

/** Cookie naming and attributes for one origin: `__Host-` and Secure over https. */
export function cookieJar(publicOrigin: string) {
  const secure = publicOrigin.startsWith('https://');
  const name = (base: string) => (secure ? `__Host-${base}` : base);
  const cookie = (base: string, value: string, maxAgeSeconds: number, httpOnly: boolean) =>
    `${name(base)}=${encodeURIComponent(value)}; Path=/;${httpOnly ? ' HttpOnly;' : ''} SameSite=Lax; Max-Age=${Math.max(0, Math.floor(maxAgeSeconds))}${secure ? '; Secure' : ''}`;
  const set = (base: string, value: string, maxAgeSeconds: number) =>
    cookie(base, value, maxAgeSeconds, true);
  return {
    name,
    set,
    clear: (base: string) => set(base, '', 0),
    /**
     * A cookie the page's script may read (no HttpOnly): only for values with
     * no secret in them, such as the signed-in hint (decision 023).
     */
    setReadable: (base: string, value: string, maxAgeSeconds: number) =>
      cookie(base, value, maxAgeSeconds, false),
    clearReadable: (base: string) => cookie(base, '', 0, false),
    read: (event: APIGatewayProxyEventV2, base: string) => readCookie(event, name(base)),
    has: (event: APIGatewayProxyEventV2, base: string) => hasCookie(event, name(base)),
  };
}
export type CookieJar = ReturnType<typeof cookieJar>;
