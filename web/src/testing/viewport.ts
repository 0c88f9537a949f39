import { act } from '@testing-library/react';

interface HappyDomWindow {
  happyDOM: { setViewport: (viewport: { width?: number; height?: number }) => void };
}

/**
 * Makes happy-dom's window this wide (media queries follow it and fire their
 * change events, as a browser's do when it is resized).
 */
export function setWindowWidth(width: number): void {
  act(() => (window as unknown as HappyDomWindow).happyDOM.setViewport({ width }));
}

/** happy-dom's default width, which every test starts at. */
export const DEFAULT_WINDOW_WIDTH = 1024;

/**
 * happy-dom's IntersectionObserver never reports. This one reports every
 * observed element as on screen at once, as a browser does for what is in view,
 * unless a test holds the screen still (`holdIntersections`) to reveal
 * elements itself (`revealObserved`), as scrolling would.
 */
class TestIntersectionObserver {
  static held = false;
  static observers = new Set<TestIntersectionObserver>();
  readonly #targets = new Set<Element>();
  constructor(private readonly callback: IntersectionObserverCallback) {}
  observe(target: Element) {
    this.#targets.add(target);
    TestIntersectionObserver.observers.add(this);
    if (!TestIntersectionObserver.held) queueMicrotask(() => this.report());
  }
  unobserve(target: Element) {
    this.#targets.delete(target);
  }
  disconnect() {
    this.#targets.clear();
    TestIntersectionObserver.observers.delete(this);
  }
  takeRecords() {
    return [];
  }
  report() {
    const entries = [...this.#targets].map(
      (target) => ({ target, isIntersecting: true, intersectionRatio: 1 }) as IntersectionObserverEntry,
    );
    if (entries.length > 0) this.callback(entries, this as unknown as IntersectionObserver);
  }
}

/** Installs the reporting IntersectionObserver (the test setup does, before each test). */
export function installIntersectionObserver(): void {
  TestIntersectionObserver.held = false;
  TestIntersectionObserver.observers.clear();
  Object.assign(window, { IntersectionObserver: TestIntersectionObserver });
  Object.assign(globalThis, { IntersectionObserver: TestIntersectionObserver });
}

/** From now on, observed elements are off screen until `revealObserved`. */
export function holdIntersections(): void {
  TestIntersectionObserver.held = true;
}

/** Every element observed so far comes on screen. */
export function revealObserved(): void {
  act(() => {
    for (const observer of [...TestIntersectionObserver.observers]) observer.report();
  });
}
