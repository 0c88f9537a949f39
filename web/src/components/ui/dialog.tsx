import { type ReactNode, type RefObject, useEffect, useId, useRef } from 'react';
import { createPortal } from 'react-dom';
import { cn } from '@/lib/cn';

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

export interface DialogProps {
  open: boolean;
  /** Called on Escape, on the backdrop (not for alert dialogs) and by the dialog's own buttons. */
  onClose: () => void;
  title: string;
  description?: ReactNode;
  /** `alertdialog` for confirmations: the backdrop does not close it. */
  role?: 'dialog' | 'alertdialog';
  /** The element focused on open; the first focusable element otherwise. */
  initialFocus?: RefObject<HTMLElement | null>;
  className?: string;
  children: ReactNode;
}

/**
 * A modal dialog: focus moves into it and stays there (Tab wraps), Escape
 * closes it, and focus returns to where it was when it closes.
 */
export function Dialog({
  open,
  onClose,
  title,
  description,
  role = 'dialog',
  initialFocus,
  className,
  children,
}: DialogProps) {
  const panel = useRef<HTMLDivElement>(null);
  const titleId = useId();
  const descriptionId = useId();
  const onCloseRef = useRef(onClose);
  onCloseRef.current = onClose;

  useEffect(() => {
    if (!open) return;
    const returnTo = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const element = panel.current;
    const first = initialFocus?.current ?? element?.querySelector<HTMLElement>(FOCUSABLE) ?? element;
    first?.focus();

    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        event.stopPropagation();
        onCloseRef.current();
        return;
      }
      if (event.key !== 'Tab' || !element) return;
      const focusable = [...element.querySelectorAll<HTMLElement>(FOCUSABLE)];
      const firstItem = focusable[0];
      const lastItem = focusable[focusable.length - 1];
      if (!firstItem || !lastItem) {
        event.preventDefault();
        return;
      }
      const active = document.activeElement;
      if (event.shiftKey && (active === firstItem || !element.contains(active))) {
        event.preventDefault();
        lastItem.focus();
      } else if (!event.shiftKey && (active === lastItem || !element.contains(active))) {
        event.preventDefault();
        firstItem.focus();
      }
    };
    document.addEventListener('keydown', onKeyDown, true);
    const previousOverflow = document.body.style.overflow;
    document.body.style.overflow = 'hidden';
    return () => {
      document.removeEventListener('keydown', onKeyDown, true);
      document.body.style.overflow = previousOverflow;
      if (returnTo?.isConnected) returnTo.focus();
    };
  }, [open, initialFocus]);

  if (!open) return null;
  // The role is chosen by the caller, so the modal attributes travel together.
  const semantics = {
    role,
    'aria-modal': true,
    'aria-labelledby': titleId,
    'aria-describedby': description ? descriptionId : undefined,
  } as const;
  return createPortal(
    <div className="fixed inset-0 z-50 grid place-items-center overflow-y-auto p-4">
      <div
        aria-hidden="true"
        className="fixed inset-0 bg-black/70 backdrop-blur-sm"
        onClick={role === 'dialog' ? onClose : undefined}
      />
      <div
        ref={panel}
        {...semantics}
        tabIndex={-1}
        className={cn(
          'relative w-full max-w-md rounded-2xl border border-white/10 bg-zinc-900 p-6 text-zinc-100 shadow-2xl shadow-black/50 focus:outline-none',
          className,
        )}
      >
        <h2 id={titleId} className="text-xl font-semibold text-white">
          {title}
        </h2>
        {description ? (
          <div id={descriptionId} className="mt-2 text-sm text-zinc-300">
            {description}
          </div>
        ) : null}
        <div className="mt-5">{children}</div>
      </div>
    </div>,
    document.body,
  );
}
