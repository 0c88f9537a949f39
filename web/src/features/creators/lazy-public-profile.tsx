import { lazy, Suspense } from 'react';

// Its own chunk, loaded after the profile page's own code.
const Section = lazy(() =>
  import('./components/public-profile-section').then((m) => ({ default: m.PublicProfileSection })),
);

/** Profile → Public profile. */
export function LazyPublicProfileSection() {
  return (
    <Suspense fallback={null}>
      <Section />
    </Suspense>
  );
}
