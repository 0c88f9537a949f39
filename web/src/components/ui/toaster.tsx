import * as ToastPrimitive from '@radix-ui/react-toast';
import { TOAST_DURATION_MS } from '@tunesmith/shared/constants';
import { cn } from '@/lib/cn';
import { dismissToast, useToasts } from '@/lib/toast';
import { Icon } from './icon';

/** The spec's toast constants are Radix Toast's: swipe 50 px to dismiss, F8 to reach the notifications. */
const SWIPE_THRESHOLD_PX = 50;
const FOCUS_HOTKEY = ['F8'];

/**
 * The notification area on Radix Toast: one toast at a time (the store keeps
 * the newest), each shown for 5 seconds (paused while hovered or focused),
 * swiped away or dismissed with its button; F8 moves focus to it. It sits
 * above any dialog's backdrop.
 */
export function Toaster() {
  const toasts = useToasts();
  return (
    <ToastPrimitive.Provider
      duration={TOAST_DURATION_MS}
      swipeDirection="right"
      swipeThreshold={SWIPE_THRESHOLD_PX}
      label="Notification"
    >
      {toasts.map((t) => {
        const destructive = t.variant === 'destructive';
        return (
          <ToastPrimitive.Root
            key={t.id}
            // A div, not Radix's list item: the viewport is a div too (see below).
            asChild
            role="status"
            // Failures are announced at once; other news waits for a pause.
            type={destructive ? 'foreground' : 'background'}
            data-variant={t.variant}
            onOpenChange={(open) => {
              if (!open) dismissToast(t.id);
            }}
            className={cn(
              'pointer-events-auto relative flex w-full items-start gap-3 rounded-xl border p-4 pr-10 shadow-2xl shadow-black/40 backdrop-blur-md',
              'motion-safe:animate-[toast-in_200ms_ease-out]',
              'data-[swipe=move]:translate-x-[var(--radix-toast-swipe-move-x)] data-[swipe=end]:translate-x-[var(--radix-toast-swipe-end-x)]',
              destructive
                ? 'border-red-500/60 bg-red-950/95 text-red-50'
                : 'border-white/15 bg-zinc-900/95 text-zinc-50',
            )}
          >
            <div>
              <div className="grid gap-1">
                <ToastPrimitive.Title className="text-sm font-semibold">{t.title}</ToastPrimitive.Title>
                {t.description ? (
                  <ToastPrimitive.Description className="text-sm opacity-90">
                    {t.description}
                  </ToastPrimitive.Description>
                ) : null}
              </div>
              <ToastPrimitive.Close
                aria-label="Dismiss notification"
                className="absolute top-2 right-2 rounded-md p-1 text-current opacity-70 hover:opacity-100 focus-visible:opacity-100 focus-visible:outline-2 focus-visible:outline-violet-300"
              >
                <Icon d="M6 6l12 12M18 6L6 18" />
              </ToastPrimitive.Close>
            </div>
          </ToastPrimitive.Root>
        );
      })}
      {/*
        A div rather than Radix's <ol>: each toast has the status role, and a list may
        hold only list items. The region around it keeps the name and the F8 hotkey.
      */}
      <ToastPrimitive.Viewport
        asChild
        hotkey={FOCUS_HOTKEY}
        label="Notifications ({hotkey})"
        className="pointer-events-none fixed right-0 bottom-0 z-[100] flex w-full max-w-[420px] flex-col gap-2 p-4 outline-none focus-visible:outline-2 focus-visible:-outline-offset-4 focus-visible:outline-violet-300"
      >
        <div />
      </ToastPrimitive.Viewport>
    </ToastPrimitive.Provider>
  );
}
