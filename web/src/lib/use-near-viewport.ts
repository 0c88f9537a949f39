import { type RefObject, useEffect, useState } from 'react';

/** How far outside the screen an element counts as near: a short scroll away. */
const NEAR_MARGIN = '200px';

/**
 * Whether an element has come near the screen, then the browser was idle:
 * `false` until then, `true` from then on. Work that a page can show later
 * (a waveform drawn from peaks) waits for it, so a page with many such
 * elements does that work only for those the visitor reaches, one at a time,
 * and never while the page is starting. Without IntersectionObserver it is
 * `true` at once; on the server (a prerendered frame, which is never on a
 * screen yet) it is `false`.
 */
export function useNearViewport(element: RefObject<Element | null>): boolean {
  const [near, setNear] = useState(
    () => typeof window !== 'undefined' && typeof IntersectionObserver === 'undefined',
  );
  useEffect(() => {
    const target = element.current;
    if (near || !target) return;
    let idle: (() => void) | undefined;
    const observer = new IntersectionObserver(
      (entries) => {
        if (!entries.some((entry) => entry.isIntersecting)) return;
        observer.disconnect();
        idle ??= whenIdle(() => setNear(true));
      },
      { rootMargin: NEAR_MARGIN },
    );
    observer.observe(target);
    return () => {
      observer.disconnect();
      idle?.();
    };
  }, [element, near]);
  return near;
}

/** Runs `callback` when the browser is idle (within a second); returns a cancel. */
function whenIdle(callback: () => void): () => void {
  if (typeof window.requestIdleCallback === 'function') {
    const handle = window.requestIdleCallback(callback, { timeout: 1000 });
    return () => window.cancelIdleCallback(handle);
  }
  const timer = window.setTimeout(callback, 1);
  return () => window.clearTimeout(timer);
}
