import type { ReactNode } from 'react';
import { cn } from '@/lib/cn';

/**
 * Content that may be wider than the screen (a table) and scrolls sideways
 * inside its own box: the box is a named region in the Tab order, so a
 * keyboard reaches it and scrolls it with the arrow keys.
 */
export function ScrollRegion({
  label,
  className,
  children,
}: {
  /** What the region holds, for screen readers. */
  label: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <section
      aria-label={label}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a region that scrolls must be reachable to scroll it by keyboard
      tabIndex={0}
      className={cn(
        'overflow-x-auto rounded-md focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-violet-300',
        className,
      )}
    >
      {children}
    </section>
  );
}
