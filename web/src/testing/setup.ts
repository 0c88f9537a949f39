// Forms load the zod resolver apart from the page (lib/use-form.ts); in tests it is
// already loaded, as it is in a browser by the time a person has filled a form in.
import '@hookform/resolvers/zod';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, beforeEach, vi } from 'vitest';
import { dismissToast } from '@/lib/toast';
import { anonymous, mockFetch } from './mock-fetch';
import { installIntersectionObserver } from './viewport';

// Testing Library advances fake timers only when it finds a `jest` global;
// this lets its async helpers work under vi.useFakeTimers().
Object.assign(globalThis, { jest: { advanceTimersByTime: (ms: number) => vi.advanceTimersByTime(ms) } });

// The whole suite shares two cores with the emulators and a browser; a screen
// that renders in 50 ms alone can take over a second then.
configure({ asyncUtilTimeout: 5000 });

// No test reaches the network: until a test says otherwise, the visitor is
// signed out and every other call is a 404.
beforeEach(() => {
  installIntersectionObserver();
  mockFetch({ 'GET /api/auth/user': anonymous() });
});

afterEach(() => {
  cleanup();
  dismissToast();
  vi.useRealTimers();
  for (const title of document.head.querySelectorAll('title')) title.remove();
});
