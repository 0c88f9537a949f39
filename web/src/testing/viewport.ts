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
