import type { Track } from '@tunesmith/shared/tracks';
import { lazy, Suspense } from 'react';
import RemixPanel from '@/features/remix/components/remix-panel';

/** The create feature's restyle form, with the schema library it checks with: only once it is opened. */
const RemixDialog = lazy(() => import('@/features/create/components/remix-dialog'));

/**
 * A track's remixes on its page (decision 060): the remix feature's panel in a chunk that loads after
 * the page, and the restyle form when someone opens it (a visitor's page loads no schema library).
 */
export default function TrackRemix({
  track,
  owner,
  signedIn,
  onStarted,
}: {
  track: Track;
  owner: boolean;
  signedIn: boolean;
  onStarted: (id: string) => void;
}) {
  return (
    <RemixPanel
      track={track}
      owner={owner}
      signedIn={signedIn}
      remixForm={(close) => (
        <Suspense fallback={null}>
          <RemixDialog track={track} onClose={close} onStarted={onStarted} />
        </Suspense>
      )}
    />
  );
}
