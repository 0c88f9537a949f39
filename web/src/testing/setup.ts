import { cleanup } from '@testing-library/react';
import { afterEach, vi } from 'vitest';
import { dismissToast } from '@/lib/toast';

// Testing Library advances fake timers only when it finds a `jest` global;
// this lets its async helpers work under vi.useFakeTimers().
Object.assign(globalThis, { jest: { advanceTimersByTime: (ms: number) => vi.advanceTimersByTime(ms) } });

afterEach(() => {
  cleanup();
  dismissToast();
  vi.useRealTimers();
  for (const title of document.head.querySelectorAll('title')) title.remove();
});
