import { useLayoutEffect } from 'react';
import { useLocation, useNavigationType } from 'react-router';

const STORAGE_KEY = 'tunesmith-scroll-positions';

/** Where the window was last scrolled on each history entry (saved as it scrolls), kept across reloads for the tab's life. */
const positions = new Map<string, number>(readStored());
/** The entry whose position the window shows now. */
let current: string | undefined;

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

/**
 * Scrolls as a page load would: to the top (or the `#hash` target) on a new
 * page, back to where the visitor was on Back and Forward. Runs when the new
 * page is on screen, complete, so the position it restores exists.
 */
export function ScrollRestoration() {
  const location = useLocation();
  const action = useNavigationType();
  useLayoutEffect(() => {
    if (location.key === current) return;
    window.history.scrollRestoration = 'manual';
    current = location.key;
    const saved = positions.get(location.key);
    if (action === 'POP' && saved !== undefined) {
      window.scrollTo(0, saved);
      return;
    }
    const target = location.hash ? document.getElementById(decodeURIComponent(location.hash.slice(1))) : null;
    if (target) target.scrollIntoView();
    else window.scrollTo(0, 0);
  }, [location.key, location.hash, action]);
  return null;
}
