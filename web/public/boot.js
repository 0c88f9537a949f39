// The prerendered pages' loader (web/build/prerender.ts): the page is already
// on screen, so the app's code, fetched meanwhile at low priority, runs once
// the browser has shown it (its first contentful paint; a page that is not
// shown, a background tab, starts it after a while all the same). The
// app's steps (its link's data-steps: the libraries, which run React's own
// code, src/start-react.ts) run first, then the other hinted chunks, one
// module per task with a pause between, so the page answers taps and scrolls
// while they load rather than after one long task; the app's own module runs
// last, even when one of those failed to load. The page's own chunks (the
// app's link's data-page), which the app imports as it renders the page, are
// hinted meanwhile at low priority, a few links per task, all before the app's
// module runs: they arrive beside the app's code, none competes with the
// frame's paint, and the app finds them hinted rather than adding a link per
// chunk in one long task of its own.
const app = document.querySelector('link[data-app]');
// The page painted with its critical CSS inlined; the whole stylesheet, preloaded, applies now.
for (const sheet of document.querySelectorAll('link[data-stylesheet]')) sheet.rel = 'stylesheet';
if (app) {
  let started = false;
  const pause = () => new Promise((resume) => setTimeout(resume));
  const run = async () => {
    const hinted = [...document.querySelectorAll('link[rel="modulepreload"]:not([data-app])')];
    const steps = (app.getAttribute('data-steps') ?? '').split(' ').filter(Boolean);
    const hinting = hint((app.getAttribute('data-page') ?? '').split(' ').filter(Boolean));
    for (const href of [...steps, ...hinted.map((link) => link.href)]) {
      try {
        await import(href);
      } catch {
        // The app's own import loads it again, or shows why it cannot.
      }
      await pause();
    }
    await hinting;
    await import(app.href);
  };
  // Each link starts a fetch: about a millisecond of a fast machine's main thread.
  const HINTS_PER_TASK = 4;
  const hint = async (hrefs) => {
    for (let i = 0; i < hrefs.length; i += HINTS_PER_TASK) {
      await pause();
      for (const href of hrefs.slice(i, i + HINTS_PER_TASK)) {
        const link = document.createElement('link');
        link.rel = 'modulepreload';
        link.fetchPriority = 'low';
        link.crossOrigin = '';
        link.href = href;
        document.head.append(link);
      }
    }
  };
  const start = () => {
    if (started) return;
    started = true;
    setTimeout(run);
  };
  try {
    new PerformanceObserver((list) => {
      if (list.getEntriesByName('first-contentful-paint').length) start();
    }).observe({ type: 'paint', buffered: true });
  } catch {
    // No paint timing in this browser: after the next frame.
    requestAnimationFrame(start);
  }
  setTimeout(start, 3000);
}
