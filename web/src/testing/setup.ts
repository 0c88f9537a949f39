import { cleanup, configure } from '@testing-library/react';
import { afterEach, vi } from 'vitest';
import { dismissToast } from '@/lib/toast';

// Testing Library advances fake timers only when it finds a `jest` global;
// this lets its async helpers work under vi.useFakeTimers().
Object.assign(globalThis, { jest: { advanceTimersByTime: (ms: number) => vi.advanceTimersByTime(ms) } });

// The whole suite shares two cores with the emulators and a browser; a screen
// that renders in 50 ms alone can take over a second then.
configure({ asyncUtilTimeout: 5000 });

afterEach(() => {
  cleanup();
  dismissToast();
  vi.useRealTimers();
  for (const title of document.head.querySelectorAll('title')) title.remove();
});
