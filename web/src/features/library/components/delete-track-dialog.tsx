import type { Track } from '@tunesmith/shared/tracks';
import { useRef } from 'react';
import { trackTitle } from '@/components/tracks/track-title';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';

export interface DeleteTrackDialogProps {
  /** The track to delete; the dialog is closed when null. */
  track: Track | null;
  pending: boolean;
  onCancel: () => void;
  onConfirm: (track: Track) => void;
}

/** Asks before deleting, because deleting is permanent. Cancel has the focus, so Enter does no harm. */
export function DeleteTrackDialog({ track, pending, onCancel, onConfirm }: DeleteTrackDialogProps) {
  const cancel = useRef<HTMLButtonElement>(null);
  const title = trackTitle(track);
  return (
    <Dialog
      open={track !== null}
      onClose={onCancel}
      role="alertdialog"
      initialFocus={cancel}
      title="Delete this track?"
      description={`"${title}" and its audio will be deleted permanently. This cannot be undone.`}
    >
      <div className="flex flex-wrap justify-end gap-2">
        <Button ref={cancel} variant="outline" onClick={onCancel} disabled={pending}>
          Cancel
        </Button>
        <Button
          variant="destructive"
          onClick={() => track && onConfirm(track)}
          disabled={pending}
          aria-busy={pending}
        >
          {pending ? 'Deleting...' : 'Delete Track'}
        </Button>
      </div>
    </Dialog>
  );
}
