import type { APIGatewayProxyEventV2 } from 'aws-lambda';

/** Reads a cookie from the event (API Gateway v2 passes them in `cookies`). */
export function readCookie(event: APIGatewayProxyEventV2, name: string): string | undefined {
  for (const entry of event.cookies ?? []) {
    for (const part of entry.split(';')) {
      const index = part.indexOf('=');
      if (index > 0 && part.slice(0, index).trim() === name)
        return decodeURIComponent(part.slice(index + 1).trim());
    }
  }
  return undefined;
}

/** Cookie naming and attributes for one origin: `__Host-` and Secure over https. */
export function cookieJar(publicOrigin: string) {
  const secure = publicOrigin.startsWith('https://');
  const name = (base: string) => (secure ? `__Host-${base}` : base);
  const set = (base: string, value: string, maxAgeSeconds: number) =>
    `${name(base)}=${encodeURIComponent(value)}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${Math.max(0, Math.floor(maxAgeSeconds))}${secure ? '; Secure' : ''}`;
  return {
    name,
    set,
    clear: (base: string) => set(base, '', 0),
    read: (event: APIGatewayProxyEventV2, base: string) => readCookie(event, name(base)),
  };
}
export type CookieJar = ReturnType<typeof cookieJar>;
