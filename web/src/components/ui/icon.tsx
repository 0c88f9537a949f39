import type { ReactNode } from 'react';

export interface IconProps {
  /** One path's `d`, or several paths drawn in order. */
  d?: string | readonly string[];
  /** Shapes other than paths (circles, rects), drawn after `d`. */
  children?: ReactNode;
  className?: string;
  strokeWidth?: '2' | '2.5' | '3';
  /** Round line ends and joins, for icons drawn with rounded strokes. */
  round?: boolean;
}

/** A decorative 24x24 line icon drawn in the current text colour; hidden from assistive technology. */
export function Icon({ d, children, className = 'size-4', strokeWidth = '2', round = false }: IconProps) {
  const paths = d === undefined ? [] : typeof d === 'string' ? [d] : d;
  return (
    <svg
      aria-hidden="true"
      viewBox="0 0 24 24"
      className={className}
      fill="none"
      stroke="currentColor"
      strokeWidth={strokeWidth}
      strokeLinecap={round ? 'round' : undefined}
      strokeLinejoin={round ? 'round' : undefined}
    >
      {paths.map((path) => (
        <path key={path} d={path} />
      ))}
      {children}
    </svg>
  );
}
