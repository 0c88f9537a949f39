import type { Playlist } from '@tunesmith/shared/community';
import { trackSubtitle } from '@tunesmith/shared/track-values';
import { createRef, useEffect, useMemo, useRef, useState } from 'react';
import { Link } from 'react-router';
import { AudioPlayer } from '@/components/tracks/audio-player';
import { trackTitle } from '@/components/tracks/track-title';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Icon } from '@/components/ui/icon';
import { cn } from '@/lib/cn';
import { formatTime } from '@/lib/format';
import { playlistText } from '../messages';

/** The line that announces the track now playing, as a screen reader hears it. */
export const nowPlayingText = (index: number, count: number, title: string) =>
  `Now playing ${index + 1} of ${count}: ${title}`;

/**
 * A playlist's tracks, each with its player and waveform, played through in order: when one ends
 * the next starts; Previous and Next move along the list, and the track now playing is announced.
 */
export function PlaylistPlayer({ playlist }: { playlist: Playlist }) {
  const { tracks } = playlist;
  const playable = useMemo(() => tracks.filter((track) => track.audioUrl), [tracks]);
  // One audio element per playable track, handed to its player.
  const audios = useMemo(() => playable.map(() => createRef<HTMLAudioElement>()), [playable]);
  const [current, setCurrent] = useState<number | null>(null);
  const [playing, setPlaying] = useState(false);
  const currentRef = useRef(current);
  currentRef.current = current;

  const playAt = (index: number) => {
    const audio = audios[index]?.current;
    if (!audio) return;
    audio.currentTime = 0;
    audio.play().catch(() => setPlaying(false));
  };

  useEffect(() => {
    const cleanups = audios.map((ref, index) => {
      const audio = ref.current;
      if (!audio) return () => {};
      const onPlay = () => {
        setCurrent(index);
        setPlaying(true);
      };
      const onPause = () => {
        if (currentRef.current === index) setPlaying(false);
      };
      const onEnded = () => {
        if (index + 1 < audios.length) {
          const next = audios[index + 1]?.current;
          if (next) {
            next.currentTime = 0;
            next.play().catch(() => setPlaying(false));
          }
        }
      };
      audio.addEventListener('play', onPlay);
      audio.addEventListener('pause', onPause);
      audio.addEventListener('ended', onEnded);
      return () => {
        audio.removeEventListener('play', onPlay);
        audio.removeEventListener('pause', onPause);
        audio.removeEventListener('ended', onEnded);
      };
    });
    return () => {
      for (const cleanup of cleanups) cleanup();
    };
  }, [audios]);

  if (tracks.length === 0) {
    return (
      <p className="rounded-xl border border-white/10 p-6 text-center text-zinc-300">
        {playlistText.emptyPlaylist}
      </p>
    );
  }

  const nowPlaying = current !== null ? playable[current] : undefined;
  const pause = () => {
    if (current !== null) audios[current]?.current?.pause();
  };

  return (
    <div className="grid gap-6">
      <fieldset
        aria-label="Playlist controls"
        className="sticky top-2 z-10 flex flex-wrap items-center gap-2 rounded-xl border border-white/10 bg-zinc-900/90 p-3 backdrop-blur"
      >
        <Button
          variant="outline"
          size="sm"
          onClick={() => current !== null && playAt(current - 1)}
          disabled={current === null || current === 0}
        >
          <Icon d={['M19 20 9 12l10-8v16z', 'M5 19V5']} round /> Previous
        </Button>
        {playing ? (
          <Button size="sm" onClick={pause}>
            Pause
          </Button>
        ) : (
          <Button size="sm" onClick={() => playAt(current ?? 0)} disabled={playable.length === 0}>
            {current === null ? 'Play All' : 'Play'}
          </Button>
        )}
        <Button
          variant="outline"
          size="sm"
          onClick={() => playAt(current === null ? 0 : current + 1)}
          disabled={playable.length === 0 || (current !== null && current + 1 >= playable.length)}
        >
          Next <Icon d={['m5 4 10 8-10 8V4z', 'M19 5v14']} round />
        </Button>
        <p aria-live="polite" className="min-w-0 flex-1 truncate text-sm text-zinc-200">
          {nowPlaying ? nowPlayingText(current ?? 0, playable.length, trackTitle(nowPlaying)) : ''}
        </p>
      </fieldset>
      <ol className="grid gap-4" aria-label="Tracks">
        {tracks.map((track, position) => {
          const index = playable.indexOf(track);
          const title = trackTitle(track);
          const isCurrent = index !== -1 && index === current;
          return (
            <li key={track.id} aria-current={isCurrent ? 'true' : undefined}>
              <Card className={cn('grid gap-3 p-4', isCurrent && 'border-violet-400/70')}>
                <div className="flex items-start justify-between gap-3">
                  <div className="min-w-0">
                    <h2 className="text-base font-semibold text-white">
                      <span className="mr-2 text-zinc-400">{position + 1}.</span>
                      <Link to={`/track/${track.id}`} className="hover:underline">
                        {title}
                      </Link>
                    </h2>
                    <p className="text-sm text-fuchsia-300">
                      {track.creator ? `${track.creator.displayName} · ` : ''}
                      {trackSubtitle(track.type)}
                    </p>
                  </div>
                  <span className="shrink-0 text-xs text-zinc-400">
                    {track.duration != null ? formatTime(track.duration) : '—'}
                  </span>
                </div>
                {track.audioUrl && index !== -1 ? (
                  <AudioPlayer
                    src={track.audioUrl}
                    title={title}
                    duration={track.duration}
                    peaksUrl={track.peaksUrl}
                    preload="none"
                    audioRef={audios[index]}
                  />
                ) : null}
              </Card>
            </li>
          );
        })}
      </ol>
    </div>
  );
}
