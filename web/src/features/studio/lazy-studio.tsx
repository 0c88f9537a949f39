import { lazy, Suspense } from 'react';
import type { StudioEntryProps } from './components/studio-menu';

// The studio loads only where an owner's completed track shows it, never with a visitor's first page.
const Menu = lazy(() => import('./components/studio-menu').then((m) => ({ default: m.StudioMenu })));
const Actions = lazy(() => import('./components/studio-actions').then((m) => ({ default: m.StudioActions })));

/** The library card's More menu, loaded on first use. */
export function LazyStudioMenu(props: StudioEntryProps) {
  if (props.track.status !== 'completed') return null;
  return (
    <Suspense fallback={null}>
      <Menu {...props} />
    </Suspense>
  );
}

/** The track page's studio buttons, loaded on first use. */
export function LazyStudioActions(props: StudioEntryProps) {
  if (props.track.status !== 'completed') return null;
  return (
    <Suspense fallback={null}>
      <Actions {...props} />
    </Suspense>
  );
}
