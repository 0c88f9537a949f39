import { trackSubtitle } from '@tunesmith/shared/track-values';
import type { Track } from '@tunesmith/shared/tracks';
import type { ReactNode, RefObject } from 'react';
import { Link } from 'react-router';
import { Card } from '@/components/ui/card';
import { AudioPlayer } from './audio-player';
import { ShareButton } from './share-button';
import { trackTitle } from './track-title';
import { trackTypeName } from './track-type';

/** A card's track; `peaksUrl` draws the waveform where the caller has it (the status poll does not). */
export type TrackCardTrack = Pick<Track, 'id' | 'title' | 'tags' | 'duration' | 'type' | 'audioUrl'> &
  Partial<Pick<Track, 'peaksUrl' | 'creator'>>;

/**
 * A track in the gallery or a library: title, tags, player, duration, type and
 * a share action. `preload` is the player's (the gallery fetches no audio before play).
 */
export function TrackCard({
  track,
  preload,
  actions,
  audioRef,
  titleId,
}: {
  track: TrackCardTrack;
  preload?: 'metadata' | 'none';
  /** A row above the footer (the community's like button and creator). */
  actions?: ReactNode;
  /** Handed the player's audio element (plays are reported from it). */
  audioRef?: RefObject<HTMLAudioElement | null>;
  /** The title's id, for the actions that name the track they act on. */
  titleId?: string;
}) {
  const title = trackTitle(track);
  return (
    <Card className="flex flex-col gap-4 p-5">
      <div className="flex items-start justify-between gap-3">
        <div className="min-w-0">
          <h3 id={titleId} className="line-clamp-2 text-lg font-semibold text-white">
            {title}
          </h3>
          <p className="text-sm text-fuchsia-300">{trackSubtitle(track.type)}</p>
          {track.creator ? (
            <p className="text-sm text-zinc-400">
              by{' '}
              <Link to={`/@${track.creator.handle}`} className="text-violet-300 hover:underline">
                {track.creator.displayName}
              </Link>
            </p>
          ) : null}
        </div>
        <ShareButton trackId={track.id} label={`Share ${title}`} />
      </div>
      {track.tags ? <p className="line-clamp-2 text-sm text-zinc-300">{track.tags}</p> : null}
      {track.audioUrl ? (
        <AudioPlayer
          src={track.audioUrl}
          title={title}
          duration={track.duration}
          peaksUrl={track.peaksUrl}
          preload={preload}
          audioRef={audioRef}
        />
      ) : null}
      {actions}
      <div className="mt-auto flex items-center justify-between text-xs text-zinc-400">
        <span>{track.duration != null ? `${Math.round(track.duration)}s` : '—'}</span>
        <span className="rounded-full bg-white/10 px-2 py-0.5 text-zinc-200">
          {trackTypeName(track.type)}
        </span>
      </div>
    </Card>
  );
}
