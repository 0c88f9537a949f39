import { lazy, Suspense } from 'react';

// Its own chunk: most visits to the profile never reach the Developers section, and its forms and
// schemas need not slow the page's first paint.
const Section = lazy(() =>
  import('./components/developers-section').then((m) => ({ default: m.DevelopersSection })),
);

/** Profile → Developers, loaded after the profile's own code. */
export function LazyDevelopersSection() {
  return (
    <Suspense fallback={null}>
      <Section />
    </Suspense>
  );
}
