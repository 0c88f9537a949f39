/**
 * The pages whose first frame, as a visitor sees it, is rendered into HTML at
 * build time (web/build/prerender.ts), so a visitor's phone paints the page
 * before the app's JavaScript has run. The edge (infra/lib/web.ts, a
 * CloudFront Function) and the local static server (local/src/static.ts)
 * answer these paths with the page's own document when the request carries
 * no signed-in hint, and with the plain shell otherwise: a signed-in user
 * sees their own page, never a visitor's frame first. Decision 025.
 */
export const PRERENDERED_PAGES = {
  '/': 'home',
  '/pricing': 'pricing',
  '/auth': 'auth',
} as const;

/** Where the documents live beside `index.html`: `pages/{name}.html`. */
export const PRERENDERED_AREA = 'pages/';

/**
 * The signed-in hint cookie (decision 023), as the server sets it: plain over
 * http, `__Host-` prefixed over https. It holds no secret and decides nothing
 * but which document is sent first.
 */
export const SIGNED_IN_HINT = 'ts_signed_in';
export const SIGNED_IN_HINT_NAMES = [SIGNED_IN_HINT, `__Host-${SIGNED_IN_HINT}`] as const;

/** Whether a `Cookie` header carries the signed-in hint. */
export function hasSignedInHintCookie(cookieHeader: string | undefined): boolean {
  return (cookieHeader ?? '').split(';').some((part) => {
    const name = part.slice(0, Math.max(0, part.indexOf('='))).trim();
    return (SIGNED_IN_HINT_NAMES as readonly string[]).includes(name);
  });
}

/** The document a request for `pathname` is answered with, when it is a prerendered page for this visitor. */
export function prerenderedDocument(pathname: string, cookieHeader: string | undefined): string | undefined {
  const name = (PRERENDERED_PAGES as Record<string, string>)[pathname];
  if (!name || hasSignedInHintCookie(cookieHeader)) return undefined;
  return `/${PRERENDERED_AREA}${name}.html`;
}
