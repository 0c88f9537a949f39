import { Component, type ReactNode, Suspense } from 'react';
import { useLocation } from 'react-router';
import { PageFallback } from '@/components/layout/page-fallback';
import { RouteError } from './routes/route-error';
import { ScrollRestoration } from './scroll-restoration';

interface ErrorBoundaryProps {
  /** The page's address: a failed page is tried again once the visitor goes elsewhere. */
  resetKey: string;
  children: ReactNode;
}

interface ErrorBoundaryState {
  failed: boolean;
  resetKey: string;
}

/** Catches a page that fails to load (its code) or to render, and shows {@link RouteError} in its place. */
class RouteErrorBoundary extends Component<ErrorBoundaryProps, ErrorBoundaryState> {
  override state: ErrorBoundaryState = { failed: false, resetKey: this.props.resetKey };

  static getDerivedStateFromError(): Partial<ErrorBoundaryState> {
    return { failed: true };
  }

  static getDerivedStateFromProps(props: ErrorBoundaryProps, state: ErrorBoundaryState) {
    return props.resetKey === state.resetKey ? null : { failed: false, resetKey: props.resetKey };
  }

  override render() {
    return this.state.failed ? <RouteError /> : this.props.children;
  }
}

/**
 * Where a layout shows its pages: the fallback while a page's code (or the
 * data it waits for) loads on first visit, the error page when it fails, and
 * the scroll position managed on every change of page. Navigations run as
 * transitions, so a page already on screen stays until the next one is ready.
 */
export function PageBoundary({ children }: { children: ReactNode }) {
  const { pathname } = useLocation();
  return (
    <Suspense fallback={<PageFallback />}>
      <RouteErrorBoundary resetKey={pathname}>{children}</RouteErrorBoundary>
      <ScrollRestoration />
    </Suspense>
  );
}
