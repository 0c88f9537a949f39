import * as AlertDialogPrimitive from '@radix-ui/react-alert-dialog';
import * as DialogPrimitive from '@radix-ui/react-dialog';
import { type ReactNode, type RefObject, useRef } from 'react';
import { cn } from '@/lib/cn';

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

const overlayClasses = 'fixed inset-0 z-50 bg-black/70 backdrop-blur-sm';
const panelClasses =
  'fixed top-1/2 left-1/2 z-50 max-h-[calc(100dvh-2rem)] w-[calc(100%-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-2xl border border-white/10 bg-zinc-900 p-6 text-zinc-100 shadow-2xl shadow-black/50 focus:outline-none';

/**
 * A modal dialog on Radix Dialog (or Alert Dialog for confirmations): focus
 * moves into it and stays there, Escape closes it, and focus returns to where
 * it was when it closes.
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
  const onOpenChange = (next: boolean) => {
    if (!next) onClose();
  };
  const returnTo = useRef<HTMLElement | null>(null);
  const focusInitial = (event: Event) => {
    // Opened from state, not a Radix trigger: remember where focus was to give it back.
    returnTo.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (!initialFocus?.current) return;
    event.preventDefault();
    initialFocus.current.focus();
  };
  const focusReturn = (event: Event) => {
    event.preventDefault();
    if (returnTo.current?.isConnected) returnTo.current.focus();
  };
  if (role === 'alertdialog') {
    return (
      <AlertDialogPrimitive.Root open={open} onOpenChange={onOpenChange}>
        <AlertDialogPrimitive.Portal>
          <AlertDialogPrimitive.Overlay className={overlayClasses} />
          <AlertDialogPrimitive.Content
            className={cn(panelClasses, className)}
            onOpenAutoFocus={focusInitial}
            onCloseAutoFocus={focusReturn}
            aria-modal="true"
            {...(description ? {} : { 'aria-describedby': undefined })}
          >
            <AlertDialogPrimitive.Title className="text-xl font-semibold text-white">
              {title}
            </AlertDialogPrimitive.Title>
            {description ? (
              <AlertDialogPrimitive.Description asChild>
                <div className="mt-2 text-sm text-zinc-300">{description}</div>
              </AlertDialogPrimitive.Description>
            ) : null}
            <div className="mt-5">{children}</div>
          </AlertDialogPrimitive.Content>
        </AlertDialogPrimitive.Portal>
      </AlertDialogPrimitive.Root>
    );
  }
  return (
    <DialogPrimitive.Root open={open} onOpenChange={onOpenChange}>
      <DialogPrimitive.Portal>
        <DialogPrimitive.Overlay className={overlayClasses} />
        <DialogPrimitive.Content
          className={cn(panelClasses, className)}
          onOpenAutoFocus={focusInitial}
          onCloseAutoFocus={focusReturn}
          aria-modal="true"
          {...(description ? {} : { 'aria-describedby': undefined })}
        >
          <DialogPrimitive.Title className="text-xl font-semibold text-white">{title}</DialogPrimitive.Title>
          {description ? (
            <DialogPrimitive.Description asChild>
              <div className="mt-2 text-sm text-zinc-300">{description}</div>
            </DialogPrimitive.Description>
          ) : null}
          <div className="mt-5">{children}</div>
        </DialogPrimitive.Content>
      </DialogPrimitive.Portal>
    </DialogPrimitive.Root>
  );
}
