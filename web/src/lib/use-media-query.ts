import { useCallback, useSyncExternalStore } from 'react';

/** Whether the window matches a media query now; the component renders again when that changes. */
export function useMediaQuery(query: string): boolean {
  const subscribe = useCallback(
    (onChange: () => void) => {
      const media = window.matchMedia?.(query);
      media?.addEventListener('change', onChange);
      return () => media?.removeEventListener('change', onChange);
    },
    [query],
  );
  const getSnapshot = () => window.matchMedia?.(query).matches ?? true;
  return useSyncExternalStore(subscribe, getSnapshot, () => true);
}
