import { useCallback, useEffect, useState } from 'react';

/**
 * Whether this page has sent the browser elsewhere (to Stripe, say), so that
 * buttons stay disabled while the next page loads. Pressing Back can restore
 * this page as it was (the back/forward cache); it is then usable again.
 */
export function useLeavingPage(): { leaving: boolean; leave: (url: string) => void } {
  const [leaving, setLeaving] = useState(false);

  useEffect(() => {
    const onPageShow = (event: PageTransitionEvent) => {
      if (event.persisted) setLeaving(false);
    };
    window.addEventListener('pageshow', onPageShow);
    return () => window.removeEventListener('pageshow', onPageShow);
  }, []);

  const leave = useCallback((url: string) => {
    setLeaving(true);
    window.location.assign(url);
  }, []);

  return { leaving, leave };
}
