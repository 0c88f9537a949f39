import type { PublicProfile } from '@tunesmith/shared/community';
import { clip, DESCRIPTION_MAX, previewTags, SHARE_IMAGE, withPreviewHead } from '../tracks/share-page';
import type { CreatorStore } from './creators';

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

/** The shell with the profile's preview tags in its head (every value escaped: they are user input). */
export function renderCreatorPage(
  template: string,
  profile: Pick<PublicProfile, 'handle' | 'displayName' | 'bio'>,
  site: { origin: string; name: string },
): string {
  const title = `${profile.displayName} (@${profile.handle})`;
  const preview = {
    title,
    documentTitle: `${title} | ${site.name}`,
    description: clip(
      profile.bio?.trim() || `Listen to ${profile.displayName} on ${site.name}.`,
      DESCRIPTION_MAX,
    ),
    url: `${site.origin}/@${encodeURIComponent(profile.handle)}`,
    image: `${site.origin}${SHARE_IMAGE.path}`,
    imageAlt: `${site.name}: ${title}`,
  };
  return withPreviewHead(
    template,
    previewTags(preview, site.name, 'profile', [['profile:username', profile.handle]]),
  );
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

/**
 * The `share-pages` job's part for creators (a deploy's new shell): every creator document there is,
 * written again from the current shell for a profile still public and not hidden under that handle,
 * else removed.
 */
export async function rewriteAllCreatorPages(
  deps: CreatorShareDeps,
  creators: Pick<CreatorStore, 'holderOf' | 'profile'>,
  /** The handles (lowercased) that have a document now. */
  documents: () => Promise<string[]>,
): Promise<{ written: number; removed: number }> {
  const template = await deps.template();
  const name = await deps.site.name();
  const run: CreatorShareDeps = {
    ...deps,
    template: async () => template,
    site: { ...deps.site, name: async () => name },
  };
  const publicUnder = async (handle: string) => {
    const holder = await creators.holderOf(handle);
    const profile = holder ? await creators.profile(holder) : undefined;
    return profile && !profile.hidden && profile.handle.toLowerCase() === handle.toLowerCase()
      ? profile
      : undefined;
  };
  const counts = { written: 0, removed: 0 };
  for (const handle of await documents()) {
    const profile = await publicUnder(handle);
    if (profile) await publishCreatorPage(run, profile);
    // Read again after writing: a profile made private or hidden meanwhile removed its document
    // before this write, so the write must not outlive it.
    if (profile && (await publicUnder(handle))) {
      counts.written += 1;
    } else {
      await deps.pages.remove(handle);
      counts.removed += 1;
    }
  }
  return counts;
}
