import { TRACK_FRAME_TEMPLATE, TRACK_FRAME_TOKENS, type TrackFrameToken } from '@tunesmith/shared/pages';
import { apiPath } from '@tunesmith/shared/routes';
import {
  formatDate,
  formatTime,
  NO_LYRICS,
  trackDurationText,
  trackLyricsText,
  trackTagsText,
  trackTypeName,
} from '@tunesmith/shared/track-text';
import { UNTITLED_TRACK } from '@tunesmith/shared/track-values';
import { mayPlay } from '../generations/generation-service';
import type { GenerationStore } from '../generations/ports';
import { audioMediaType, type Generation, playbackAudio } from './track';

/**
 * Share pages (decision 024): a visible track's link, pasted into a chat or a
 * social site, previews its title, the site's name and an image, and offers
 * its audio through a route that redirects to a fresh signed link. Each such
 * track has a document of its own: the deployed track frame template
 * (`pages/track.html`, decision 026; else `index.html`) with the track's
 * tags in its head and its values in the page's frame, written when what it
 * shows changes and removed when the track may no longer be seen. The edge
 * serves it to visitors for `/track/{id}` when it exists, and the plain SPA
 * shell otherwise.
 */

/** Where the share documents are kept, one per visible track. */
export interface SharePages {
  /** Writes (or rewrites) the track's document; the edge serves it from then on. */
  publish(id: string, html: string): Promise<void>;
  /** Stops serving the track's document and deletes it; a document already gone is fine. Throws when it could not. */
  remove(id: string): Promise<void>;
}

/** The site as share documents name it. */
export interface ShareSite {
  /** The site's public origin (`https://example.com`, no trailing slash): every URL in the tags is absolute on it. */
  readonly origin: string;
  /** The site's name as the app shows it (Site Settings, General). */
  name(): Promise<string>;
}

/** What writing share documents needs. */
export interface SharePageDeps {
  generations: Pick<GenerationStore, 'get'>;
  pages: SharePages;
  /** The deployed track frame template (`pages/track.html`, else the shell `index.html`), read when a document is written. */
  template: () => Promise<string>;
  site: ShareSite;
}

/** The site's preview image (web/public), used for every track: tracks have no image of their own. */
export const SHARE_IMAGE = { path: '/share-image.png', width: 1200, height: 630, type: 'image/png' } as const;

/** The site bucket's area of share documents. */
export const SHARE_PAGE_AREA = 'share/track/';

/** Where a track's document is kept in the site bucket, and what the edge serves for `/track/{id}`. */
export const sharePageKey = (id: string) => `${SHARE_PAGE_AREA}${id}.html`;

/** A track id as the edge accepts it before it looks for a document (the same check the function makes). */
export const SHARE_ID_PATTERN = /^[A-Za-z0-9_-]{1,128}$/;

/**
 * Whether a track has a share document: a visitor may see it (the track
 * page's own rule, `mayView`) and it has finished with audio ({@link mayPlay},
 * the rule of its audio link too). Private, hidden, unfinished and failed
 * tracks have none.
 */
export function isShareable(
  g:
    | (Pick<Generation, 'visibility' | 'userId' | 'status' | 'audioUrl'> &
        Pick<Partial<Generation>, 'hidden'>)
    | undefined,
): g is Generation {
  return !!g && mayPlay(g, undefined);
}

/** The longest description a preview shows. */
export const DESCRIPTION_MAX = 200;

/** Text safe inside an element or a double- or single-quoted attribute. */
export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** `text` cut to `max` characters, with an ellipsis when it was longer. */
export const clip = (text: string, max: number) =>
  text.length > max ? `${text.slice(0, max - 1).trimEnd()}…` : text;

/** A track's name as its page shows it (web: trackTitle). */
const sharedTitle = (g: Pick<Generation, 'title'>): string => g.title?.trim() || UNTITLED_TRACK;

/** What a share document needs of a track: what it says, and which audio its link offers. */
export type SharedTrack = Pick<
  Generation,
  'id' | 'title' | 'tags' | 'lyrics' | 'duration' | 'type' | 'createdAt'
> &
  Partial<Pick<Generation, 'audioUrl' | 'streamAudioUrl'>>;

/**
 * Where a shared link offers a track's audio: the public route that answers
 * with a 302 to a freshly signed link (`GET /api/track/{id}/audio`), on the
 * site's origin. Signed links expire within hours; this one lasts as long as
 * the track is visible, as the document does.
 */
export const shareAudioUrl = (origin: string, id: string): string =>
  `${origin}${apiPath('getTrackAudio', { id })}`;

/** What a track's preview says, before escaping. */
export function sharePreview(
  g: SharedTrack,
  site: { origin: string; name: string },
): LinkPreview & { audio: LinkPreview['audio'] } {
  // As the track page titles its tab (pageTitle).
  const title = sharedTitle(g);
  const tags = g.tags.trim();
  const about = [tags, g.duration != null ? trackDurationText(g.duration) : ''].filter(Boolean).join(' · ');
  // What the route redirects to (the players' copy, else the WAV): the audio the track page's player gets.
  const audio = playbackAudio({ audioUrl: g.audioUrl ?? null, streamAudioUrl: g.streamAudioUrl ?? null });
  return {
    title,
    documentTitle: `${title} | ${site.name}`,
    description: clip(`Listen on ${site.name}${about ? `: ${about}` : ''}.`, DESCRIPTION_MAX),
    url: `${site.origin}/track/${encodeURIComponent(g.id)}`,
    image: `${site.origin}${SHARE_IMAGE.path}`,
    imageAlt: `${site.name}: ${title}`,
    audio: audio ? { url: shareAudioUrl(site.origin, g.id), type: audioMediaType(audio) } : undefined,
  };
}

/** What a link preview says, before escaping: a track's, a playlist's (decision 058), a creator's (059). */
export interface LinkPreview {
  title: string;
  documentTitle: string;
  description: string;
  url: string;
  image: string;
  imageAlt: string;
  /** The audio the preview offers and its media type; none without audio. */
  audio?: { url: string; type: string | undefined } | undefined;
}

/**
 * A preview's Open Graph and Twitter card tags, escaped: `type` is its `og:type`, `more` the
 * properties of that type (a song's duration, a playlist's creator, a profile's username).
 */
export function previewTags(
  p: LinkPreview,
  siteName: string,
  type: string,
  more: readonly (readonly [string, string | number])[] = [],
): string {
  const meta = (attr: 'name' | 'property', key: string, value: string | number) =>
    `<meta ${attr}="${key}" content="${escapeHtml(String(value))}" />`;
  return [
    `<title>${escapeHtml(p.documentTitle)}</title>`,
    meta('name', 'description', p.description),
    `<link rel="canonical" href="${escapeHtml(p.url)}" />`,
    meta('property', 'og:type', type),
    meta('property', 'og:site_name', siteName),
    meta('property', 'og:title', p.title),
    meta('property', 'og:description', p.description),
    meta('property', 'og:url', p.url),
    meta('property', 'og:image', p.image),
    meta('property', 'og:image:type', SHARE_IMAGE.type),
    meta('property', 'og:image:width', SHARE_IMAGE.width),
    meta('property', 'og:image:height', SHARE_IMAGE.height),
    meta('property', 'og:image:alt', p.imageAlt),
    ...(p.audio
      ? [
          meta('property', 'og:audio', p.audio.url),
          // Only an https origin has a secure URL to name.
          ...(p.audio.url.startsWith('https://')
            ? [meta('property', 'og:audio:secure_url', p.audio.url)]
            : []),
          ...(p.audio.type ? [meta('property', 'og:audio:type', p.audio.type)] : []),
        ]
      : []),
    ...more.map(([key, value]) => meta('property', key, value)),
    meta('name', 'twitter:card', 'summary_large_image'),
    meta('name', 'twitter:title', p.title),
    meta('name', 'twitter:description', p.description),
    meta('name', 'twitter:image', p.image),
    meta('name', 'twitter:image:alt', p.imageAlt),
  ].join('\n    ');
}

/** The tags that go in the head of a track's share document, escaped. */
export function shareTags(g: SharedTrack, site: { origin: string; name: string }): string {
  return previewTags(
    sharePreview(g, site),
    site.name,
    'music.song',
    g.duration != null ? [['music:duration', Math.round(g.duration)]] : [],
  );
}

/** The shell's own title and description, which the track's replace. */
const SHELL_TITLE = /<title>[\s\S]*?<\/title>\s*/i;
const SHELL_DESCRIPTION = /<meta\s+name=["']description["'][^>]*>\s*/i;

/** The template is not an HTML document with a head: nothing is written from it. */
export class ShareTemplateError extends Error {
  override readonly name = 'ShareTemplateError';
}

/** `template` with its own title and description replaced by a preview's `tags`, in its head. */
export function withPreviewHead(template: string, tags: string): string {
  const headEnd = template.search(/<\/head>/i);
  if (headEnd < 0) throw new ShareTemplateError('The share page template has no </head>');
  const head = template.slice(0, headEnd).replace(SHELL_TITLE, '').replace(SHELL_DESCRIPTION, '');
  return `${head}  ${tags}\n  ${template.slice(headEnd)}`;
}

/**
 * What each token of the track frame template stands for, as the track
 * page writes it (the same formatters, shared/src/track-text.ts), before
 * escaping.
 */
export function trackFrameValues(g: SharedTrack): Record<TrackFrameToken, string> {
  return {
    id: g.id,
    title: sharedTitle(g),
    tags: trackTagsText(g.tags),
    lyrics: trackLyricsText(g.lyrics) ?? NO_LYRICS,
    duration: trackDurationText(g.duration),
    time: formatTime(g.duration ?? 0),
    type: trackTypeName(g.type),
    // The reader's time zone is the app's to use; a document says the day in UTC meanwhile.
    created: formatDate(g.createdAt, 'utc'),
  };
}

const tokenNames = new Map<string, TrackFrameToken>(
  Object.entries(TRACK_FRAME_TOKENS).map(([name, token]) => [token, name as TrackFrameToken]),
);
const TOKEN = new RegExp([...tokenNames.keys()].join('|'), 'g');

/**
 * The track frame template (decision 026) with every token replaced by the
 * track's value, escaped, in one pass: a value that itself reads like a
 * token (a title of `%%TRACK_TAGS%%`) is shown as typed, never replaced
 * again. A template without tokens (the plain shell) is returned as it is.
 */
export function fillTrackFrame(template: string, g: SharedTrack): string {
  const values = trackFrameValues(g);
  return template.replace(TOKEN, (token) => escapeHtml(values[tokenNames.get(token) as TrackFrameToken]));
}

/**
 * A track's share document: the template (the deployed track frame
 * template, else the shell) with the track's values in the page's frame,
 * its title and description replaced by the track's, and the Open Graph and
 * Twitter card tags added to its head. The app itself loads as from the shell.
 */
export function renderSharePage(
  template: string,
  g: SharedTrack,
  site: { origin: string; name: string },
): string {
  return withPreviewHead(fillTrackFrame(template, g), shareTags(g, site));
}

/** How often a document is written again because the track changed while it was written. */
const SETTLE_ATTEMPTS = 3;

/**
 * Brings a track's share document in line with the track as stored: written
 * from the current template when the track is shareable, removed otherwise
 * (deleted, private, unfinished). After a write the track is read again: one
 * made private or deleted meanwhile has its document removed, and one
 * renamed meanwhile gets it written again, so a change that raced this one
 * never leaves a document that says more than the track page does.
 */
export async function refreshSharePage(deps: SharePageDeps, id: string): Promise<'published' | 'removed'> {
  let current = await deps.generations.get(id);
  let shell: { template: string; site: { origin: string; name: string } } | undefined;
  for (let attempt = 0; attempt < SETTLE_ATTEMPTS; attempt += 1) {
    if (!isShareable(current)) break;
    shell ??= {
      template: await deps.template(),
      site: { origin: deps.site.origin, name: await deps.site.name() },
    };
    const html = renderSharePage(shell.template, current, shell.site);
    await deps.pages.publish(id, html);
    const after = await deps.generations.get(id);
    if (isShareable(after) && renderSharePage(shell.template, after, shell.site) === html) return 'published';
    current = after;
  }
  if (isShareable(current)) return 'published'; // still changing: the last change's own refresh writes it
  await deps.pages.remove(id);
  return 'removed';
}

/**
 * Before a change that may hide a track (made private, deleted): its
 * document goes first, so a failure here fails the change and nothing is
 * left served that the track page would not show.
 */
export async function withdrawSharePage(deps: Pick<SharePageDeps, 'pages'>, id: string): Promise<void> {
  await deps.pages.remove(id);
}

/** Lists finished public tracks (candidates for a document), a page at a time. */
export type ShareableTracks = (cursor?: string) => Promise<{ items: Generation[]; cursor?: string }>;

/**
 * Writes the document of every shareable track again from the current
 * template and site name: after a deploy writes a new index.html, or as a
 * backfill for tracks from before share pages. Each track is refreshed on
 * its own ({@link refreshSharePage}), so one hidden while this runs is not
 * published again. Safe to run again. Returns how many documents it wrote.
 */
export async function rewriteAllSharePages(
  deps: SharePageDeps,
  tracks: ShareableTracks,
): Promise<{ written: number }> {
  // One template and one site name for the whole run.
  const template = await deps.template();
  const name = await deps.site.name();
  const run: SharePageDeps = {
    ...deps,
    template: async () => template,
    site: { origin: deps.site.origin, name: async () => name },
  };
  let written = 0;
  let cursor: string | undefined;
  do {
    const page = await tracks(cursor);
    for (const g of page.items) {
      if (!isShareable(g)) continue;
      if ((await refreshSharePage(run, g.id)) === 'published') written += 1;
    }
    cursor = page.cursor;
  } while (cursor);
  return { written };
}

/** Told when a document could not be brought in line after a change that stands (the next change or rewrite mends it). */
export type ShareRefreshFailure = (id: string, error: unknown) => void;

/**
 * Runs a change to a track (rename, visibility, delete) and then brings its
 * document in line with the track as stored, whatever the change did. A
 * change that may hide the track (`hides`: made private, deleted) removes
 * the document first, and if that fails the change is not made: nothing is
 * ever served that the track page would not show. A refresh that fails after
 * the change is reported, not thrown: the change stands, and a document that
 * could not be written says no more than the track page does.
 */
export async function changeSharedTrack<T>(
  deps: SharePageDeps,
  id: string,
  options: { hides: boolean; onRefreshFailure?: ShareRefreshFailure },
  change: () => Promise<T>,
): Promise<T> {
  if (options.hides) await withdrawSharePage(deps, id);
  try {
    return await change();
  } finally {
    await refreshSharePage(deps, id).catch((error: unknown) => options.onRefreshFailure?.(id, error));
  }
}

/** Finished public tracks as the admin area's directory lists them, newest first. */
export interface PublicTrackDirectory {
  list(
    filter: { status: 'completed'; visibility: 'public' },
    page: { limit: number; cursor?: string },
  ): Promise<{ items: Generation[]; cursor?: string }>;
}

/** How many tracks the rewrite reads at a time. */
const REWRITE_PAGE = 100;

/** The `share-pages` job: every public, finished track's document, rewritten from the current shell. */
export function rewriteAllFromDirectory(
  deps: SharePageDeps,
  directory: PublicTrackDirectory,
): Promise<{ written: number }> {
  return rewriteAllSharePages(deps, (cursor) =>
    directory.list(
      { status: 'completed', visibility: 'public' },
      { limit: REWRITE_PAGE, ...(cursor ? { cursor } : {}) },
    ),
  );
}

/** The site bucket's key of the template share documents are written from (decision 026). */
export const SHARE_TEMPLATE_KEY = TRACK_FRAME_TEMPLATE;

/**
 * Whether a stored object's key is the track frame template, whose new
 * version (a deploy) means rewriting every share page from it.
 */
export const isShareTemplateKey = (key: string): boolean =>
  decodeURIComponent(key.replace(/\+/g, ' ')) === SHARE_TEMPLATE_KEY;
