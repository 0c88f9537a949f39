import { cn } from '@/lib/cn';

export function Spinner({ label = 'Loading', className }: { label?: string; className?: string }) {
  return (
    <span role="status" className={cn('inline-flex items-center gap-2 text-zinc-300', className)}>
      <span
        aria-hidden="true"
        className="size-5 animate-spin rounded-full border-2 border-white/20 border-t-violet-400 motion-reduce:animate-none"
      />
      <span className="sr-only">{label}</span>
    </span>
  );
}
