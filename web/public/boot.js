// The prerendered pages' loader (web/build/prerender.ts): the page is already
// on screen, so the app's code, fetched meanwhile at low priority, runs once
// the browser has painted it.
const app = document.querySelector('link[data-app]');
if (app) requestAnimationFrame(() => setTimeout(() => import(app.href)));
