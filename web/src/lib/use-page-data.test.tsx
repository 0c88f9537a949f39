import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { Component, type ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { mockFetch } from '@/testing/mock-fetch';
import { FRAME_DIGEST, FrameContext, FrameWaitsForData, usePageData } from './use-page-data';

class Catch extends Component<{ children: ReactNode; caught: unknown[] }, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override componentDidCatch(error: unknown) {
    this.props.caught.push(error);
  }
  override render() {
    return this.state.failed ? <p>left to the app</p> : this.props.children;
  }
}

function Plans() {
  usePageData({ queryKey: ['plans'] });
  return <p>plans</p>;
}

describe('usePageData in a prerendered frame', () => {
  it('leaves a part whose data has not answered to the app, asking the API for nothing', () => {
    const fetchMock = mockFetch({});
    const caught: unknown[] = [];
    render(
      <FrameContext value={true}>
        <QueryClientProvider client={new QueryClient()}>
          <Catch caught={caught}>
            <Plans />
          </Catch>
        </QueryClientProvider>
      </FrameContext>,
    );
    expect(screen.getByText('left to the app')).toBeDefined();
    expect(caught[0]).toBeInstanceOf(FrameWaitsForData);
    expect((caught[0] as { digest: string }).digest).toBe(FRAME_DIGEST);
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('renders a part whose data is already there', () => {
    const client = new QueryClient();
    client.setQueryData(['plans'], []);
    render(
      <FrameContext value={true}>
        <QueryClientProvider client={client}>
          <Plans />
        </QueryClientProvider>
      </FrameContext>,
    );
    expect(screen.getByText('plans')).toBeDefined();
  });
});
