import type { PublicProfile } from '@tunesmith/shared/community';
import { escapeHtml, SHARE_IMAGE, ShareTemplateError } from '../tracks/share-page';

/**
 * A creator page's link preview (decision 059, after decision 024's share documents): `/@handle` of a
 * public profile that is not hidden has a document, the SPA shell with the profile's title, bio and
 * the site's image in its head; a private, hidden or unknown handle has none, so its page is the plain
 * shell and says nothing.
 */

/** Where creator documents are kept in the site bucket, beside the tracks' `share/track/`. */
export const CREATOR_SHARE_AREA = 'share/creator/';

/** A handle's document: by the handle lowercased, as `/@Handle` and `/@handle` are one page. */
export const creatorShareKey = (handle: string) => `${CREATOR_SHARE_AREA}${handle.toLowerCase()}.html`;

/** The edge's key for a handle's document: `@` and the handle lowercased (track ids never start with `@`). */
export const creatorShareId = (handle: string) => `@${handle.toLowerCase()}`;

/** Where creator documents are written and withdrawn, keyed by handle. */
export interface CreatorSharePages {
  publish(handle: string, html: string): Promise<void>;
  /** Stops serving the handle's document; one already gone is fine. Throws when it could not. */
  remove(handle: string): Promise<void>;
}

export interface CreatorShareDeps {
  pages: CreatorSharePages;
  /** The deployed SPA shell (`index.html`), read when a document is written. */
  template: () => Promise<string>;
  site: { origin: string; name(): Promise<string> };
}

const DESCRIPTION_MAX = 200;
const clip = (text: string, max: number) =>
  text.length > max ? `${text.slice(0, max - 1).trimEnd()}…` : text;
const SHELL_TITLE = /<title>[\s\S]*?<\/title>\s*/i;
const SHELL_DESCRIPTION = /<meta\s+name=["']description["'][^>]*>\s*/i;

/** The shell with the profile's preview tags in its head (every value escaped: they are user input). */
export function renderCreatorPage(
  template: string,
  profile: Pick<PublicProfile, 'handle' | 'displayName' | 'bio'>,
  site: { origin: string; name: string },
): string {
  const headEnd = template.search(/<\/head>/i);
  if (headEnd < 0) throw new ShareTemplateError('The share page template has no </head>');
  const title = `${profile.displayName} (@${profile.handle})`;
  const description = clip(
    profile.bio?.trim() || `Listen to ${profile.displayName} on ${site.name}.`,
    DESCRIPTION_MAX,
  );
  const url = `${site.origin}/@${encodeURIComponent(profile.handle)}`;
  const image = `${site.origin}${SHARE_IMAGE.path}`;
  const meta = (attr: 'name' | 'property', key: string, value: string | number) =>
    `<meta ${attr}="${key}" content="${escapeHtml(String(value))}" />`;
  const tags = [
    `<title>${escapeHtml(`${title} | ${site.name}`)}</title>`,
    meta('name', 'description', description),
    `<link rel="canonical" href="${escapeHtml(url)}" />`,
    meta('property', 'og:type', 'profile'),
    meta('property', 'og:site_name', site.name),
    meta('property', 'og:title', title),
    meta('property', 'og:description', description),
    meta('property', 'og:url', url),
    meta('property', 'og:image', image),
    meta('property', 'og:image:type', SHARE_IMAGE.type),
    meta('property', 'og:image:width', SHARE_IMAGE.width),
    meta('property', 'og:image:height', SHARE_IMAGE.height),
    meta('property', 'og:image:alt', `${site.name}: ${title}`),
    meta('property', 'profile:username', profile.handle),
    meta('name', 'twitter:card', 'summary_large_image'),
    meta('name', 'twitter:title', title),
    meta('name', 'twitter:description', description),
    meta('name', 'twitter:image', image),
  ].join('\n    ');
  const head = template.slice(0, headEnd).replace(SHELL_TITLE, '').replace(SHELL_DESCRIPTION, '');
  return `${head}  ${tags}\n  ${template.slice(headEnd)}`;
}

/** Writes the handle's document for a public, not hidden profile. */
export async function publishCreatorPage(
  deps: CreatorShareDeps,
  profile: Pick<PublicProfile, 'handle' | 'displayName' | 'bio'>,
): Promise<void> {
  const html = renderCreatorPage(await deps.template(), profile, {
    origin: deps.site.origin,
    name: await deps.site.name(),
  });
  await deps.pages.publish(profile.handle, html);
}
