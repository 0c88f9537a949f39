import { type QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { type ReactNode, useEffect } from 'react';
import { releaseFrame } from './frame';

export function AppProvider({ queryClient, children }: { queryClient: QueryClient; children: ReactNode }) {
  // Runs once the whole app has committed: a hydrated frame is the app's from here on.
  useEffect(() => releaseFrame(), []);
  return <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
}
