import { useId } from 'react';

export function LogoMark({ className = 'size-8' }: { className?: string }) {
  // Each mark owns its gradient: a reference to one inside a hidden (display: none) copy paints nothing.
  const gradientId = useId();
  return (
    <svg aria-hidden="true" viewBox="0 0 32 32" className={className}>
      <defs>
        <linearGradient id={gradientId} x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor="#a855f7" />
          <stop offset="1" stopColor="#ec4899" />
        </linearGradient>
      </defs>
      <rect width="32" height="32" rx="8" fill={`url(#${gradientId})`} />
      <path d="M13 22.5a3 3 0 1 1-2-2.83V9.5l10-2v11a3 3 0 1 1-2-2.83V11.2l-6 1.2z" fill="#fff" />
    </svg>
  );
}
