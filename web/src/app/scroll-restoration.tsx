import { useLayoutEffect } from 'react';
import { useLocation, useNavigationType } from 'react-router';

const STORAGE_KEY = 'tunesmith-scroll-positions';

/** Where the window was last scrolled on each history entry (saved as it scrolls), kept across reloads for the tab's life. */
const positions = new Map<string, number>(readStored());
/** The entry whose position the window shows now. */
let current: string | undefined;
/** The path of the page on screen (the same page at another query or `#hash` is no new page). */
let shownPath: string | undefined;

function readStored(): [string, number][] {
  try {
    const stored: unknown = JSON.parse(sessionStorage.getItem(STORAGE_KEY) ?? '[]');
    return Array.isArray(stored) ? stored : [];
  } catch {
    return [];
  }
}

function remember() {
  if (current !== undefined) positions.set(current, window.scrollY);
}

function store() {
  remember();
  try {
    sessionStorage.setItem(STORAGE_KEY, JSON.stringify([...positions].slice(-100)));
  } catch {
    // Storage full or refused: positions are kept for this page's life only.
  }
}

if (typeof window !== 'undefined') {
  window.addEventListener('scroll', remember, { passive: true });
  window.addEventListener('pagehide', store);
}

/** Watches a page shown before its heading (a skeleton while its data loads) for the heading to arrive. */
let awaitingHeading: MutationObserver | undefined;

function focusHeading(heading: HTMLElement): void {
  heading.tabIndex = -1;
  // Where it scrolls the window to is set right after, by the position the page is shown at.
  heading.focus();
}

/**
 * Moves focus to the new page's heading (else its main landmark), as a page
 * load puts a screen reader at the start of the page: without it, focus
 * stays on the link that was pressed or, when that link went with the old
 * page, falls to the body. Focus the page has already placed inside its main
 * landmark stays there. A page that shows a skeleton first has its main
 * landmark focused, then its heading once it is drawn, unless the visitor has
 * moved focus meanwhile.
 */
function focusPage(): void {
  awaitingHeading?.disconnect();
  awaitingHeading = undefined;
  const main = document.querySelector('main');
  const focused = document.activeElement;
  if (!main || (focused !== main && main.contains(focused))) return;
  const heading = main.querySelector('h1');
  if (heading) {
    focusHeading(heading);
    return;
  }
  focusHeading(main);
  const observer = new MutationObserver(() => {
    const arrived = main.querySelector('h1');
    if (!arrived) return;
    observer.disconnect();
    if (awaitingHeading === observer) awaitingHeading = undefined;
    const now = document.activeElement;
    if (now === main || now === document.body || now === null) focusHeading(arrived);
  });
  observer.observe(main, { childList: true, subtree: true });
  awaitingHeading = observer;
}

/**
 * Does what a page load would: scrolls to the top (or the `#hash` target) on
 * a new page, back to where the visitor was on Back and Forward, and puts
 * focus on the heading of a page other than the first. Runs when the new
 * page is on screen, complete, so the position it restores and the heading
 * exist.
 */
export function ScrollRestoration() {
  const location = useLocation();
  const action = useNavigationType();
  useLayoutEffect(() => {
    if (location.key === current) return;
    window.history.scrollRestoration = 'manual';
    current = location.key;
    if (shownPath !== undefined && shownPath !== location.pathname) focusPage();
    shownPath = location.pathname;
    const saved = positions.get(location.key);
    if (action === 'POP' && saved !== undefined) {
      window.scrollTo(0, saved);
      return;
    }
    const target = location.hash ? document.getElementById(decodeURIComponent(location.hash.slice(1))) : null;
    if (target) target.scrollIntoView();
    else window.scrollTo(0, 0);
  }, [location.key, location.pathname, location.hash, action]);
  return null;
}
