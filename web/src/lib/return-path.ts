/** Longer than any path the app makes; a longer value is not one of ours. */
const MAX_RETURN_PATH_LENGTH = 2048;

/**
 * A path on this site to go to after signing in, or null when `value` is not
 * one. Only a path that starts with a single '/' is accepted: '//host' and
 * '/\host' are read by browsers as another host, and a scheme
 * (`https:`, `javascript:`) is never a path. What is left is resolved against
 * this origin and refused if it lands anywhere else.
 */
export function safeReturnPath(value: unknown, origin?: string): string | null {
  if (typeof value !== 'string' || value.length === 0 || value.length > MAX_RETURN_PATH_LENGTH) return null;
  if (!value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return null;
  // Browsers drop tabs and newlines and read '\' as '/' in a URL, which could make '//' again.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused here.
  if (/[\\\u0000-\u001f\u007f]/.test(value)) return null;
  const base = origin ?? window.location.origin;
  let url: URL;
  try {
    url = new URL(value, base);
  } catch {
    return null;
  }
  if (url.origin !== new URL(base).origin) return null;
  return `${url.pathname}${url.search}${url.hash}`;
}

/** The name of the sign-in page's parameter that says where to go afterwards. */
export const NEXT_PARAM = 'next';

/** The sign-in page, carrying where to go after it when that is a path on this site. */
export function signInPath(next?: string | null): string {
  const safe = safeReturnPath(next);
  return safe ? `/auth?${new URLSearchParams({ [NEXT_PARAM]: safe })}` : '/auth';
}
