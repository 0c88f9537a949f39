import { useState } from 'react';

export type VersionsLayout = 'grouped' | 'flat';

/** Where the library remembers, on this device, whether versions are grouped or flat. */
export const VERSIONS_LAYOUT_KEY = 'tunesmith.library.versions';

function stored(): VersionsLayout {
  try {
    return window.localStorage.getItem(VERSIONS_LAYOUT_KEY) === 'flat' ? 'flat' : 'grouped';
  } catch {
    return 'grouped';
  }
}

/** Grouped (the default) or flat, remembered locally across visits. */
export function useVersionsLayout() {
  const [layout, setLayout] = useState<VersionsLayout>(stored);
  const change = (next: VersionsLayout) => {
    setLayout(next);
    try {
      window.localStorage.setItem(VERSIONS_LAYOUT_KEY, next);
    } catch {
      // Storage may be off (private browsing): the choice holds for this visit.
    }
  };
  return [layout, change] as const;
}
