import { TRACK_FRAME_TOKENS } from '@tunesmith/shared/pages';
import { describe, expect, it } from 'vitest';
import { aGeneration } from '../../testing/fixtures';
import { inMemoryGenerationStore } from '../../testing/in-memory-generations';
import { inMemorySharePages, SHELL_TEMPLATE, shareDeps } from '../../testing/in-memory-share-pages';
import type { GenerationStore } from '../generations/ports';
import {
  escapeHtml,
  fillTrackFrame,
  isShareable,
  isShareTemplateKey,
  refreshSharePage,
  renderSharePage,
  rewriteAllFromDirectory,
  rewriteAllSharePages,
  ShareTemplateError,
  withdrawSharePage,
} from './share-page';

const site = { origin: 'https://tunesmith.example', name: 'Tunesmith' };

/** The content of `<meta {attr}="{key}" content="...">` in a document, unescaped as a browser reads it. */
function metaContent(html: string, key: string): string | undefined {
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

describe('the share page rule', () => {
  it('a public finished track with audio has a document; private, unfinished, failed and missing ones have none', () => {
    expect(
      isShareable(aGeneration({ visibility: 'public', status: 'completed', audioUrl: 's3://t/a.wav' })),
    ).toBe(true);
    // Hidden from the gallery by an admin: the track page still answers visitors, so the preview stays.
    expect(isShareable(aGeneration({ showInGallery: false, audioUrl: 's3://t/a.wav' }))).toBe(true);
    expect(isShareable(aGeneration({ visibility: 'private', audioUrl: 's3://t/a.wav' }))).toBe(false);
    expect(isShareable(aGeneration({ status: 'generating', audioUrl: null }))).toBe(false);
    expect(isShareable(aGeneration({ status: 'pending', audioUrl: null }))).toBe(false);
    expect(isShareable(aGeneration({ status: 'failed', audioUrl: null }))).toBe(false);
    expect(isShareable(aGeneration({ status: 'completed', audioUrl: null }))).toBe(false);
    expect(isShareable(undefined)).toBe(false);
  });
});

describe('rendering a share document', () => {
  const track = aGeneration({ id: 't-1', title: 'Night Drive', tags: 'synthwave, retro', duration: 61.6 });

  it('puts the track title, the site name, the image and absolute URLs in the shell’s head', () => {
    const html = renderSharePage(SHELL_TEMPLATE, track, site);
    expect(html).toContain('<title>Night Drive | Tunesmith</title>');
    expect(metaContent(html, 'og:type')).toBe('music.song');
    expect(metaContent(html, 'og:title')).toBe('Night Drive');
    expect(metaContent(html, 'og:site_name')).toBe('Tunesmith');
    expect(metaContent(html, 'og:url')).toBe('https://tunesmith.example/track/t-1');
    expect(metaContent(html, 'og:image')).toBe('https://tunesmith.example/share-image.png');
    expect(metaContent(html, 'og:image:width')).toBe('1200');
    expect(metaContent(html, 'og:image:height')).toBe('630');
    expect(metaContent(html, 'og:image:alt')).toBe('Tunesmith: Night Drive');
    expect(metaContent(html, 'music:duration')).toBe('62');
    expect(metaContent(html, 'twitter:card')).toBe('summary_large_image');
    expect(metaContent(html, 'twitter:title')).toBe('Night Drive');
    expect(metaContent(html, 'twitter:image')).toBe('https://tunesmith.example/share-image.png');
    expect(metaContent(html, 'description')).toBe('Listen on Tunesmith: synthwave, retro · 62 seconds.');
    expect(metaContent(html, 'og:description')).toBe(metaContent(html, 'description'));
    // The audio through the public route, never a signed link that would expire while the document is served.
    expect(metaContent(html, 'og:audio')).toBe('https://tunesmith.example/api/track/t-1/audio');
    expect(metaContent(html, 'og:audio:secure_url')).toBe('https://tunesmith.example/api/track/t-1/audio');
    expect(metaContent(html, 'og:audio:type')).toBe('audio/wav');
    expect(html).not.toContain('cdn.example');
  });

  it('offers the audio the players get: the compressed copy’s type when there is one', () => {
    const html = renderSharePage(
      SHELL_TEMPLATE,
      aGeneration({ id: 't-1', audioUrl: 's3://t/tracks/t-1.wav', streamAudioUrl: 's3://t/tracks/t-1.opus' }),
      site,
    );
    expect(metaContent(html, 'og:audio')).toBe('https://tunesmith.example/api/track/t-1/audio');
    expect(metaContent(html, 'og:audio:type')).toBe('audio/ogg');
  });

  it('names no secure audio URL on a plain http origin, and no audio for a track without any', () => {
    const local = { origin: 'http://127.0.0.1:3000', name: 'Tunesmith' };
    const html = renderSharePage(SHELL_TEMPLATE, track, local);
    expect(metaContent(html, 'og:audio')).toBe('http://127.0.0.1:3000/api/track/t-1/audio');
    expect(metaContent(html, 'og:audio:type')).toBe('audio/wav');
    expect(html).not.toContain('og:audio:secure_url');

    const silent = renderSharePage(SHELL_TEMPLATE, aGeneration({ audioUrl: null }), site);
    expect(silent).not.toContain('og:audio');
  });

  it('replaces the shell’s title and description and keeps the rest of the shell as it is', () => {
    const html = renderSharePage(SHELL_TEMPLATE, track, site);
    expect(html.match(/<title>/g)).toHaveLength(1);
    expect(html).not.toContain('Create Music with AI');
    expect(html).not.toContain("The shell's own description.");
    expect(html.match(/name="description"/g)).toHaveLength(1);
    expect(html).toContain('<script type="module" src="/assets/index-abc.js"></script>');
    expect(html).toContain('<body><div id="root"></div></body>');
    expect(html.indexOf('og:title')).toBeLessThan(html.indexOf('</head>'));
  });

  it('names an untitled track as the track page does', () => {
    const html = renderSharePage(SHELL_TEMPLATE, aGeneration({ title: '   ' }), site);
    expect(metaContent(html, 'og:title')).toBe('Untitled Track');
    expect(html).toContain('<title>Untitled Track | Tunesmith</title>');
  });

  it('escapes what users typed, in text and in attributes', () => {
    const title = `"<script>alert('x')</script> & co`;
    const html = renderSharePage(
      SHELL_TEMPLATE,
      aGeneration({ id: 't-2', title, tags: `rock"><img src=x onerror=alert(1)>` }),
      { ...site, name: `Tune <b>"smith"` },
    );
    expect(html).not.toContain('<script>alert');
    expect(html).not.toContain('<img');
    expect(html).not.toContain('<b>');
    expect(html).toContain(`<title>${escapeHtml(title)} | Tune &lt;b&gt;&quot;smith&quot;</title>`);
    expect(metaContent(html, 'og:title')).toBe(title);
    expect(metaContent(html, 'og:site_name')).toBe('Tune <b>"smith"');
    expect(metaContent(html, 'description')).toContain(`rock"><img src=x onerror=alert(1)>`);
    // An id is encoded into the audio URL as into the page's own.
    const odd = renderSharePage(SHELL_TEMPLATE, aGeneration({ id: `a"b<c` }), site);
    expect(odd).not.toContain(`a"b<c`);
    expect(metaContent(odd, 'og:audio')).toBe('https://tunesmith.example/api/track/a%22b%3Cc/audio');
    expect(escapeHtml(`<a href='x'>"&"</a>`)).toBe('&lt;a href=&#39;x&#39;&gt;&quot;&amp;&quot;&lt;/a&gt;');
  });

  it('keeps a long description short', () => {
    const html = renderSharePage(SHELL_TEMPLATE, aGeneration({ tags: 'x'.repeat(500) }), site);
    expect((metaContent(html, 'description') ?? '').length).toBeLessThanOrEqual(200);
  });

  it('refuses a template without a head', () => {
    expect(() => renderSharePage('<p>no head</p>', track, site)).toThrow(ShareTemplateError);
  });
});

/** A track frame template as the build writes it (decision 026): the shell with the track page's frame, all tokens. */
const TRACK_TEMPLATE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="UTF-8" />
    <title>%%TRACK_TITLE%% | Tunesmith</title>
    <link rel="modulepreload" fetchpriority="low" crossorigin href="/assets/index-abc.js" data-app="">
  </head>
  <body><div id="root" data-prerendered="replace"><main><h1 id="track-title">%%TRACK_TITLE%%</h1><button disabled="" aria-label="Play %%TRACK_TITLE%%"></button><input disabled="" type="range" aria-valuetext="0:00 of %%TRACK_TIME%%"/><span>%%TRACK_TIME%%</span><dd>%%TRACK_TAGS%%</dd><dd>%%TRACK_DURATION%%</dd><dd>%%TRACK_TYPE%%</dd><dd>%%TRACK_CREATED%%</dd><p>%%TRACK_LYRICS%%</p><i data-id="%%TRACK_ID%%"></i></main></div></body>
</html>
`;

describe('filling the track page’s frame', () => {
  const track = aGeneration({
    id: 't-9',
    title: '  Night Drive ',
    tags: 'synthwave, retro',
    lyrics: '  Verse one\nVerse two  ',
    duration: 125.4,
    type: 'audio-to-music',
    // Late in the evening of the 14th west of UTC: a document, written on the server, says the UTC day.
    createdAt: '2026-03-15T03:30:00.000Z',
  });

  it('replaces every token with the track’s value as the track page writes it', () => {
    const html = renderSharePage(TRACK_TEMPLATE, track, site);
    for (const token of Object.values(TRACK_FRAME_TOKENS)) expect(html).not.toContain(token);
    expect(html).toContain('<h1 id="track-title">Night Drive</h1>');
    expect(html).toContain('aria-label="Play Night Drive"');
    expect(html).toContain('aria-valuetext="0:00 of 2:05"');
    expect(html).toContain('<span>2:05</span>');
    expect(html).toContain('<dd>synthwave, retro</dd>');
    expect(html).toContain('<dd>125 seconds</dd>');
    expect(html).toContain('<dd>Audio to Music</dd>');
    expect(html).toContain('<dd>Mar 15, 2026</dd>');
    expect(html).toContain('<p>Verse one\nVerse two</p>');
    expect(html).toContain('data-id="t-9"');
    // The head is the track's, as from the shell: one title, the preview tags, the app's code.
    expect(html.match(/<title>/g)).toHaveLength(1);
    expect(html).toContain('<title>Night Drive | Tunesmith</title>');
    expect(metaContent(html, 'og:title')).toBe('Night Drive');
    expect(html).toContain('data-app=""');
    expect(html).toContain('<div id="root" data-prerendered="replace">');
  });

  it('writes what the page writes for a track without a title, tags, lyrics or duration', () => {
    const bare = aGeneration({ title: null, tags: '', lyrics: '   ', duration: null, type: 'text-to-music' });
    const html = fillTrackFrame(TRACK_TEMPLATE, bare);
    expect(html).toContain('<h1 id="track-title">Untitled Track</h1>');
    expect(html).toContain('<dd>—</dd><dd>—</dd><dd>Text to Music</dd>');
    expect(html).toContain('<p>Instrumental: this track has no lyrics.</p>');
    expect(html).toContain('<span>0:00</span>');
  });

  it('escapes what users typed in text and in attributes', () => {
    const title = `"<script>alert('x')</script> & co`;
    const html = renderSharePage(
      TRACK_TEMPLATE,
      aGeneration({ title, tags: `rock"><img src=x>`, lyrics: `</p><script>x()</script>` }),
      site,
    );
    expect(html).not.toContain('<script>');
    expect(html).not.toContain('<img');
    expect(html).not.toContain('</p><script>');
    expect(html).toContain(`<h1 id="track-title">${escapeHtml(title)}</h1>`);
    expect(html).toContain(
      `aria-label="Play &quot;&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; co"`,
    );
    expect(html).toContain('<dd>rock&quot;&gt;&lt;img src=x&gt;</dd>');
  });

  it('shows a value that reads like a token as typed, never replaced again', () => {
    const html = renderSharePage(
      TRACK_TEMPLATE,
      aGeneration({ title: '%%TRACK_TAGS%% %%TRACK_ID%%', tags: '%%TRACK_LYRICS%%', lyrics: 'la la' }),
      site,
    );
    expect(html).toContain('<h1 id="track-title">%%TRACK_TAGS%% %%TRACK_ID%%</h1>');
    expect(html).toContain('<dd>%%TRACK_LYRICS%%</dd>');
    expect(html).toContain('<p>la la</p>');
    expect(metaContent(html, 'og:title')).toBe('%%TRACK_TAGS%% %%TRACK_ID%%');
  });

  it('leaves a shell without tokens as it is (a site deployed before the template)', () => {
    expect(fillTrackFrame(SHELL_TEMPLATE, track)).toBe(SHELL_TEMPLATE);
  });
});

describe('keeping a track’s document in line with the track', () => {
  it('writes the document of a shareable track and rewrites it after a rename', async () => {
    const generations = inMemoryGenerationStore([
      aGeneration({ id: 't-1', title: 'First', audioUrl: 's3://t/1.wav' }),
    ]);
    const pages = inMemorySharePages();
    const deps = shareDeps(generations, pages);

    expect(await refreshSharePage(deps, 't-1')).toBe('published');
    expect(metaContent(pages.documents.get('t-1') ?? '', 'og:title')).toBe('First');

    await generations.update('t-1', (g) => ({ ...g, title: 'Second' }));
    await refreshSharePage(deps, 't-1');
    expect(metaContent(pages.documents.get('t-1') ?? '', 'og:title')).toBe('Second');
  });

  it('removes the document of a track made private, deleted, or unknown', async () => {
    const generations = inMemoryGenerationStore([
      aGeneration({ id: 't-1', audioUrl: 's3://t/1.wav' }),
      aGeneration({ id: 't-2', audioUrl: 's3://t/2.wav' }),
    ]);
    const pages = inMemorySharePages();
    const deps = shareDeps(generations, pages);
    await refreshSharePage(deps, 't-1');
    await refreshSharePage(deps, 't-2');

    await generations.update('t-1', (g) => ({ ...g, visibility: 'private' }));
    expect(await refreshSharePage(deps, 't-1')).toBe('removed');
    await generations.delete('t-2', 'user-1');
    expect(await refreshSharePage(deps, 't-2')).toBe('removed');
    expect(await refreshSharePage(deps, 'nobody')).toBe('removed');
    expect([...pages.documents.keys()]).toEqual([]);
  });

  it('a track made private while its document was being written loses it again', async () => {
    const inner = inMemoryGenerationStore([aGeneration({ id: 't-1', audioUrl: 's3://t/1.wav' })]);
    const pages = inMemorySharePages();
    // The owner makes it private between the refresh's read and its write.
    let reads = 0;
    const generations: Pick<GenerationStore, 'get'> = {
      get: async (id) => {
        const g = await inner.get(id);
        reads += 1;
        if (reads === 1) await inner.update(id, (c) => ({ ...c, visibility: 'private' }));
        return g;
      },
    };
    expect(await refreshSharePage(shareDeps(generations, pages), 't-1')).toBe('removed');
    expect(pages.documents.has('t-1')).toBe(false);
  });

  it('a track renamed while its document was being written gets the new title', async () => {
    const inner = inMemoryGenerationStore([
      aGeneration({ id: 't-1', title: 'Old', audioUrl: 's3://t/1.wav' }),
    ]);
    const pages = inMemorySharePages();
    let reads = 0;
    const generations: Pick<GenerationStore, 'get'> = {
      get: async (id) => {
        const g = await inner.get(id);
        reads += 1;
        if (reads === 1) await inner.update(id, (c) => ({ ...c, title: 'New' }));
        return g;
      },
    };
    expect(await refreshSharePage(shareDeps(generations, pages), 't-1')).toBe('published');
    expect(metaContent(pages.documents.get('t-1') ?? '', 'og:title')).toBe('New');
  });

  it('a removal that fails fails the withdrawal, so the change that needed it does not happen', async () => {
    const pages = inMemorySharePages({ failRemove: () => true });
    await expect(withdrawSharePage({ pages }, 't-1')).rejects.toThrow('site bucket unavailable');
  });
});

describe('rewriting every share document', () => {
  it('writes every shareable track from the current template and site name, page by page, and skips the rest', async () => {
    const tracks = [
      aGeneration({ id: 'a', title: 'A', audioUrl: 's3://t/a.wav' }),
      aGeneration({ id: 'b', title: 'B', audioUrl: 's3://t/b.wav' }),
      aGeneration({ id: 'c', status: 'generating', audioUrl: null }),
      aGeneration({ id: 'd', title: 'D', audioUrl: 's3://t/d.wav' }),
    ];
    const generations = inMemoryGenerationStore(tracks);
    const pages = inMemorySharePages();
    pages.documents.set('a', 'old shell');
    const template = SHELL_TEMPLATE.replace('index-abc.js', 'index-new.js');
    const deps = shareDeps(generations, pages, { template, name: 'Renamed Site' });
    const pageOf = async (cursor?: string) =>
      cursor ? { items: tracks.slice(2) } : { items: tracks.slice(0, 2), cursor: 'next' };

    expect(await rewriteAllSharePages(deps, pageOf)).toEqual({ written: 3 });
    expect([...pages.documents.keys()].sort()).toEqual(['a', 'b', 'd']);
    for (const html of pages.documents.values()) {
      expect(html).toContain('index-new.js');
      expect(metaContent(html, 'og:site_name')).toBe('Renamed Site');
    }
  });

  it('does not publish a listed track that was made private since it was listed', async () => {
    const listed = aGeneration({ id: 'a', audioUrl: 's3://t/a.wav' });
    const generations = inMemoryGenerationStore([{ ...listed, visibility: 'private' }]);
    const pages = inMemorySharePages();
    expect(
      await rewriteAllSharePages(shareDeps(generations, pages), async () => ({ items: [listed] })),
    ).toEqual({
      written: 0,
    });
    expect(pages.documents.size).toBe(0);
  });
});

describe('the share-pages job', () => {
  it('reads finished public tracks from the directory a page at a time and rewrites their documents', async () => {
    const tracks = Array.from({ length: 150 }, (_, i) =>
      aGeneration({ id: `t${i}`, audioUrl: `s3://t/${i}.wav` }),
    );
    const generations = inMemoryGenerationStore(tracks);
    const pages = inMemorySharePages();
    const asked: unknown[] = [];
    const directory = {
      list: async (
        filter: { status: 'completed'; visibility: 'public' },
        page: { limit: number; cursor?: string },
      ) => {
        asked.push({ filter, page });
        const from = Number(page.cursor ?? 0);
        const next = from + page.limit;
        return { items: tracks.slice(from, next), ...(next < tracks.length ? { cursor: String(next) } : {}) };
      },
    };
    expect(await rewriteAllFromDirectory(shareDeps(generations, pages), directory)).toEqual({ written: 150 });
    expect(asked).toEqual([
      { filter: { status: 'completed', visibility: 'public' }, page: { limit: 100 } },
      { filter: { status: 'completed', visibility: 'public' }, page: { limit: 100, cursor: '100' } },
    ]);
  });

  it('starts on the track frame template only', () => {
    expect(isShareTemplateKey('pages/track.html')).toBe(true);
    expect(isShareTemplateKey('pages%2Ftrack.html')).toBe(true);
    expect(isShareTemplateKey('index.html')).toBe(false);
    expect(isShareTemplateKey('pages/home.html')).toBe(false);
    expect(isShareTemplateKey('share/track/pages/track.html')).toBe(false);
    expect(isShareTemplateKey('assets/index-abc.js')).toBe(false);
  });
});
