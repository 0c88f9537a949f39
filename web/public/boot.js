// The prerendered pages' loader (web/build/prerender.ts): the page is already
// on screen, so the app's code, fetched meanwhile at low priority, runs once
// the browser has shown it (its first contentful paint; a page that is not
// shown, a background tab, starts it after a while all the same).
const app = document.querySelector('link[data-app]');
if (app) {
  let started = false;
  const start = () => {
    if (started) return;
    started = true;
    setTimeout(() => import(app.href));
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
