import { describe, expect, it } from 'vitest';
import { releaseFrame } from './frame';

describe('releaseFrame', () => {
  it('sets the styles the frame kept as data and enables the controls it held back, and only those', () => {
    const root = document.createElement('div');
    root.innerHTML =
      '<div role="tablist" data-frame-style="outline:none;animation-duration:0s"></div>' +
      '<input id="email" disabled="" data-frame-disabled="">' +
      '<button id="go" disabled="" data-frame-disabled="">Go</button>' +
      '<button id="busy" disabled="">Busy</button>';

    releaseFrame(root);

    const tablist = root.querySelector<HTMLElement>('[role="tablist"]');
    expect(tablist?.style.outlineStyle).toBe('none');
    expect(tablist?.style.animationDuration).toBe('0s');
    expect(tablist?.hasAttribute('data-frame-style')).toBe(false);
    expect(root.querySelector<HTMLInputElement>('#email')?.disabled).toBe(false);
    expect(root.querySelector<HTMLButtonElement>('#go')?.disabled).toBe(false);
    // A control the page itself disabled stays disabled.
    expect(root.querySelector<HTMLButtonElement>('#busy')?.disabled).toBe(true);
    expect(root.querySelector('[data-frame-disabled]')).toBeNull();
  });
});
