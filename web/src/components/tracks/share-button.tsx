import { Button } from '@/components/ui/button';
import { shareTrack } from './share-track';

/**
 * Copies a track's full share link. The visible text is Share; `label` gives
 * the button a longer accessible name where several tracks sit side by side.
 */
export function ShareButton({ trackId, label }: { trackId: string; label?: string }) {
  return (
    <Button variant="secondary" size="sm" onClick={() => shareTrack(trackId)} aria-label={label}>
      <svg
        aria-hidden="true"
        viewBox="0 0 24 24"
        className="size-4"
        fill="none"
        stroke="currentColor"
        strokeWidth="2"
      >
        <path d="M4 12v7a1 1 0 0 0 1 1h14a1 1 0 0 0 1-1v-7M16 6l-4-4-4 4M12 2v13" />
      </svg>
      Share
    </Button>
  );
}
