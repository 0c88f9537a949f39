import type { EditKind } from '@tunesmith/shared/tracks';
import { ExtendDialog, type StudioDialogProps } from './extend-dialog';
import { RepaintDialog } from './repaint-dialog';
import { VariationDialog } from './variation-dialog';

/** The dialog of one studio action. */
export function StudioDialog({ kind, ...props }: StudioDialogProps & { kind: EditKind }) {
  switch (kind) {
    case 'extend':
      return <ExtendDialog {...props} />;
    case 'repaint':
      return <RepaintDialog {...props} />;
    default:
      return <VariationDialog {...props} />;
  }
}

/** The studio's actions in the order the screens offer them. */
export const studioKinds = ['extend', 'repaint', 'variation'] as const satisfies readonly EditKind[];
