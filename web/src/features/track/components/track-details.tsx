import { analysisLabel } from '@tunesmith/shared/musical-keys';
import { NO_LYRICS, trackDurationText, trackLyricsText, trackTagsText } from '@tunesmith/shared/track-text';
import { isInProgress, type Track } from '@tunesmith/shared/tracks';
import { lazy, type ReactNode, type RefObject, Suspense, useRef, useState } from 'react';
import { Link } from 'react-router';
import { AudioPlayer } from '@/components/tracks/audio-player';
import { LikeButton, usePlayReport } from '@/components/tracks/community-track-card';
import { createPlayerLink, type PlayerLink } from '@/components/tracks/player-link';
import { ShareButton } from '@/components/tracks/share-button';
import { StatusBadge, VisibilityBadge } from '@/components/tracks/track-badges';
import { trackTitle } from '@/components/tracks/track-title';
import { trackTypeName } from '@/components/tracks/track-type';
import { buttonClasses } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { useUser } from '@/lib/auth';
import { formatDate } from '@/lib/format';
import { trackLyricsLrcUrl, useTrackLyrics } from '../api/get-track-lyrics';
import { AboutTrackSkeleton } from './about-track-skeleton';
import { PlainLyrics } from './lyric-rows';
import { TrackFamily } from './track-family';

/** The lyrics in time load with their own code, once there are some (the visitor's first JS stays small). */
const TimedLyricsList = lazy(() => import('./timed-lyrics'));

/**
 * The lyrics section: the lyrics in time once they are timed, until then, and
 * for a track without them, the same lines as text. Both are drawn as the
 * same rows in the same box, and the .lrc download sits beside the heading,
 * so nothing on the page moves when the timing arrives.
 */
export function LyricsInTime({
  trackId,
  createdAt,
  link,
  lyrics,
}: {
  trackId: string;
  /** When the track was made: a new one's lyrics are asked for again until they are timed. */
  createdAt: string;
  link: PlayerLink;
  /** The owner's lyrics, as written. */
  lyrics: string;
}) {
  const timed = useTrackLyrics(trackId, createdAt);
  const lines = timed.data?.lines ?? [];
  const plain = <PlainLyrics text={lyrics} />;
  return (
    <section aria-labelledby={LYRICS_HEADING_ID}>
      <div className="flex items-baseline justify-between gap-3">
        <LyricsHeading />
        {lines.length > 0 ? (
          <a
            href={trackLyricsLrcUrl(trackId)}
            download
            className="shrink-0 text-sm text-violet-300 underline-offset-4 hover:underline focus-visible:outline-2 focus-visible:outline-violet-300"
          >
            Download lyrics (.lrc)
          </a>
        ) : null}
      </div>
      {lines.length > 0 ? (
        <Suspense fallback={plain}>
          <TimedLyricsList text={lyrics} lines={lines} link={link} label={LYRICS_HEADING_ID} />
        </Suspense>
      ) : (
        plain
      )}
    </section>
  );
}

const LYRICS_HEADING_ID = 'track-lyrics';

const LyricsHeading = () => (
  <h2 id={LYRICS_HEADING_ID} className="text-lg font-semibold text-white">
    Lyrics
  </h2>
);

/** The id of the page's heading (the track's title): the owner's actions are described by it. */
export const TRACK_TITLE_ID = 'track-title';

/** What the page shows under the player: the track's stems, given the player's audio element. */
export type StemsSlot = (audio: RefObject<HTMLAudioElement | null>) => ReactNode;

/** What the page shows in place of the player while the track is not playable. */
function PlaybackState({ track, link, stems }: { track: Track; link: PlayerLink; stems?: StemsSlot }) {
  const audio = useRef<HTMLAudioElement>(null);
  const { user } = useUser();
  usePlayReport(audio, track, Boolean(user));
  if (track.status === 'completed' && track.audioUrl) {
    const player = (
      <AudioPlayer
        src={track.audioUrl}
        title={trackTitle(track)}
        duration={track.duration}
        peaksUrl={track.peaksUrl}
        link={link}
        audioRef={audio}
      />
    );
    return stems ? (
      <div className="grid gap-4">
        {player}
        {stems(audio)}
      </div>
    ) : (
      player
    );
  }
  if (track.status === 'failed') {
    return (
      <p role="status" className="rounded-xl border border-red-400/30 bg-red-500/10 p-4 text-red-200">
        Track generation failed
      </p>
    );
  }
  if (isInProgress(track.status)) {
    return (
      <p
        role="status"
        className="flex items-center gap-3 rounded-xl border border-sky-400/30 bg-sky-500/10 p-4 text-sky-100"
      >
        <span
          aria-hidden="true"
          className="size-5 animate-spin rounded-full border-2 border-white/20 border-t-sky-300 motion-reduce:animate-none"
        />
        Track is still generating...
      </p>
    );
  }
  return null;
}

/**
 * The public page of one track: title, badges, Share, the owner's actions
 * (given by the page), the player, details, lyrics, what made it (given by
 * the page), then where it came from and its versions. The versions come
 * last: a shared track's document (decision 026) paints the page before they
 * are known, and what arrives last moves nothing a reader has started on.
 */
export function TrackDetails({
  track,
  actions,
  about,
  stems,
}: {
  track: Track;
  /** Shown under the player of a playable track: its stems and their mixer (given by the page). */
  stems?: StemsSlot;
  /** Shown under the header for the owner (the studio's actions); given the id of the title. */
  actions?: (describedBy: string) => ReactNode;
  /** Shown after the lyrics: what made the track and its license ("About this track"). */
  about?: ReactNode;
}) {
  const title = trackTitle(track);
  const lyrics = trackLyricsText(track.lyrics);
  const [link] = useState(createPlayerLink);
  return (
    <Card className="grid gap-6 p-6 sm:p-8">
      <header className="flex flex-wrap items-start justify-between gap-4">
        <div className="grid min-w-0 gap-3">
          <h1 id={TRACK_TITLE_ID} className="text-3xl font-bold text-white sm:text-4xl">
            {title}
          </h1>
          <p className="text-zinc-300">
            {track.creator ? (
              <>
                by{' '}
                <Link to={`/@${track.creator.handle}`} className="text-violet-300 hover:underline">
                  {track.creator.displayName}
                </Link>
              </>
            ) : (
              'by an anonymous creator'
            )}
            <span className="text-zinc-400"> · {track.plays === 1 ? '1 play' : `${track.plays} plays`}</span>
          </p>
          <div className="flex flex-wrap gap-2">
            <StatusBadge status={track.status} />
            <VisibilityBadge visibility={track.visibility} />
          </div>
        </div>
        <div className="flex items-center gap-2">
          <LikeButton track={track} title={title} />
          <ShareButton trackId={track.id} />
        </div>
      </header>

      {actions?.(TRACK_TITLE_ID)}

      <PlaybackState track={track} link={link} stems={stems} />

      <dl className="grid gap-4 text-sm sm:grid-cols-2">
        <div className="sm:col-span-2">
          <dt className="text-zinc-400">Tags</dt>
          <dd className="mt-1 text-zinc-100">{trackTagsText(track.tags)}</dd>
        </div>
        <div>
          <dt className="text-zinc-400">Duration</dt>
          <dd className="mt-1 text-zinc-100">{trackDurationText(track.duration)}</dd>
        </div>
        <div>
          <dt className="text-zinc-400">Generation type</dt>
          <dd className="mt-1 text-zinc-100">{trackTypeName(track.type)}</dd>
        </div>
        <div>
          <dt className="text-zinc-400">Created</dt>
          <dd className="mt-1 text-zinc-100">{formatDate(track.createdAt)}</dd>
        </div>
        {/* Every finished track has the row (a dash until measured), so the shared page's first frame holds it too. */}
        {track.status === 'completed' ? (
          <div>
            <dt className="text-zinc-400">Tempo and key</dt>
            <dd className="mt-1 text-zinc-100">{track.analysis ? analysisLabel(track.analysis) : '—'}</dd>
          </div>
        ) : null}
      </dl>

      {lyrics && track.status === 'completed' && track.audioUrl && !track.instrumental ? (
        // The lyrics in time, and their code, come after the page: the same lines stand as text until then.
        <LyricsInTime trackId={track.id} createdAt={track.createdAt} link={link} lyrics={lyrics} />
      ) : (
        <section aria-labelledby={LYRICS_HEADING_ID}>
          <LyricsHeading />
          {lyrics ? <PlainLyrics text={lyrics} /> : <p className="mt-2 text-sm text-zinc-400">{NO_LYRICS}</p>}
        </section>
      )}

      {about}

      <TrackFamily track={track} />
    </Card>
  );
}

/** Shown for an unknown id or a private track of someone else. */
export function TrackNotFound() {
  return (
    <Card className="mx-auto max-w-xl p-8 text-center">
      <h1 className="text-3xl font-bold text-white">Track Not Found</h1>
      <p className="mt-4 text-zinc-300">The track you're looking for doesn't exist or has been removed.</p>
      <Link to="/" className={buttonClasses('primary', 'md', 'mt-8')}>
        Go Home
      </Link>
    </Card>
  );
}

/**
 * The track page's place while the track loads: the same card, header, player,
 * details, lyrics and "About this track" at their final sizes, so the page does
 * not grow (and the footer does not jump) when the track arrives.
 */
export function TrackDetailsSkeleton() {
  return (
    <Card aria-busy="true" className="grid gap-6 p-6 sm:p-8">
      <span role="status" className="sr-only">
        Loading track
      </span>
      <div aria-hidden="true" className="flex flex-wrap items-start justify-between gap-4">
        <div className="grid min-w-0 flex-1 gap-3">
          <Skeleton className="h-9 w-2/3 sm:h-10" />
          <div className="flex gap-2">
            <Skeleton className="h-6 w-24 rounded-full" />
            <Skeleton className="h-6 w-16 rounded-full" />
          </div>
        </div>
        <Skeleton className="h-8 w-20" />
      </div>
      <div aria-hidden="true" className="flex items-center gap-3">
        <Skeleton className="size-10 shrink-0 rounded-full" />
        <div className="flex min-w-0 flex-1 flex-col gap-1">
          <Skeleton className="h-12 w-full" />
          <Skeleton className="h-4 w-full" />
        </div>
      </div>
      <div aria-hidden="true" className="grid gap-4 text-sm sm:grid-cols-2">
        {['sm:col-span-2', '', '', ''].map((span, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: placeholders with nothing else to tell them apart
          <div key={i} className={`grid gap-1 ${span}`}>
            <Skeleton className="h-5 w-20" />
            <Skeleton className="h-5 w-40" />
          </div>
        ))}
      </div>
      <div aria-hidden="true" className="grid gap-2">
        <Skeleton className="h-7 w-24" />
        <Skeleton className="h-5 w-2/3" />
      </div>
      <AboutTrackSkeleton owner={false} />
    </Card>
  );
}
