import type { Track } from '@tunesmith/shared/tracks';
import { useRef } from 'react';
import { useUser } from '@/lib/auth';
import { LikeButton } from './like-button';
import { TrackCard } from './track-card';
import { trackTitle } from './track-title';
import { usePlayReport } from './use-play-report';

/**
 * A track card in the community's lists (the gallery, Liked): its creator when they have a public
 * profile, a like button with the count, and plays reported once the threshold is played.
 */
export function CommunityTrackCard({ track }: { track: Track }) {
  const audio = useRef<HTMLAudioElement>(null);
  const { user } = useUser();
  usePlayReport(audio, track, Boolean(user));
  const title = trackTitle(track);
  return (
    <TrackCard
      track={track}
      // Durations come from the API: no audio is fetched before play.
      preload={track.duration ? 'none' : 'metadata'}
      audioRef={audio}
      actions={
        <div className="flex items-center justify-between gap-2 text-sm text-zinc-300">
          <span className="min-w-0 truncate">
            {track.creator ? `by ${track.creator.displayName}` : 'by an anonymous creator'}
          </span>
          <span className="flex shrink-0 items-center gap-1">
            <span className="text-xs text-zinc-400">
              {track.plays} {track.plays === 1 ? 'play' : 'plays'}
            </span>
            <LikeButton track={track} title={title} />
          </span>
        </div>
      }
    />
  );
}
