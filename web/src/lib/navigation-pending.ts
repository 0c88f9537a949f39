import { createContext, useContext } from 'react';

/** True while a navigation waits for the next page's code or data; the previous page stays on screen meanwhile. */
export const NavigationPendingContext = createContext(false);

/** Whether a navigation is under way (the header shows a thin progress bar). */
export function useNavigationPending(): boolean {
  return useContext(NavigationPendingContext);
}
