import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/**
 * public/boot.js, the prerendered pages' loader, run against a stand-in
 * document and task queue: its dynamic imports (the only `import(` in it) go
 * to `load`, so the test sees which module it runs, in which order and in
 * which task.
 */
const source = readFileSync(new URL('../public/boot.js', import.meta.url), 'utf8');
if ((source.match(/import\(/g) ?? []).length !== 2) throw new Error('boot.js changed: update this test');

const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

/** `hrefs`: the app's module first, then the hinted chunks; `steps`: the app's link's data-steps. */
function runBoot(
  hrefs: string[],
  load: (href: string) => Promise<unknown>,
  steps = '',
  sheets: { rel: string }[] = [],
  pageChunks = '',
) {
  const loads: string[] = [];
  /** The links the loader adds to the head, as it set them. */
  const added: Record<string, string>[] = [];
  const tasks: { run: () => void; delay: number }[] = [];
  let painted: (() => void) | undefined;
  const links = hrefs.map((href, i) => ({
    href,
    getAttribute: (name: string) =>
      i === 0 && name === 'data-steps' ? steps : i === 0 && name === 'data-page' ? pageChunks : null,
  }));
  const document = {
    createElement: (tag: string) => ({ tag }),
    head: { append: (link: Record<string, string>) => added.push(link) },
    querySelector: (selector: string) => (selector === 'link[data-app]' ? links[0] : null),
    querySelectorAll: (selector: string) => {
      if (selector === 'link[data-stylesheet]') return sheets;
      expect(selector).toBe('link[rel="modulepreload"]:not([data-app])');
      return links.slice(1);
    },
  };
  class PerformanceObserver {
    constructor(private readonly callback: (list: { getEntriesByName(n: string): unknown[] }) => void) {}
    observe() {
      painted = () =>
        this.callback({ getEntriesByName: (n) => (n === 'first-contentful-paint' ? [{}] : []) });
    }
  }
  new Function(
    'document',
    'PerformanceObserver',
    'requestAnimationFrame',
    'setTimeout',
    '__load',
    source.replaceAll('import(', '__load('),
  )(
    document,
    PerformanceObserver,
    () => undefined,
    (run: () => void, delay = 0) => tasks.push({ run, delay }),
    (href: string) => {
      loads.push(href);
      return load(href);
    },
  );
  /** Runs the next task due now (not the late fallback), and what it leaves for the microtask queue. */
  const nextTask = async () => {
    const i = tasks.findIndex((t) => t.delay === 0);
    if (i < 0) return false;
    const [task] = tasks.splice(i, 1);
    task?.run();
    await settle();
    return true;
  };
  const lateTask = async () => {
    const i = tasks.findIndex((t) => t.delay > 0);
    const [task] = tasks.splice(i, 1);
    task?.run();
    await settle();
  };
  return { loads, added, paint: () => painted?.(), nextTask, lateTask };
}

describe('boot.js', () => {
  it("runs nothing before the first paint, then each step and hinted chunk in a task of its own, the app's last", async () => {
    const page = runBoot(['/app.js', '/runtime.js', '/cn.js'], async () => ({}), '/libraries.js');
    expect(await page.nextTask()).toBe(false);
    expect(page.loads).toEqual([]);

    page.paint();
    expect(page.loads).toEqual([]);
    await page.nextTask();
    expect(page.loads).toEqual(['/libraries.js']);
    // Each next module waits for a task of its own.
    await page.nextTask();
    expect(page.loads).toEqual(['/libraries.js', '/runtime.js']);
    await page.nextTask();
    expect(page.loads).toEqual(['/libraries.js', '/runtime.js', '/cn.js']);
    await page.nextTask();
    expect(page.loads).toEqual(['/libraries.js', '/runtime.js', '/cn.js', '/app.js']);
    while (await page.nextTask());
    await page.lateTask();
    expect(page.loads).toEqual(['/libraries.js', '/runtime.js', '/cn.js', '/app.js']);
  });

  it("hints the page's own chunks a few per task once the first step is asked for, all before the app runs", async () => {
    const chunks = ['/a.js', '/b.js', '/c.js', '/d.js', '/e.js', '/f.js'];
    const page = runBoot(['/app.js'], async () => ({}), '/libraries.js', [], chunks.join(' '));
    page.paint();
    await page.nextTask();
    expect(page.loads).toEqual(['/libraries.js']);
    expect(page.added).toEqual([]);
    const counts = [page.added.length];
    let hintedWhenAppRan = -1;
    while (await page.nextTask()) {
      counts.push(page.added.length);
      if (hintedWhenAppRan < 0 && page.loads.includes('/app.js')) hintedWhenAppRan = page.added.length;
    }
    // At most four links a task, every one before the app's module, none imported.
    expect(counts.every((count, i) => i === 0 || count - (counts[i - 1] ?? 0) <= 4)).toBe(true);
    expect(hintedWhenAppRan).toBe(chunks.length);
    expect(page.added).toEqual(
      chunks.map((href) => ({
        tag: 'link',
        rel: 'modulepreload',
        fetchPriority: 'low',
        crossOrigin: '',
        href,
      })),
    );
    expect(page.loads).toEqual(['/libraries.js', '/app.js']);
  });

  it("still runs the app's module when a chunk before it fails to load", async () => {
    const page = runBoot(
      ['/app.js', '/cn.js'],
      async (href) => {
        if (href === '/libraries.js') throw new TypeError('Failed to fetch dynamically imported module');
        return {};
      },
      '/libraries.js',
    );
    page.paint();
    while (await page.nextTask());
    expect(page.loads).toEqual(['/libraries.js', '/cn.js', '/app.js']);
  });

  it('applies the preloaded stylesheet at once, before the first paint and any code', async () => {
    const sheet = { rel: 'preload' };
    const page = runBoot(['/app.js'], async () => ({}), '', [sheet]);
    expect(sheet.rel).toBe('stylesheet');
    expect(page.loads).toEqual([]);
  });

  it('starts a page that never reports a paint (a background tab) after a while', async () => {
    const page = runBoot(['/app.js'], async () => ({}));
    while (await page.nextTask());
    expect(page.loads).toEqual([]);
    await page.lateTask();
    while (await page.nextTask());
    expect(page.loads).toEqual(['/app.js']);
  });
});
