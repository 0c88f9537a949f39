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
 * The pricing page's document, which carries the plans for a browser without
 * scripts (decision 038): built with an empty {@link PRICING_PLANS_SLOT} where
 * the plans' loading state is, and filled in on the server with the active
 * plans whenever they change and after every deploy.
 */
export const PRICING_PAGE_KEY = `${PRERENDERED_AREA}${PRERENDERED_PAGES['/pricing']}.html`;

/** The element of the pricing page's document that holds the plans for a browser without scripts. */
export const PRICING_PLANS_SLOT = '<noscript data-plans="">';

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

/**
 * The track page's frame (decision 026): built once as a template,
 * `pages/track.html`, from a stand-in track whose shown values are these
 * tokens; each public track's share document is that template with the
 * tokens replaced by the track's values, escaped, as the track page writes
 * them. Its root is marked `data-prerendered="replace"`: its content is not
 * the app's first render, so the app renders afresh in its place.
 */
export const TRACK_FRAME_TOKENS = {
  /** The track's id. */
  id: '%%TRACK_ID%%',
  /** Its title as the page names it (`trackTitle`). */
  title: '%%TRACK_TITLE%%',
  /** Its tags (`trackTagsText`). */
  tags: '%%TRACK_TAGS%%',
  /** Its lyrics (`trackLyricsText`, else `NO_LYRICS`). */
  lyrics: '%%TRACK_LYRICS%%',
  /** Its duration in the details (`trackDurationText`). */
  duration: '%%TRACK_DURATION%%',
  /** Its duration on the player (`formatTime`). */
  time: '%%TRACK_TIME%%',
  /** Its generation type (`trackTypeName`). */
  type: '%%TRACK_TYPE%%',
  /** When it was made (`formatDate`, in UTC: a document cannot know the reader's time zone, which the app then uses). */
  created: '%%TRACK_CREATED%%',
} as const;

export type TrackFrameToken = keyof typeof TRACK_FRAME_TOKENS;

/** The track frame template's name and key beside `index.html`. */
export const TRACK_FRAME_NAME = 'track';
export const TRACK_FRAME_TEMPLATE = `${PRERENDERED_AREA}${TRACK_FRAME_NAME}.html`;

/** `#root`'s marker on a frame the app renders afresh in place of (a track's), rather than taking over as it is. */
export const REPLACED_FRAME_MARKER = 'replace';

/**
 * Whether a request for a track's page (`/track/{id}`) may be answered with
 * the track's share document: only for a visitor. A browser with the
 * signed-in hint gets the plain shell, as on the other prerendered pages: a
 * signed-in user sees their own page (maybe their private track, or owner's
 * actions), never a visitor's frame first. Link-preview bots send no cookies.
 */
export function sharesTrackDocument(cookieHeader: string | undefined): boolean {
  return !hasSignedInHintCookie(cookieHeader);
}
