import { lazy, type RefObject, Suspense, useEffect, useRef, useState } from 'react';
import { formatTime } from '@/lib/format';
import { useNearViewport } from '@/lib/use-near-viewport';
import type { PlayerLink } from './player-link';

/** The waveform and wavesurfer.js arrive only with the first player that has peaks. */
const WaveformSeek = lazy(() => import('@/components/waveform/waveform-seek'));

/** Every mounted player's audio element: starting one pauses the others. */
const players = new Set<HTMLAudioElement>();

/** Pauses every registered player but this one (call it when this one starts). */
export function pauseOthers(playing: HTMLAudioElement | null) {
  for (const other of players) {
    if (other !== playing && !other.paused) other.pause();
  }
}

/**
 * Joins an audio element to the one-player-at-a-time set for as long as it is
 * mounted (the section picker's preview uses it too); it pauses when unmounted.
 */
export function useExclusiveAudio(audio: RefObject<HTMLAudioElement | null>) {
  useEffect(() => {
    const element = audio.current;
    if (element) players.add(element);
    return () => {
      if (element) players.delete(element);
      element?.pause();
    };
  }, [audio]);
}

/** The seek slider's maximum when the audio's duration is not known yet. */
const UNKNOWN_DURATION_MAX = 100;

export interface AudioPlayerProps {
  src: string;
  /** Used in the controls' accessible names. */
  title?: string;
  /** Duration in seconds when known before the audio's metadata loads. */
  duration?: number | null;
  /**
   * The track's peaks (audiowaveform JSON): with them the seek bar is the
   * track's waveform; without them, or when they cannot be fetched, a plain slider.
   */
  peaksUrl?: string | null;
  /**
   * What the element fetches before play: its metadata (the duration, which the
   * studio's tools read), or nothing, where a page shows many players and has
   * their durations from the API (the gallery).
   * @default 'metadata'
   */
  preload?: 'metadata' | 'none';
  /** Shares this player's time with the page and lets the page seek it (the lyrics view). */
  link?: PlayerLink;
  /** Handed the player's audio element (a track's stems follow it and sound in its place). */
  audioRef?: RefObject<HTMLAudioElement | null>;
}

/**
 * Play/pause, a seek bar and elapsed/total time as m:ss. One player plays at a
 * time. The seek bar is the waveform when the track has peaks, else a slider.
 */
export function AudioPlayer({
  src,
  title = 'track',
  duration: knownDuration,
  peaksUrl,
  preload = 'metadata',
  link,
  audioRef,
}: AudioPlayerProps) {
  const ownAudio = useRef<HTMLAudioElement>(null);
  const audio = audioRef ?? ownAudio;
  const [playing, setPlaying] = useState(false);
  const [current, setCurrent] = useState(0);
  const [mediaDuration, setMediaDuration] = useState<number | null>(null);
  // A new source (a refreshed presigned link or another track) starts paused at 0:00.
  const [loadedSrc, setLoadedSrc] = useState(src);
  if (src !== loadedSrc) {
    setLoadedSrc(src);
    setPlaying(false);
    setCurrent(0);
    setMediaDuration(null);
  }
  // The waveform replaces the slider once drawn; peaks that fail leave the slider for that file.
  // A file is its link without the query: a refreshed signature names the same peaks.
  const peaksFile = peaksUrl?.split('?')[0] ?? null;
  const [waveform, setWaveform] = useState<{ file: string; state: 'ready' | 'failed' } | null>(null);
  const waveformState = peaksFile && waveform?.file === peaksFile ? waveform.state : 'loading';
  // A page of players (the gallery) draws only the waveforms the visitor reaches, one idle moment at a time.
  const waveformBox = useRef<HTMLDivElement>(null);
  const waveformNear = useNearViewport(waveformBox);

  const duration = mediaDuration ?? (knownDuration && knownDuration > 0 ? knownDuration : null);
  const max = duration ? Math.ceil(duration) : UNKNOWN_DURATION_MAX;

  useExclusiveAudio(audio);

  const readDuration = () => {
    const value = audio.current?.duration;
    if (value !== undefined && Number.isFinite(value) && value > 0) setMediaDuration(value);
  };

  const toggle = async () => {
    const element = audio.current;
    if (!element) return;
    if (playing) {
      element.pause();
      setPlaying(false);
      return;
    }
    try {
      await element.play();
      setPlaying(true);
    } catch {
      setPlaying(false);
    }
  };

  const seek = (value: number) => {
    if (audio.current) audio.current.currentTime = value;
    setCurrent(value);
  };
  useEffect(() => {
    link?.publish(current);
  }, [link, current]);
  useEffect(
    () =>
      link?.attach((value) => {
        if (audio.current) audio.current.currentTime = value;
        setCurrent(value);
      }),
    [link, audio],
  );

  const seekSlider = (
    <input
      type="range"
      min={0}
      max={max}
      step={1}
      value={Math.min(Math.floor(current), max)}
      onChange={(event) => seek(Number(event.target.value))}
      aria-label={`Seek ${title}`}
      aria-valuetext={`${formatTime(current)} of ${formatTime(duration ?? 0)}`}
      className="h-1.5 w-full cursor-pointer accent-fuchsia-500 focus-visible:outline-2 focus-visible:outline-offset-4 focus-visible:outline-violet-300"
    />
  );

  return (
    <div className="flex items-center gap-3">
      {/* biome-ignore lint/a11y/useMediaCaption: generated music tracks have no spoken content to caption */}
      <audio
        ref={audio}
        src={src}
        preload={preload}
        onLoadedMetadata={readDuration}
        onDurationChange={readDuration}
        onTimeUpdate={() => setCurrent(audio.current?.currentTime ?? 0)}
        // A seek from the waveform shows at once, before the audio at the new place has arrived.
        onSeeking={() => setCurrent(audio.current?.currentTime ?? 0)}
        onPlay={() => {
          pauseOthers(audio.current);
          setPlaying(true);
        }}
        onPause={() => setPlaying(false)}
        // The seek bar stays where the audio is (at the end; a seek to the end ends it too); Play starts over.
        onEnded={() => {
          setPlaying(false);
          setCurrent(audio.current?.currentTime ?? 0);
        }}
      />
      <button
        type="button"
        onClick={toggle}
        aria-label={`${playing ? 'Pause' : 'Play'} ${title}`}
        className="grid size-10 shrink-0 place-items-center rounded-full bg-gradient-to-br from-violet-500 to-fuchsia-500 text-white shadow-md transition-transform hover:scale-105 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-violet-300"
      >
        {playing ? (
          <svg aria-hidden="true" viewBox="0 0 24 24" className="size-5" fill="currentColor">
            <path d="M7 5h4v14H7zM13 5h4v14h-4z" />
          </svg>
        ) : (
          <svg aria-hidden="true" viewBox="0 0 24 24" className="ml-0.5 size-5" fill="currentColor">
            <path d="M8 5v14l11-7z" />
          </svg>
        )}
      </button>
      <div className="flex min-w-0 flex-1 flex-col gap-1">
        {peaksUrl && peaksFile ? (
          // The waveform's height (48 px), reserved while its code and peaks load, so nothing moves
          // when it is drawn; a class, not a style, so a prerendered frame holds it too.
          <div ref={waveformBox} className="relative flex h-12 items-center">
            {waveformState === 'ready' ? null : seekSlider}
            {waveformState === 'failed' || !waveformNear ? null : (
              <Suspense fallback={null}>
                <WaveformSeek
                  peaksUrl={peaksUrl}
                  media={audio}
                  duration={duration}
                  current={current}
                  title={title}
                  onSeek={seek}
                  onReady={() => setWaveform({ file: peaksFile, state: 'ready' })}
                  onError={() => setWaveform({ file: peaksFile, state: 'failed' })}
                  className={waveformState === 'ready' ? 'absolute inset-0' : 'invisible absolute inset-0'}
                />
              </Suspense>
            )}
          </div>
        ) : (
          seekSlider
        )}
        <div className="flex justify-between text-xs text-zinc-400 tabular-nums">
          <span>{formatTime(current)}</span>
          <span>{formatTime(duration ?? 0)}</span>
        </div>
      </div>
    </div>
  );
}
