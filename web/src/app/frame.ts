/**
 * Hands a prerendered frame (web/build/prerender.ts) over to the app once the
 * app has hydrated it: the style attributes the frame keeps aside
 * (`data-frame-style`, web/build/prerender.ts) are set through the CSSOM,
 * and the controls the frame disabled are enabled. A page that was not
 * prerendered, or that the app rendered afresh, has nothing to hand over.
 */
export function releaseFrame(root: ParentNode = document): void {
  for (const element of root.querySelectorAll<HTMLElement>('[data-frame-style]')) {
    element.style.cssText += element.getAttribute('data-frame-style') ?? '';
    element.removeAttribute('data-frame-style');
  }
  for (const element of root.querySelectorAll('[data-frame-disabled]')) {
    element.removeAttribute('disabled');
    element.removeAttribute('data-frame-disabled');
  }
}
