import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { TOAST_DURATION_MS } from '@tunesmith/shared/constants';
import { describe, expect, it, vi } from 'vitest';
import { toast } from '@/lib/toast';
import { Toaster } from './toaster';

function renderToaster() {
  render(<Toaster />);
  const region = screen.getByRole('region', { name: 'Notifications (F8)' });
  return { region, toasts: () => within(region).queryAllByRole('status') };
}

describe('toaster', () => {
  it('holds one toast at a time, the newest', () => {
    const { toasts } = renderToaster();

    act(() => {
      toast({ title: 'First' });
      toast({ title: 'Second', description: 'Details' });
    });

    expect(toasts()).toHaveLength(1);
    expect(within(toasts()[0] as HTMLElement).getByText('Second')).toBeDefined();
    expect(within(toasts()[0] as HTMLElement).getByText('Details')).toBeDefined();
    expect(screen.queryByText('First')).toBeNull();
  });

  it('puts a toast, a status, in no list (a list may hold only list items)', () => {
    const { region, toasts } = renderToaster();

    act(() => {
      toast({ title: 'Saved' });
    });

    expect(toasts()).toHaveLength(1);
    expect(toasts()[0]?.tagName).not.toBe('LI');
    expect(toasts()[0]?.closest('ol, ul')).toBeNull();
    expect(region.querySelector('ol, ul, li')).toBeNull();
  });

  it('dismisses a toast after 5000 ms', () => {
    vi.useFakeTimers();
    const { toasts } = renderToaster();

    act(() => {
      toast({ title: 'Saved' });
    });
    act(() => vi.advanceTimersByTime(TOAST_DURATION_MS - 1));
    expect(toasts()).toHaveLength(1);

    act(() => vi.advanceTimersByTime(1));
    expect(toasts()).toHaveLength(0);
  });

  it('gives a replacing toast its own full 5000 ms', () => {
    vi.useFakeTimers();
    const { toasts } = renderToaster();

    act(() => {
      toast({ title: 'First' });
    });
    act(() => vi.advanceTimersByTime(4000));
    act(() => {
      toast({ title: 'Second' });
    });
    act(() => vi.advanceTimersByTime(4000));

    expect(within(toasts()[0] as HTMLElement).getByText('Second')).toBeDefined();
    act(() => vi.advanceTimersByTime(1000));
    expect(toasts()).toHaveLength(0);
  });

  it('keeps a toast while the pointer is over it', () => {
    vi.useFakeTimers();
    const { region, toasts } = renderToaster();
    act(() => {
      toast({ title: 'Read me' });
    });

    // Radix Toast pauses every toast while the pointer is over the notification area.
    fireEvent.pointerMove(toasts()[0] as HTMLElement);
    act(() => vi.advanceTimersByTime(TOAST_DURATION_MS * 2));
    expect(toasts()).toHaveLength(1);

    fireEvent.pointerLeave(region);
    act(() => vi.advanceTimersByTime(TOAST_DURATION_MS));
    expect(toasts()).toHaveLength(0);
  });

  it('announces a toast politely and a failure at once, and marks failures', async () => {
    const { toasts } = renderToaster();

    act(() => {
      toast({ title: 'Saved' });
    });
    await waitFor(() =>
      expect(document.querySelector('[aria-live="polite"]')?.textContent).toContain('Saved'),
    );

    act(() => {
      toast({ title: 'Share Failed', variant: 'destructive' });
    });
    expect(toasts()[0]?.dataset.variant).toBe('destructive');
    await waitFor(() =>
      expect(document.querySelector('[aria-live="assertive"]')?.textContent).toContain('Share Failed'),
    );
  });

  it('closes a toast with its dismiss button', async () => {
    const { toasts } = renderToaster();
    act(() => {
      toast({ title: 'Hello' });
    });

    fireEvent.click(screen.getByRole('button', { name: 'Dismiss notification' }));

    expect(toasts()).toHaveLength(0);
  });

  it('moves focus to the notification area on F8', () => {
    const { region } = renderToaster();

    fireEvent.keyDown(document, { key: 'F8', code: 'F8' });

    expect(region.contains(document.activeElement)).toBe(true);
  });
});
