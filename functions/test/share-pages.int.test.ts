import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect } from 'vitest';
import { signedInTestAdmin, signedInUser, testPassword } from './support/accounts';
import { direct } from './support/direct';
import type { Browser } from './support/http';
import { subscribe } from './support/plans';
import { apiUrl, paidGeneration } from './support/run';

// Share pages (decision 024): a public track's /track/{id} carries its preview
// tags, written when it completes and kept in line with every change, and
// offers its audio through a route that redirects to a fresh signed link; any
// other track's page carries nothing about it, and its audio route answers 404. Pages are read as a chat
// application's link preview reads them: a plain GET with no session.

const PIPELINE_TEST_TIMEOUT_MS = 120_000;
const SETTLE_WITHIN_MS = 90_000;
const store = direct();
let admin: Browser;

let removeAdmin: (() => Promise<void>) | undefined;

beforeAll(async () => {
  ({ browser: admin, remove: removeAdmin } = await signedInTestAdmin(store, 'share'));
});
afterAll(async () => {
  await removeAdmin?.();
  store.close();
});

/** A track page as a link preview or a visitor fetches it: no cookies (or `cookie`, as a browser sends it). */
async function page(
  id: string,
  cookie?: string,
): Promise<{ status: number; type: string | null; html: string }> {
  const response = await fetch(`${apiUrl}/track/${id}`, cookie ? { headers: { cookie } } : {});
  return { status: response.status, type: response.headers.get('content-type'), html: await response.text() };
}

/** The track page's heading in a document's first frame (decision 026), unescaped as a browser reads it. */
function heading(html: string): string | undefined {
  return /<h1 id="track-title"[^>]*>([^<]*)<\/h1>/
    .exec(html)?.[1]
    ?.replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

/** The content of a preview tag, unescaped as a browser reads it. */
function meta(html: string, key: string): string | undefined {
  const match = new RegExp(
    `<meta (?:name|property)="${key.replace(/[.:]/g, '\\$&')}" content="([^"]*)"`,
  ).exec(html);
  return match?.[1]
    ?.replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

/** A page that says nothing about the track: no preview tags, no frame, and neither its id nor its title. */
async function expectNothingAbout(id: string, title: string): Promise<void> {
  const { html } = await page(id);
  expect(html).not.toContain('og:title');
  expect(heading(html)).toBeUndefined();
  expect(html).not.toContain('og:url');
  expect(html).not.toContain(id);
  expect(html).not.toContain(title);
}

/** A shared link's audio route as a preview fetches it (or checks it first): no cookies, redirects not followed. */
async function audioRoute(id: string, method: 'GET' | 'HEAD' = 'GET'): Promise<Response> {
  return fetch(`${apiUrl}/api/track/${id}/audio`, { method, redirect: 'manual' });
}

/** The audio route's refusal: 404 with the track page's own message, and no link anywhere. */
async function expectNoAudio(id: string, message = 'Track not found'): Promise<void> {
  const res = await audioRoute(id);
  expect(res.status).toBe(404);
  expect(res.headers.get('location')).toBeNull();
  expect(await res.json()).toEqual({ message });
  const checked = await audioRoute(id, 'HEAD');
  expect(checked.status).toBe(404);
  expect(checked.headers.get('location')).toBeNull();
  expect(await checked.text()).toBe('');
}

/** Waits until the page's preview tags match (a background job writes or removes them). */
async function eventually(check: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + SETTLE_WITHIN_MS;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${what} did not happen within ${SETTLE_WITHIN_MS / 1000} s`);
}

/** Makes a track through the API (the real workflow) and waits until it is completed. */
async function aFinishedTrack(
  browser: Browser,
  fields: { title: string; visibility: 'public' | 'private' },
): Promise<string> {
  const res = await browser.post('/api/generate-text-to-music', {
    tags: 'synthwave, night drive',
    lyrics: '',
    duration: 5,
    ...fields,
  });
  expect(res.status).toBe(201);
  const id = String(res.body.generationId);
  const deadline = Date.now() + SETTLE_WITHIN_MS;
  while (Date.now() < deadline) {
    const status = await browser.get(`/api/generation/${id}/status`);
    if (status.body.status === 'completed') {
      // The Finish step writes the share page right after it marks the track completed.
      if (fields.visibility === 'public')
        await eventually(async () => (await page(id)).html.includes('og:title'), 'writing the share page');
      return id;
    }
    expect(status.body.status).not.toBe('failed');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`Generation ${id} did not finish`);
}

const opts = { timeout: PIPELINE_TEST_TIMEOUT_MS };

paidGeneration.describe('the share page of a track', () => {
  paidGeneration.it(
    'of a public track carries its title, the site name, the image and absolute URLs; a rename shows at once',
    opts,
    async () => {
      const { browser } = await signedInUser();
      const title = `"<script>alert('x')</script> & Night ${randomUUID().slice(0, 6)}`;
      const id = await aFinishedTrack(browser, { title, visibility: 'public' });

      const shared = await page(id);
      expect(shared.status).toBe(200);
      expect(shared.type).toMatch(/^text\/html/);
      // Escaped: the page runs nothing a title brings.
      expect(shared.html).not.toContain("<script>alert('x')</script>");
      expect(meta(shared.html, 'og:title')).toBe(title);
      expect(meta(shared.html, 'twitter:title')).toBe(title);
      expect(meta(shared.html, 'og:type')).toBe('music.song');
      expect(meta(shared.html, 'og:site_name')).toBe('Tunesmith');
      expect(meta(shared.html, 'og:url')).toBe(`${apiUrl}/track/${id}`);
      expect(meta(shared.html, 'og:image')).toBe(`${apiUrl}/share-image.png`);
      expect(meta(shared.html, 'twitter:card')).toBe('summary_large_image');
      expect(meta(shared.html, 'description')).toContain('synthwave, night drive');
      // The body is the track page's first frame, its title as text, which the app replaces (decision 026).
      expect(heading(shared.html)).toBe(title);
      expect(shared.html).toContain('<div id="root" data-prerendered="replace">');
      expect(shared.html).toContain('<dd class="mt-1 text-zinc-100">synthwave, night drive</dd>');
      expect(shared.html).not.toMatch(/%%TRACK_[A-Z_]+%%/);
      // A signed-in browser gets the app's shell (the local suite serves no web: its 404), never a visitor's frame.
      const own = await page(id, 'ts_signed_in=1');
      expect(own.html).not.toContain('og:title');
      expect(heading(own.html)).toBeUndefined();

      // The audio: a lasting URL on the site that answers with a fresh signed link to what the player gets.
      const offered = meta(shared.html, 'og:audio');
      expect(offered).toBe(`${apiUrl}/api/track/${id}/audio`);
      if (apiUrl.startsWith('https://')) expect(meta(shared.html, 'og:audio:secure_url')).toBe(offered);
      else expect(shared.html).not.toContain('og:audio:secure_url');
      const type = meta(shared.html, 'og:audio:type') ?? '';
      expect(type).toMatch(/^audio\/(ogg|wav)$/);
      const redirected = await fetch(offered as string, { redirect: 'manual' });
      expect(redirected.status).toBe(302);
      expect(redirected.headers.get('cache-control')).toBe('public, max-age=300');
      const location = redirected.headers.get('location') ?? '';
      expect(location).toMatch(/^https?:\/\//);
      // A preview that checks the audio with a HEAD first is sent the same way, with no body.
      const checked = await audioRoute(id, 'HEAD');
      expect(checked.status).toBe(302);
      expect(checked.headers.get('location')).toMatch(/^https?:\/\/.*\/tracks\//);
      expect(await checked.text()).toBe('');
      const played = await fetch(location);
      expect(played.status).toBe(200);
      expect(played.headers.get('content-type')?.split(';')[0]).toBe(type);
      const bytes = new Uint8Array(await played.arrayBuffer());
      expect(Buffer.from(bytes.subarray(0, 4)).toString('latin1')).toBe(
        type === 'audio/ogg' ? 'OggS' : 'RIFF',
      );
      // The same audio the track page's player gets.
      const trackPage = await fetch(`${apiUrl}/api/track/${id}`);
      const player = await fetch(String(((await trackPage.json()) as { audioUrl: string }).audioUrl));
      expect(new Uint8Array(await player.arrayBuffer())).toEqual(bytes);

      const renamed = `Renamed ${randomUUID().slice(0, 6)}`;
      const update = await browser.call('PATCH', `/api/generation/${id}/visibility`, {
        title: renamed,
        visibility: 'public',
      });
      expect(update.status).toBe(200);
      const after = await page(id);
      expect(meta(after.html, 'og:title')).toBe(renamed);
      expect(heading(after.html)).toBe(renamed);
    },
  );

  paidGeneration.it(
    'carries nothing once the track is made private, and again once it is public',
    opts,
    async () => {
      const { browser, id: userId } = await signedInUser();
      await subscribe(store, userId);
      const title = `Private Set ${randomUUID().slice(0, 6)}`;
      const id = await aFinishedTrack(browser, { title, visibility: 'public' });
      expect(meta((await page(id)).html, 'og:title')).toBe(title);

      const hidden = await browser.call('PATCH', `/api/generation/${id}/visibility`, {
        title,
        visibility: 'private',
      });
      expect(hidden.status).toBe(200);
      await expectNothingAbout(id, title);
      await expectNoAudio(id);
      // Its owner may still play it, as the track page still shows it to them; never from a cache.
      const own = await browser.get(`/api/track/${id}/audio`);
      expect(own.status).toBe(302);
      expect(own.headers.get('cache-control')).toBe('private, no-store');
      expect((await fetch(own.headers.get('location') ?? '')).status).toBe(200);

      await browser.call('PATCH', `/api/generation/${id}/visibility`, { title, visibility: 'public' });
      expect(meta((await page(id)).html, 'og:title')).toBe(title);
    },
  );

  paidGeneration.it(
    'of a private track, an unknown id and someone else’s refused change carries nothing',
    opts,
    async () => {
      const { browser, id: userId } = await signedInUser();
      await subscribe(store, userId);
      const title = `Kept Secret ${randomUUID().slice(0, 6)}`;
      const secret = await aFinishedTrack(browser, { title, visibility: 'private' });
      await expectNothingAbout(secret, title);
      await expectNothingAbout(`missing-${randomUUID()}`, 'missing-');
      await expectNoAudio(secret);
      await expectNoAudio(`missing-${randomUUID()}`);
      // An id that cannot be one is refused as the track page refuses it.
      await expectNoAudio('a.b', 'Not found');
      await expectNoAudio('x'.repeat(200), 'Not found');

      // Someone else cannot take a public track's page down by asking to hide it.
      const publicTitle = `Open Air ${randomUUID().slice(0, 6)}`;
      const open = await aFinishedTrack(browser, { title: publicTitle, visibility: 'public' });
      const { browser: other } = await signedInUser();
      expect(
        (
          await other.call('PATCH', `/api/generation/${open}/visibility`, {
            title: 'x',
            visibility: 'private',
          })
        ).status,
      ).toBe(404);
      expect((await other.call('DELETE', `/api/generation/${open}`)).status).toBe(404);
      expect(meta((await page(open)).html, 'og:title')).toBe(publicTitle);
    },
  );

  paidGeneration.it('carries nothing once its owner deletes the track', opts, async () => {
    const { browser } = await signedInUser();
    const title = `Gone Soon ${randomUUID().slice(0, 6)}`;
    const id = await aFinishedTrack(browser, { title, visibility: 'public' });
    expect(meta((await page(id)).html, 'og:title')).toBe(title);

    expect((await audioRoute(id)).status).toBe(302);

    expect((await browser.call('DELETE', `/api/generation/${id}`)).status).toBe(204);
    await expectNothingAbout(id, title);
    await expectNoAudio(id);
  });

  paidGeneration.it('follows an admin’s rename and goes with an admin’s delete', opts, async () => {
    const { browser } = await signedInUser();
    const title = `Harbour ${randomUUID().slice(0, 6)}`;
    const id = await aFinishedTrack(browser, { title, visibility: 'public' });

    const renamed = `Harbour Lights ${randomUUID().slice(0, 6)}`;
    expect((await admin.call('PATCH', `/api/admin/tracks/${id}/title`, { title: renamed })).status).toBe(200);
    expect(meta((await page(id)).html, 'og:title')).toBe(renamed);

    expect((await admin.call('DELETE', `/api/admin/tracks/${id}`)).status).toBe(204);
    await expectNothingAbout(id, renamed);
  });

  paidGeneration.it(
    'goes with the account: an admin’s delete of the user and the user’s own',
    opts,
    async () => {
      const first = await signedInUser();
      const firstTitle = `Deleted By Admin ${randomUUID().slice(0, 6)}`;
      const firstTrack = await aFinishedTrack(first.browser, { title: firstTitle, visibility: 'public' });
      expect(meta((await page(firstTrack)).html, 'og:title')).toBe(firstTitle);
      expect((await admin.call('DELETE', `/api/admin/regular-users/${first.id}`)).status).toBe(204);
      await expectNothingAbout(firstTrack, firstTitle);

      const second = await signedInUser();
      const secondTitle = `Deleted By Owner ${randomUUID().slice(0, 6)}`;
      const secondTrack = await aFinishedTrack(second.browser, { title: secondTitle, visibility: 'public' });
      expect(meta((await page(secondTrack)).html, 'og:title')).toBe(secondTitle);
      expect(
        (await second.browser.call('DELETE', '/api/user', { currentPassword: testPassword })).status,
      ).toBe(202);
      // The rest of the account goes in a background job.
      await eventually(
        async () => !(await page(secondTrack)).html.includes('og:title'),
        'removing the share page',
      );
      await expectNothingAbout(secondTrack, secondTitle);
    },
  );
});
