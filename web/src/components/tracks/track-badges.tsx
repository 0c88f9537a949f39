import type { Visibility } from '@tunesmith/shared/track-values';
import { cn } from '@/lib/cn';
import { normalStatus } from './track-status';

export type StatusTone = 'green' | 'blue' | 'red' | 'grey';

/** The status colour: green completed, blue generating (processing), red failed, grey otherwise. */
export function statusTone(status: string): StatusTone {
  switch (normalStatus(status)) {
    case 'completed':
      return 'green';
    case 'generating':
      return 'blue';
    case 'failed':
      return 'red';
    default:
      return 'grey';
  }
}

const toneClasses: Record<StatusTone, { badge: string; dot: string }> = {
  green: { badge: 'border-emerald-400/40 bg-emerald-500/15 text-emerald-200', dot: 'bg-emerald-400' },
  blue: { badge: 'border-sky-400/40 bg-sky-500/15 text-sky-200', dot: 'bg-sky-400' },
  red: { badge: 'border-red-400/40 bg-red-500/15 text-red-200', dot: 'bg-red-400' },
  grey: { badge: 'border-zinc-400/30 bg-zinc-500/15 text-zinc-300', dot: 'bg-zinc-400' },
};

const capitalised = (word: string) => (word ? `${word.charAt(0).toUpperCase()}${word.slice(1)}` : '');

const badgeBase = 'inline-flex items-center gap-1.5 rounded-full border px-2 py-0.5 text-xs font-medium';

/** A track's status in words and colour (the colour is never the only signal). */
export function StatusBadge({ status }: { status: string }) {
  const tone = statusTone(status);
  return (
    <span data-tone={tone} className={cn(badgeBase, toneClasses[tone].badge)}>
      <span aria-hidden="true" className={cn('size-1.5 rounded-full', toneClasses[tone].dot)} />
      <span className="sr-only">Status: </span>
      {capitalised(status) || 'Unknown'}
    </span>
  );
}

/** Public or Private. */
export function VisibilityBadge({ visibility }: { visibility: Visibility }) {
  return (
    <span
      className={cn(
        badgeBase,
        visibility === 'private'
          ? 'border-amber-400/40 bg-amber-500/15 text-amber-200'
          : 'border-violet-400/40 bg-violet-500/15 text-violet-200',
      )}
    >
      <span className="sr-only">Visibility: </span>
      {capitalised(visibility)}
    </span>
  );
}
