import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createServer, type Plugin, type Rollup } from 'vite';
// Relative, so Vite bundles it into the config (a workspace package is loaded by Node, which runs no .ts).
import {
  PRERENDERED_AREA,
  PRERENDERED_PAGES,
  PRICING_PLANS_SLOT,
  REPLACED_FRAME_MARKER,
  TRACK_FRAME_TEMPLATE,
  TRACK_FRAME_TOKENS,
} from '../../shared/src/pages.ts';
import type { TrackFrame } from '../src/prerender/entry.tsx';

/**
 * Puts a page's prerendered frame into the built shell: the frame's `<title>`
 * in place of the shell's, the rest in `#root`; the app hydrates it. A style
 * attribute (a library's `outline: none`, say) is kept as `data-frame-style`
 * (from when the site's policy refused inline styles; it allows them since
 * decision 029, and the frame paints the same either way), and its
 * form controls and buttons are disabled (`data-frame-disabled`) until the
 * app has taken the frame over: then `releaseFrame` (src/app/frame.ts) sets
 * those styles through the CSSOM and enables those controls.
 * A part of the page that waits for data is in the frame as its loading
 * state, marked (a `<template data-dgst>`) for the app to render afresh.
 * A frame that needs a script to show (a streamed boundary) is refused.
 * `#root` is marked `data-prerendered=""`, or with `marker` (`replace` for a
 * track's frame, whose content is not the app's first render). `steps` are
 * the chunks the app starts with (the libraries' chunk, whose last module,
 * src/start-react.ts, runs React's own code): not hinted, so nothing but the
 * frame is fetched before it paints, they are named in the app's link's
 * `data-steps`, and /boot.js runs each in a task of its own before the app's.
 * `pageChunks` are the page's own code (pageChunks below), named in the
 * app's link's `data-page`: /boot.js hints them once the frame is on screen,
 * so they arrive beside the app's code and the app, rendering the page, finds
 * them hinted.
 */
export function framePage(
  shell: string,
  frame: string,
  marker = '',
  steps: readonly string[] = [],
  pageChunks: readonly string[] = [],
): string {
  const title = /^<title>[^<]*<\/title>/.exec(frame);
  const body = (title ? frame.slice(title[0].length) : frame)
    .replace(/ style="([^"]*)"/g, ' data-frame-style="$1"')
    // Its controls wait for the app: nothing is typed, chosen or sent before the app can handle it.
    .replace(
      /<(input|textarea|select|button)(?=[\s>])(?![^>]*\sdisabled="")/g,
      '<$1 disabled="" data-frame-disabled=""',
    );
  if (!body.startsWith('<')) throw new Error('the frame does not start with an element');
  // A part left to the app is marked by a digest only: no message or stack (they name build paths).
  const marked = body.replace(
    /<template data-dgst="([^"]*)"[^>]*><\/template>/g,
    '<template data-dgst="$1"></template>',
  );
  if (/<script|<template(?! data-dgst="[^"]*"><\/template>)/i.test(marked))
    throw new Error('the frame holds a script or a template');
  const root = '<div id="root"></div>';
  if (!shell.includes(root)) throw new Error(`the shell has no ${root}`);
  let page = shell.replace(root, () => `<div id="root" data-prerendered="${marker}">${marked}</div>`);
  if (title) page = page.replace(/<title>[^<]*<\/title>/, () => title[0]);
  // The frame is the first paint: the stylesheet comes first; the app's code is fetched meanwhile, at
  // low priority, and runs once the frame is on screen (public/boot.js).
  const app = /<script type="module" crossorigin src="([^"]+)"><\/script>/.exec(page);
  if (!app) throw new Error("the shell has no module script for the app's entry");
  for (const step of steps)
    page = page.replace(`\n    <link rel="modulepreload" crossorigin href="${step}">`, '');
  page = page
    .replace(
      app[0],
      () =>
        `<link rel="modulepreload" fetchpriority="low" crossorigin href="${app[1]}" data-app=""${steps.length ? ` data-steps="${steps.join(' ')}"` : ''}${pageChunks.length ? ` data-page="${pageChunks.join(' ')}"` : ''}>\n    <script type="module" fetchpriority="low" src="/boot.js"></script>`,
    )
    .replace(
      /<link rel="modulepreload" crossorigin/g,
      '<link rel="modulepreload" fetchpriority="low" crossorigin',
    );
  return page;
}

/**
 * The parts a prerendered page loads on demand as it first renders, beside their data (by
 * the page's name, modules under src/): the pricing page's plans, a track's waveform. Their
 * chunks are the page's too (pageChunks).
 */
export const PAGE_PARTS: Readonly<Record<string, readonly string[]>> = {
  pricing: ['features/pricing/components/pricing-plans.tsx'],
  track: ['components/waveform/waveform-seek.tsx'],
};

/**
 * The chunks the page in `src/app/routes/{name}.tsx` loads when the app first renders it:
 * its own chunk, its PAGE_PARTS' and what they import, less what the app's entry imports
 * (the shell hints those). Refuses a page or part with no chunk: it moved under the build.
 */
export function pageChunks(bundle: Rollup.OutputBundle, name: string, base: string): string[] {
  const chunks = new Map(
    Object.values(bundle).flatMap((output) => (output.type === 'chunk' ? [[output.fileName, output]] : [])),
  );
  const withImports = (fileName: string, into = new Set<string>()): Set<string> => {
    if (into.has(fileName)) return into;
    into.add(fileName);
    for (const imported of chunks.get(fileName)?.imports ?? []) withImports(imported, into);
    return into;
  };
  const shell = new Set<string>();
  for (const chunk of chunks.values()) if (chunk.isEntry) withImports(chunk.fileName, shell);
  const page = new Set<string>();
  for (const module of [`app/routes/${name}.tsx`, ...(PAGE_PARTS[name] ?? [])]) {
    const chunk = [...chunks.values()].find((c) =>
      c.facadeModuleId?.replaceAll('\\', '/').endsWith(`/src/${module}`),
    );
    if (!chunk) throw new Error(`the bundle has no chunk for the ${name} page's src/${module}`);
    withImports(chunk.fileName, page);
  }
  return [...page].filter((file) => !shell.has(file)).map((file) => `${base}${file}`);
}

/**
 * A frame's critical CSS: the rules its elements use, inlined (beasties), and the whole
 * stylesheet no longer blocking the first paint: it is preloaded (`data-stylesheet`) and
 * /boot.js applies it before the app starts, so what the app draws later finds its rules
 * (a browser without scripts reads it from `<noscript>`, with a rule that hides the loading
 * states of the parts left to the app: without scripts they would never end).
 */
/** Without scripts, a part that waits for data (`aria-busy`) never gets it: its loading state is not shown. */
const NO_SCRIPT_STYLE = '<style>[aria-busy="true"]{display:none}</style>';

export async function withCriticalCss(page: string, outDir: string, base: string): Promise<string> {
  // Loaded here: the dev server loads this config too, and never inlines CSS.
  const { default: Beasties } = await import('beasties');
  const beasties = new Beasties({
    path: outDir,
    publicPath: base,
    pruneSource: false,
    inlineFonts: false,
    reduceInlineStyles: false,
    mergeStylesheets: true,
    logLevel: 'silent',
  });
  // Beasties hints the stylesheet and keeps its blocking link; the link becomes the hint here.
  const inlined = (await beasties.process(page)).replace(
    /<link rel="preload" crossorigin href="[^"]+" as="style">/g,
    '',
  );
  const sheet = /<link rel="stylesheet" crossorigin href="([^"]+)">/;
  const href = sheet.exec(inlined)?.[1];
  if (!href || !/<style>[\s\S]+?<\/style>/.test(inlined))
    throw new Error("the frame's critical CSS was not inlined");
  // Beasties moves the link to the end of the body; the hint goes back into the head, to be fetched at once.
  return inlined
    .replace(sheet, '')
    .replace(
      '</head>',
      () =>
        `  <link rel="preload" as="style" crossorigin href="${href}" data-stylesheet="">\n` +
        `    <noscript>${NO_SCRIPT_STYLE}<link rel="stylesheet" crossorigin href="${href}"></noscript>\n  </head>`,
    );
}

/**
 * The pricing page with an empty slot for its plans (`PRICING_PLANS_SLOT`, decision 038) at the
 * start of the part its frame leaves to the app (their loading state): the server fills the slot
 * with the active plans for a browser without scripts, and the app, rendering that part afresh,
 * drops it. Refuses a page without exactly one such part.
 */
export function withPlansSlot(page: string): string {
  const parts = page.match(/<template data-dgst="[^"]*"><\/template>/g) ?? [];
  if (parts.length !== 1)
    throw new Error(`the pricing frame leaves ${parts.length} parts to the app, not the plans alone`);
  return page.replace(
    /<template data-dgst="[^"]*"><\/template>/,
    (part) => `${part}${PRICING_PLANS_SLOT}</noscript>`,
  );
}

/** The chunk (vite.config.ts) of the libraries every page starts with, src/start-react.ts last. */
export const START_STEP = 'libraries';

/** How many times `text` occurs in `html`. */
const count = (html: string, text: string) => html.split(text).length - 1;

/**
 * The track frame template's frame (decision 026): the track page rendered
 * from the stand-in (web/src/prerender/entry.tsx `renderTrackFrame`), with
 * what the page formats from the stand-in's values turned into tokens (the
 * share document fills them with the same formatters, shared/src/track-text.ts;
 * the creation date in UTC), and the stand-in's audio link and the seek bar's
 * maximum left out. Refuses a frame that lacks the title's token or still
 * holds a stand-in's value: the page changed under the template.
 */
export function trackTemplate(track: TrackFrame): string {
  const { frame, formatted, created, audio, seekMax } = track;
  for (const [what, text] of [
    ['duration', formatted.duration],
    ['time', formatted.time],
    ['creation date', `>${created}<`],
    ['audio link', ` src="${audio}"`],
    ['seek bar maximum', ` max="${seekMax}"`],
  ] as const) {
    if (!count(frame, text)) throw new Error(`the track frame does not show the stand-in's ${what}`);
  }
  const template = frame
    .replaceAll(formatted.duration, TRACK_FRAME_TOKENS.duration)
    .replaceAll(formatted.time, TRACK_FRAME_TOKENS.time)
    .replaceAll(`>${created}<`, `>${TRACK_FRAME_TOKENS.created}<`)
    .replaceAll(` src="${audio}"`, '')
    .replaceAll(` max="${seekMax}"`, '');
  if (!template.includes(`>${TRACK_FRAME_TOKENS.title}</h1>`))
    throw new Error("the track frame's heading is not the title's token");
  for (const stale of [audio, seekMax, created])
    if (template.includes(stale)) throw new Error(`the track frame still holds the stand-in's ${stale}`);
  return template;
}

/**
 * The Vite plugin: once the bundle is written, renders each visitor page's
 * first frame (web/src/prerender/entry.tsx, through Vite's SSR loader) into
 * `dist/pages/{name}.html` beside the shell, and the track page's template
 * (`dist/pages/track.html`, decision 026). Runs before the precompression.
 */
export function prerenderPlugin(): Plugin {
  let root = '';
  let outDir = '';
  let configFile: string | undefined;
  let base = '/';
  const steps: string[] = [];
  // Each prerendered page's own chunks (pageChunks), by the page's name.
  const chunksOf = new Map<string, string[]>();
  const TRACK_PAGE = 'track';
  return {
    name: 'tunesmith-prerender',
    apply: 'build',
    configResolved(config) {
      root = config.root;
      outDir = resolve(config.root, config.build.outDir);
      configFile = config.configFile;
      base = config.base;
    },
    generateBundle(_options, bundle) {
      steps.length = 0;
      for (const chunk of Object.values(bundle))
        if (chunk.type === 'chunk' && chunk.name === START_STEP) steps.push(`${base}${chunk.fileName}`);
      if (steps.length === 0) throw new Error(`the bundle has no ${START_STEP} chunk (vite.config.ts)`);
      chunksOf.clear();
      for (const name of [...Object.values(PRERENDERED_PAGES), TRACK_PAGE])
        chunksOf.set(name, pageChunks(bundle, name, base));
    },
    closeBundle: {
      order: 'post',
      sequential: true,
      async handler() {
        const server = await createServer({
          root,
          configFile,
          logLevel: 'error',
          appType: 'custom',
          server: { middlewareMode: true, hmr: false, ws: false },
        });
        try {
          const { renderFrame, renderTrackFrame } = (await server.ssrLoadModule(
            '/src/prerender/entry.tsx',
          )) as {
            renderFrame: (pathname: string) => Promise<string>;
            renderTrackFrame: () => Promise<TrackFrame>;
          };
          const shell = readFileSync(join(outDir, 'index.html'), 'utf8');
          mkdirSync(join(outDir, PRERENDERED_AREA), { recursive: true });
          for (const [pathname, name] of Object.entries(PRERENDERED_PAGES)) {
            const page = await withCriticalCss(
              framePage(shell, await renderFrame(pathname), '', steps, chunksOf.get(name)),
              outDir,
              base,
            );
            writeFileSync(
              join(outDir, PRERENDERED_AREA, `${name}.html`),
              name === PRERENDERED_PAGES['/pricing'] ? withPlansSlot(page) : page,
            );
          }
          const track = await withCriticalCss(
            framePage(
              shell,
              trackTemplate(await renderTrackFrame()),
              REPLACED_FRAME_MARKER,
              steps,
              chunksOf.get(TRACK_PAGE),
            ),
            outDir,
            base,
          );
          writeFileSync(join(outDir, TRACK_FRAME_TEMPLATE), track);
        } finally {
          await server.close();
        }
      },
    },
  };
}
