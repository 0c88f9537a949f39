import { lazy, Suspense, useEffect, useState } from 'react';
import { useToasts } from '@/lib/toast';

const loadToaster = () => import('./toaster').then((m) => ({ default: m.Toaster }));
const Toaster = lazy(loadToaster);

/**
 * The notification area, loaded once there is something to show (and fetched
 * in the background after the page settles), so a visitor's first load does
 * not carry it.
 */
export function ToasterHost() {
  const toasts = useToasts();
  const [needed, setNeeded] = useState(false);
  if (toasts.length > 0 && !needed) setNeeded(true);

  useEffect(() => {
    const idle = window.requestIdleCallback ?? ((run: () => void) => window.setTimeout(run, 2000));
    idle(() => void loadToaster());
  }, []);

  return needed ? (
    <Suspense fallback={null}>
      <Toaster />
    </Suspense>
  ) : null;
}
