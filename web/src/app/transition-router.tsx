import { type ReactNode, useLayoutEffect, useState, useTransition } from 'react';
import { Router, type UNSAFE_createBrowserHistory } from 'react-router';
import { NavigationPendingContext } from '@/lib/navigation-pending';

/** The browser's history (or, in tests, one in memory) as react-router drives it. */
export type AppHistory = ReturnType<typeof UNSAFE_createBrowserHistory>;

/**
 * react-router's declarative router (what `<BrowserRouter>` does), with each
 * change of address rendered in a transition whose pending state the header
 * shows: the page on screen stays, with a progress bar, until the next page's
 * code and data are in.
 */
export function TransitionRouter({ history, children }: { history: AppHistory; children: ReactNode }) {
  const [state, setState] = useState({ action: history.action, location: history.location });
  const [pending, startTransition] = useTransition();
  useLayoutEffect(
    () =>
      history.listen(({ action, location }) => {
        startTransition(() => setState({ action, location }));
      }),
    [history],
  );
  return (
    <NavigationPendingContext.Provider value={pending}>
      <Router location={state.location} navigationType={state.action} navigator={history}>
        {children}
      </Router>
    </NavigationPendingContext.Provider>
  );
}
