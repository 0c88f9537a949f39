import { useId, useRef, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { fieldClasses } from '@/components/ui/input';
import { cn } from '@/lib/cn';

export interface SecretDialogProps {
  /** The secret to show; the dialog is open while there is one. */
  secret: string | null;
  title: string;
  /** What the secret is, as its field's label. */
  label: string;
  /** Why it is shown only now. */
  note: string;
  onClose: () => void;
}

/**
 * A secret the server sends only once (a new API key, a webhook's signing
 * secret): shown in a read-only field with a Copy button, and a note that it
 * will not be shown again. Only Done or Escape close it, and the secret lives
 * only as long as the dialog.
 */
export function SecretDialog({ secret, title, label, note, onClose }: SecretDialogProps) {
  const id = useId();
  const field = useRef<HTMLTextAreaElement>(null);
  const [copied, setCopied] = useState<'yes' | 'failed' | null>(null);
  const close = () => {
    setCopied(null);
    onClose();
  };
  const copy = async () => {
    if (!secret) return;
    try {
      await navigator.clipboard.writeText(secret);
      setCopied('yes');
    } catch {
      // The clipboard may be refused (permissions, an insecure page): the text is selected to copy by hand.
      field.current?.select();
      setCopied('failed');
    }
  };
  return (
    // An alert dialog: a stray click beside it must not throw away a secret that is never shown again.
    <Dialog
      open={secret !== null}
      onClose={close}
      role="alertdialog"
      title={title}
      description={<strong className="font-semibold text-amber-200">{note}</strong>}
      initialFocus={field}
    >
      <div className="grid gap-2">
        <label htmlFor={`${id}-secret`} className="text-sm font-medium text-zinc-200">
          {label}
        </label>
        <div className="flex flex-col gap-2 sm:flex-row sm:items-start">
          {/* Wrapped whole, not scrolled inside a one-line field: the whole secret is seen, on a phone too. */}
          <textarea
            id={`${id}-secret`}
            ref={field}
            readOnly
            rows={2}
            value={secret ?? ''}
            onFocus={(event) => event.currentTarget.select()}
            className={cn(fieldClasses, 'resize-none font-mono break-all')}
            spellCheck={false}
          />
          <Button variant="secondary" onClick={() => void copy()}>
            {copied === 'yes' ? 'Copied' : 'Copy'}
          </Button>
        </div>
        <p role="status" className="min-h-5 text-sm text-zinc-300">
          {copied === 'yes'
            ? 'Copied to your clipboard.'
            : copied === 'failed'
              ? 'Could not copy. The text is selected: copy it with your keyboard.'
              : ''}
        </p>
      </div>
      <div className="mt-4 flex justify-end">
        <Button onClick={close}>Done</Button>
      </div>
    </Dialog>
  );
}
