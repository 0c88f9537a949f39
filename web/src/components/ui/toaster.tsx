import { TOAST_DURATION_MS } from '@tunesmith/shared/constants';
import { useEffect, useRef, useState } from 'react';
import { cn } from '@/lib/cn';
import { dismissToast, type Toast, useToasts } from '@/lib/toast';
import { Icon } from './icon';

const FOCUS_HOTKEY = 'F8';

function ToastItem({ toast }: { toast: Toast }) {
  const [paused, setPaused] = useState(false);
  const remaining = useRef(TOAST_DURATION_MS);

  useEffect(() => {
    if (paused) return;
    const started = Date.now();
    const timer = window.setTimeout(() => dismissToast(toast.id), remaining.current);
    return () => {
      window.clearTimeout(timer);
      remaining.current = Math.max(0, remaining.current - (Date.now() - started));
    };
  }, [paused, toast.id]);

  const destructive = toast.variant === 'destructive';
  return (
    <li
      role="status"
      aria-atomic="true"
      data-variant={toast.variant}
      onMouseEnter={() => setPaused(true)}
      onMouseLeave={() => setPaused(false)}
      onFocus={() => setPaused(true)}
      onBlur={() => setPaused(false)}
      className={cn(
        'pointer-events-auto relative flex w-full items-start gap-3 rounded-xl border p-4 pr-10 shadow-2xl shadow-black/40 backdrop-blur-md',
        'motion-safe:animate-[toast-in_200ms_ease-out]',
        destructive
          ? 'border-red-500/60 bg-red-950/95 text-red-50'
          : 'border-white/15 bg-zinc-900/95 text-zinc-50',
      )}
    >
      <div className="grid gap-1">
        <p className="text-sm font-semibold">{toast.title}</p>
        {toast.description ? <p className="text-sm opacity-90">{toast.description}</p> : null}
      </div>
      <button
        type="button"
        onClick={() => dismissToast(toast.id)}
        aria-label="Dismiss notification"
        className="absolute top-2 right-2 rounded-md p-1 text-current opacity-70 hover:opacity-100 focus-visible:opacity-100 focus-visible:outline-2 focus-visible:outline-violet-300"
      >
        <Icon d="M6 6l12 12M18 6L6 18" />
      </button>
    </li>
  );
}

/**
 * The notification area: one toast at a time, each shown for 5 seconds
 * (paused while hovered or focused). F8 moves focus to it.
 */
export function Toaster() {
  const toasts = useToasts();
  const region = useRef<HTMLElement>(null);

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === FOCUS_HOTKEY) {
        event.preventDefault();
        region.current?.focus();
      }
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, []);

  return (
    <section
      ref={region}
      aria-label={`Notifications (${FOCUS_HOTKEY})`}
      tabIndex={-1}
      className="pointer-events-none fixed right-0 bottom-0 z-[100] flex w-full max-w-[420px] flex-col p-4 focus-visible:outline-2 focus-visible:-outline-offset-4 focus-visible:outline-violet-300"
    >
      <ol aria-live="polite" className="flex flex-col gap-2">
        {toasts.map((t) => (
          <ToastItem key={t.id} toast={t} />
        ))}
      </ol>
    </section>
  );
}
