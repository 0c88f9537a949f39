import type { ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';

export interface ConfirmRemovalProps {
  open: boolean;
  onCancel: () => void;
  title: string;
  description: ReactNode;
  confirmLabel: string;
  onConfirm: () => void;
  pending: boolean;
}

/**
 * The confirmation before a key is revoked or an endpoint deleted: the shared
 * ConfirmDialog's look and behaviour on the Dialog this section already loads.
 * Importing ConfirmDialog would split it from the admin pages into a chunk of
 * its own, which the first page's route table would then name (decision 018).
 */
export function ConfirmRemoval({
  open,
  onCancel,
  title,
  description,
  confirmLabel,
  onConfirm,
  pending,
}: ConfirmRemovalProps) {
  return (
    <Dialog open={open} onClose={onCancel} role="alertdialog" title={title} description={description}>
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button variant="outline" onClick={onCancel} disabled={pending}>
          Cancel
        </Button>
        <Button variant="destructive" onClick={onConfirm} disabled={pending}>
          {pending ? 'Working...' : confirmLabel}
        </Button>
      </div>
    </Dialog>
  );
}
