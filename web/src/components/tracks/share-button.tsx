import { Button } from '@/components/ui/button';
import { Icon } from '@/components/ui/icon';
import { shareTrack } from './share-track';

/**
 * Copies a track's full share link. The visible text is Share; `label` gives
 * the button a longer accessible name where several tracks sit side by side.
 */
export function ShareButton({ trackId, label }: { trackId: string; label?: string }) {
  return (
    <Button variant="secondary" size="sm" onClick={() => shareTrack(trackId)} aria-label={label}>
      <Icon d="M4 12v7a1 1 0 0 0 1 1h14a1 1 0 0 0 1-1v-7M16 6l-4-4-4 4M12 2v13" />
      Share
    </Button>
  );
}
