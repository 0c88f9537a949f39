import { lazy, Suspense } from 'react';
import type { RemixDialogProps } from './components/remix-dialog';

// The restyle form's code loads when Remix is pressed.
const Dialog = lazy(() => import('./components/remix-dialog'));

/** Remix: the restyle form on another user's track (decision 060), loaded on first use. */
export function LazyRemixDialog(props: RemixDialogProps) {
  return (
    <Suspense fallback={null}>
      <Dialog {...props} />
    </Suspense>
  );
}
