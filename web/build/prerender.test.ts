import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Rollup } from 'vite';
import { describe, expect, it } from 'vitest';
import { REPLACED_FRAME_MARKER } from '../../shared/src/pages';
import type { TrackFrame } from '../src/prerender/entry';
import { framePage, pageChunks, trackTemplate, withCriticalCss, withPlansSlot } from './prerender';

const shell = `<!doctype html>
<html lang="en">
  <head>
    <title>Tunesmith: Create Music with AI</title>
    <script type="module" crossorigin src="/assets/index-abc.js"></script>
    <link rel="modulepreload" crossorigin href="/assets/jsx-runtime-def.js">
    <link rel="stylesheet" crossorigin href="/assets/index-123.css">
  </head>
  <body>
    <div id="root"></div>
  </body>
</html>`;

describe('framePage', () => {
  it("puts the frame in #root, marked, and its title in the head's place", () => {
    const page = framePage(shell, '<title>Pricing | Tunesmith</title><main><h1>Choose Your Plan</h1></main>');
    expect(page).toContain('<div id="root" data-prerendered=""><main><h1>Choose Your Plan</h1></main></div>');
    expect(page).toContain('<title>Pricing | Tunesmith</title>');
    expect(page).not.toContain('Create Music with AI');
  });

  it("fetches the app's code at low priority and runs it through the loader, the stylesheet untouched", () => {
    const page = framePage(shell, '<main></main>');
    expect(page).toContain(
      '<link rel="modulepreload" fetchpriority="low" crossorigin href="/assets/index-abc.js" data-app="">',
    );
    expect(page).toContain('<script type="module" fetchpriority="low" src="/boot.js"></script>');
    expect(page).toContain(
      '<link rel="modulepreload" fetchpriority="low" crossorigin href="/assets/jsx-runtime-def.js">',
    );
    expect(page).toContain('<link rel="stylesheet" crossorigin href="/assets/index-123.css">');
    expect(page).not.toContain('src="/assets/index-abc.js"');
  });

  it("names the app's first steps on its link, unhinted, so nothing but the frame is fetched before it paints", () => {
    const withLibraries = shell.replace(
      '<link rel="modulepreload" crossorigin href="/assets/jsx-runtime-def.js">',
      '<link rel="modulepreload" crossorigin href="/assets/libraries-xyz.js">\n    <link rel="modulepreload" crossorigin href="/assets/jsx-runtime-def.js">',
    );
    const page = framePage(withLibraries, '<main></main>', '', ['/assets/libraries-xyz.js']);
    expect(page).toContain(
      '<link rel="modulepreload" fetchpriority="low" crossorigin href="/assets/index-abc.js" data-app="" data-steps="/assets/libraries-xyz.js">',
    );
    expect(page).not.toContain('href="/assets/libraries-xyz.js"');
    expect(page).toContain(
      '<link rel="modulepreload" fetchpriority="low" crossorigin href="/assets/jsx-runtime-def.js">',
    );
  });

  it('keeps style attributes, which the CSP refuses, as data, and disables controls until the app takes over', () => {
    const page = framePage(
      shell,
      '<form><div style="outline:none"><input id="email" type="email"/><textarea name="t"></textarea><button type="submit" disabled="">Go</button><select><option>a</option></select></div></form><a href="/pricing">Pricing</a>',
    );
    expect(page).not.toMatch(/\sstyle=/);
    expect(page).toContain('<div data-frame-style="outline:none">');
    expect(page).toContain('<input disabled="" data-frame-disabled="" id="email" type="email"/>');
    expect(page).toContain('<textarea disabled="" data-frame-disabled="" name="t">');
    // A control the page itself disables stays as it is: the app keeps it disabled.
    expect(page).toContain('<button type="submit" disabled="">Go</button>');
    expect(page).toContain('<select disabled="" data-frame-disabled="">');
    expect(page).toContain('<a href="/pricing">Pricing</a>');
  });

  it('keeps the marker of a part left to the app, without its message or stack', () => {
    const page = framePage(
      shell,
      '<main><!--$!--><template data-dgst="frame" data-msg="waits" data-stck="at /work/x.ts:1"></template><p aria-busy="true">Loading</p><!--/$--></main>',
    );
    expect(page).toContain(
      '<!--$!--><template data-dgst="frame"></template><p aria-busy="true">Loading</p><!--/$-->',
    );
    expect(page).not.toContain('/work/x.ts');
  });

  it("names the page's own chunks on the app's link, for /boot.js to hint", () => {
    const page = framePage(
      shell,
      '<main></main>',
      '',
      ['/assets/lib.js'],
      ['/assets/track-1.js', '/assets/player-2.js'],
    );
    expect(page).toContain(
      '<link rel="modulepreload" fetchpriority="low" crossorigin href="/assets/index-abc.js" data-app="" data-steps="/assets/lib.js" data-page="/assets/track-1.js /assets/player-2.js">',
    );
    expect(page).not.toContain('href="/assets/track-1.js"');
    expect(framePage(shell, '<main></main>')).not.toContain('data-page');
  });

  it('refuses a frame that would need a script to show', () => {
    expect(() =>
      framePage(shell, '<main><template id="B:0"></template></main><script>$RC()</script>'),
    ).toThrow(/script or a template/);
  });
});

describe('the track frame template', () => {
  /** A track page as entry.tsx renders it from the stand-in (its shape, shortened). */
  const rendered = (parts: Partial<Record<'title' | 'created' | 'audio' | 'max', string>> = {}) =>
    [
      '<title>%%TRACK_TITLE%% | Tunesmith</title><main>',
      `<h1 id="track-title" class="text-3xl">${parts.title ?? '%%TRACK_TITLE%%'}</h1>`,
      `<audio src="${parts.audio ?? '%%TRACK_AUDIO%%'}" preload="metadata"></audio>`,
      `<input type="range" min="0" max="${parts.max ?? '5999'}" aria-valuetext="0:00 of 99:59" value="0"/>`,
      '<span>0:00</span><span>99:59</span>',
      '<dd>%%TRACK_TAGS%%</dd><dd>5999 seconds</dd><dd>%%TRACK_TYPE%%</dd>',
      `<dd class="mt-1">${parts.created ?? 'Feb 3, 2001'}</dd>`,
      '<p>%%TRACK_LYRICS%%</p></main>',
    ].join('');
  const frameOf = (frame: string): TrackFrame => ({
    frame,
    formatted: { duration: '5999 seconds', time: '99:59' },
    created: 'Feb 3, 2001',
    audio: '%%TRACK_AUDIO%%',
    seekMax: '5999',
  });

  it('turns what the page formats into tokens, the date too, and drops the link and the maximum', () => {
    const template = trackTemplate(frameOf(rendered()));
    expect(template).toContain('<h1 id="track-title" class="text-3xl">%%TRACK_TITLE%%</h1>');
    expect(template).toContain('aria-valuetext="0:00 of %%TRACK_TIME%%"');
    expect(template).toContain('<span>0:00</span><span>%%TRACK_TIME%%</span>');
    expect(template).toContain('<dd>%%TRACK_TAGS%%</dd><dd>%%TRACK_DURATION%%</dd><dd>%%TRACK_TYPE%%</dd>');
    expect(template).toContain('<dd class="mt-1">%%TRACK_CREATED%%</dd>');
    expect(template).toContain('<audio preload="metadata"></audio>');
    expect(template).toContain('<input type="range" min="0" aria-valuetext');
    for (const stale of ['5999', '99:59', 'Feb 3, 2001', '%%TRACK_AUDIO%%'])
      expect(template).not.toContain(stale);
  });

  it('refuses a page that no longer shows the stand-in as the template expects', () => {
    expect(() => trackTemplate(frameOf(rendered({ title: 'Loading' })))).toThrow(/heading/);
    expect(() => trackTemplate(frameOf(rendered({ created: 'February 3' })))).toThrow(/creation date/);
    expect(() => trackTemplate(frameOf(rendered({ audio: 'https://x/a.wav' })))).toThrow(/audio link/);
  });

  it("marks the track's frame to be replaced by the app, the others as before", () => {
    const page = framePage(shell, trackTemplate(frameOf(rendered())), REPLACED_FRAME_MARKER);
    expect(page).toContain('<div id="root" data-prerendered="replace"><main>');
    expect(page).toContain('<title>%%TRACK_TITLE%% | Tunesmith</title>');
    expect(page).toContain('data-app=""');
    expect(framePage(shell, '<main></main>')).toContain('<div id="root" data-prerendered=""><main>');
  });
});

describe('pageChunks', () => {
  const chunk = (fileName: string, extra: Partial<Rollup.OutputChunk> = {}) =>
    ({
      type: 'chunk',
      fileName,
      imports: [],
      isEntry: false,
      facadeModuleId: null,
      ...extra,
    }) as Rollup.OutputChunk;
  const bundle = Object.fromEntries(
    [
      chunk('assets/index-a.js', { isEntry: true, imports: ['assets/libraries-b.js', 'assets/cn-c.js'] }),
      chunk('assets/libraries-b.js'),
      chunk('assets/cn-c.js'),
      chunk('assets/track-d.js', {
        facadeModuleId: '/app/web/src/app/routes/track.tsx',
        imports: ['assets/index-a.js', 'assets/player-e.js', 'assets/libraries-b.js'],
      }),
      chunk('assets/player-e.js', { imports: ['assets/cn-c.js', 'assets/format-f.js'] }),
      chunk('assets/format-f.js'),
      chunk('assets/lazy-g.js', { facadeModuleId: '/app/web/src/app/routes/home.tsx' }),
      chunk('assets/pricing-h.js', { facadeModuleId: '/app/web/src/app/routes/pricing.tsx' }),
      chunk('assets/plans-i.js', {
        facadeModuleId: '/app/web/src/features/pricing/components/pricing-plans.tsx',
        imports: ['assets/format-f.js', 'assets/cn-c.js'],
      }),
    ].map((c) => [c.fileName, c]),
  ) as Rollup.OutputBundle;

  it("is the page's chunk and what it imports, less what the app's entry already brings", () => {
    const withWaveform = {
      ...bundle,
      'assets/wave-j.js': chunk('assets/wave-j.js', {
        facadeModuleId: '/app/web/src/components/waveform/waveform-seek.tsx',
      }),
    } as Rollup.OutputBundle;
    expect(pageChunks(withWaveform, 'track', '/')).toEqual([
      '/assets/track-d.js',
      '/assets/player-e.js',
      '/assets/format-f.js',
      '/assets/wave-j.js',
    ]);
    expect(pageChunks(bundle, 'home', '/base/')).toEqual(['/base/assets/lazy-g.js']);
  });

  it("adds the parts the page loads as it first renders (the pricing page's plans)", () => {
    expect(pageChunks(bundle, 'pricing', '/')).toEqual([
      '/assets/pricing-h.js',
      '/assets/plans-i.js',
      '/assets/format-f.js',
    ]);
  });

  it('refuses a page or part the bundle has no chunk for', () => {
    expect(() => pageChunks(bundle, 'auth', '/')).toThrow(
      /no chunk for the auth page's src\/app\/routes\/auth.tsx/,
    );
    // The track page's waveform part is not in this bundle.
    expect(() => pageChunks(bundle, 'track', '/')).toThrow(/waveform-seek/);
  });
});

describe('withCriticalCss', () => {
  it('inlines the rules the frame uses and leaves the whole stylesheet to load without blocking the paint', async () => {
    const outDir = mkdtempSync(join(tmpdir(), 'critical-'));
    try {
      mkdirSync(join(outDir, 'assets'));
      writeFileSync(
        join(outDir, 'assets', 'index-123.css'),
        '.used{color:red}.unused-elsewhere{color:blue}@media (width>=40rem){.used{color:green}}',
      );
      const page = await withCriticalCss(framePage(shell, '<main class="used">Hi</main>'), outDir, '/');

      const inline = /<style>([\s\S]*?)<\/style>/.exec(page)?.[1] ?? '';
      expect(inline).toContain('.used{color:red}');
      expect(inline).toContain('@media (width>=40rem){.used{color:green}}');
      expect(inline).not.toContain('unused-elsewhere');
      // No blocking link: the stylesheet is fetched at once and applied by /boot.js, or read without scripts.
      expect(page).not.toMatch(/<link rel="stylesheet"[^>]*>(?![^<]*<\/noscript>)/);
      const head = page.slice(0, page.indexOf('</head>'));
      expect(head).toContain(
        '<link rel="preload" as="style" crossorigin href="/assets/index-123.css" data-stylesheet="">',
      );
      expect(head).toContain(
        '<noscript><style>[aria-busy="true"]{display:none}</style><link rel="stylesheet" crossorigin href="/assets/index-123.css"></noscript>',
      );
      expect(page.match(/index-123\.css/g)).toHaveLength(2);
    } finally {
      rmSync(outDir, { recursive: true, force: true });
    }
  });
});

describe('withPlansSlot', () => {
  const part =
    '<!--$!--><template data-dgst="tunesmith-frame-waits-for-data"></template><div aria-busy="true">';

  it('puts an empty slot for the plans at the start of the part the frame leaves to the app', () => {
    const page = withPlansSlot(`<main><h1>Choose Your Plan</h1>${part}</div><!--/$--></main>`);
    expect(page).toContain(
      '<template data-dgst="tunesmith-frame-waits-for-data"></template><noscript data-plans=""></noscript><div aria-busy="true">',
    );
  });

  it('refuses a page with no such part, or more than one', () => {
    expect(() => withPlansSlot('<main><h1>Choose Your Plan</h1></main>')).toThrow(/0 parts/);
    expect(() => withPlansSlot(`<main>${part}</div>${part}</div></main>`)).toThrow(/2 parts/);
  });
});
