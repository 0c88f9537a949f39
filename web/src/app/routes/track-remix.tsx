import type { Track } from '@tunesmith/shared/tracks';
import RemixDialog from '@/features/create/components/remix-dialog';
import RemixPanel from '@/features/remix/components/remix-panel';

/**
 * A track's remixes on its page (decision 060): the remix feature's panel with the create
 * feature's restyle form, in one chunk that loads after the page.
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
      remixForm={(close) => <RemixDialog track={track} onClose={close} onStarted={onStarted} />}
    />
  );
}
