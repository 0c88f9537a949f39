import { type KeyboardEvent, type RefObject, useEffect, useRef } from 'react';
import WaveSurfer from 'wavesurfer.js';
import { cn } from '@/lib/cn';
import { formatTime } from '@/lib/format';
import { loadPeaks, peaksFileKey } from './peaks';
import { seekTargetForKey } from './seek-keys';
import { waveformColours } from './waveform-style';

/** The waveform's height in pixels; the player reserves it before this code arrives. */
export const WAVEFORM_HEIGHT = 48;

export interface WaveformSeekProps {
  /** The track's peaks link (audiowaveform JSON v2). */
  peaksUrl: string;
  /** The player's own audio element: the waveform follows and seeks it, and never loads audio itself. */
  media: RefObject<HTMLAudioElement | null>;
  /** Seconds, when known; else the peaks' own length. */
  duration: number | null;
  /** The playhead, in seconds. */
  current: number;
  /** Used in the slider's accessible name. */
  title: string;
  /** Moves the playhead (keyboard). A click on the waveform seeks the audio element directly. */
  onSeek(seconds: number): void;
  /** The waveform is drawn: the player hides its plain slider. */
  onReady(): void;
  /** No waveform (the peaks could not be fetched or read): the player keeps its plain slider. */
  onError(): void;
  className?: string;
}

/**
 * The track's waveform as the player's seek bar (wavesurfer.js, drawn from
 * precomputed peaks over the player's audio element): click to seek, the
 * played part in colour, and a slider for the keyboard and screen readers
 * (arrows ±5 s, Page Up/Down ±30 s, Home, End; the time as "1:05 of 3:20").
 * Loaded on demand: only a player with peaks imports it.
 */
export default function WaveformSeek({
  peaksUrl,
  media,
  duration,
  current,
  title,
  onSeek,
  onReady,
  onError,
  className,
}: WaveformSeekProps) {
  const container = useRef<HTMLDivElement>(null);
  // The latest link and callbacks, read when the peaks arrive; a refreshed signature is the same file.
  const latest = useRef({ peaksUrl, duration, onReady, onError });
  latest.current = { peaksUrl, duration, onReady, onError };
  const file = peaksFileKey(peaksUrl);

  useEffect(() => {
    if (!file) return;
    let wavesurfer: WaveSurfer | null = null;
    let cancelled = false;
    loadPeaks(latest.current.peaksUrl)
      .then((peaks) => {
        const element = container.current;
        const audio = media.current;
        if (cancelled || !element || !audio) return;
        const known = latest.current.duration;
        wavesurfer = WaveSurfer.create({
          container: element,
          media: audio,
          peaks: peaks.channels,
          duration: known && known > 0 ? known : peaks.duration,
          height: WAVEFORM_HEIGHT,
          ...waveformColours,
          cursorWidth: 2,
          barWidth: 2,
          barGap: 1,
          barRadius: 2,
          normalize: true,
          interact: true,
          dragToSeek: false,
        });
        wavesurfer.on('ready', () => latest.current.onReady());
        wavesurfer.on('error', () => latest.current.onError());
      })
      .catch(() => {
        if (!cancelled) latest.current.onError();
      });
    return () => {
      cancelled = true;
      wavesurfer?.destroy();
    };
  }, [file, media]);

  const total = duration ?? 0;
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const target = seekTargetForKey(event.key, current, total);
    if (target === null) return;
    event.preventDefault();
    onSeek(target);
  };

  return (
    <div
      role="slider"
      tabIndex={0}
      aria-label={`Seek ${title}`}
      aria-valuemin={0}
      aria-valuemax={Math.ceil(total)}
      aria-valuenow={Math.min(Math.floor(current), Math.ceil(total))}
      aria-valuetext={`${formatTime(current)} of ${formatTime(total)}`}
      aria-orientation="horizontal"
      onKeyDown={onKeyDown}
      className={cn(
        'w-full cursor-pointer rounded-md focus-visible:outline-2 focus-visible:outline-offset-4 focus-visible:outline-violet-300',
        className,
      )}
      style={{ height: WAVEFORM_HEIGHT }}
      ref={container}
    />
  );
}
