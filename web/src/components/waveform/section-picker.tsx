import { lazy, Suspense, useId, useRef, useState } from 'react';
import { pauseOthers, useExclusiveAudio } from '@/components/tracks/audio-player';
import { Button } from '@/components/ui/button';
import { describeSection, isDrawableSection } from './section';

/** The waveform and wavesurfer.js's regions arrive with the first picker that has peaks. */
const SectionWaveform = lazy(() => import('./section-waveform'));

/** The picker's height in pixels, reserved before its waveform arrives. */
export const SECTION_PICKER_HEIGHT = 72;

/** Props of the repaint dialog's section picker: drag a region on the track's waveform. */
export interface SectionPickerProps {
  /** The track's peaks link (audiowaveform JSON v2); without it there is nothing to draw. */
  peaksUrl: string | null;
  /** The track's audio, for hearing the section. */
  src: string | null;
  /** Seconds. */
  duration: number;
  /** The selected section, in seconds. */
  start: number;
  end: number;
  onChange(section: { start: number; end: number }): void;
  /** The track's title, for accessible names. */
  title?: string;
}

/** Where the section lies on the track, as a plain bar: the picker without peaks, and while they load. */
function SectionBar({ start, end, duration }: { start: number; end: number; duration: number }) {
  const drawable = duration > 0 && isDrawableSection({ start, end }, duration);
  return (
    <div
      aria-hidden="true"
      className="absolute inset-x-0 top-1/2 h-3 -translate-y-1/2 rounded-full bg-zinc-700"
    >
      {drawable ? (
        <div
          className="absolute inset-y-0 rounded-full bg-fuchsia-500/70"
          style={{ left: `${(start / duration) * 100}%`, right: `${100 - (end / duration) * 100}%` }}
        />
      ) : null}
    </div>
  );
}

/**
 * The repaint dialog's section picker: the track's waveform with the section
 * as a region to drag, resize or draw anew by dragging across the waveform
 * (wavesurfer.js's Regions plugin, loaded on demand), its place in words, and
 * Play section to hear it. The region is controlled: `start`/`end` draw it and
 * every drag reports a section within the track and at least a second long.
 * The keyboard path is the dialog's typed start and end; without peaks the
 * picker shows the section as a plain bar.
 */
export function SectionPicker({
  peaksUrl,
  src,
  duration,
  start,
  end,
  onChange,
  title = 'track',
}: SectionPickerProps) {
  const captionId = useId();
  const audio = useRef<HTMLAudioElement>(null);
  const [playing, setPlaying] = useState(false);
  const [failedFile, setFailedFile] = useState<string | null>(null);
  useExclusiveAudio(audio);

  const peaksFile = peaksUrl?.split('?')[0] ?? null;
  const showWaveform = Boolean(peaksUrl && peaksFile && failedFile !== peaksFile && duration > 0);
  const drawable = isDrawableSection({ start, end }, duration);

  const togglePlay = async () => {
    const element = audio.current;
    if (!element) return;
    if (playing) {
      element.pause();
      return;
    }
    element.currentTime = start;
    try {
      await element.play();
    } catch {
      setPlaying(false);
    }
  };

  return (
    <div className="grid gap-2">
      <figure
        aria-label={`Waveform of ${title}: drag across it to choose the section`}
        aria-describedby={captionId}
        className="grid gap-2"
      >
        <div
          className="relative w-full touch-none rounded-md bg-white/5"
          style={{ height: SECTION_PICKER_HEIGHT }}
        >
          {showWaveform && peaksUrl ? (
            <Suspense fallback={<SectionBar start={start} end={end} duration={duration} />}>
              <SectionWaveform
                peaksUrl={peaksUrl}
                media={audio}
                duration={duration}
                start={start}
                end={end}
                onChange={onChange}
                onError={() => setFailedFile(peaksFile)}
              />
            </Suspense>
          ) : (
            <SectionBar start={start} end={end} duration={duration} />
          )}
        </div>
        <figcaption id={captionId} aria-live="polite" className="text-sm text-zinc-300 tabular-nums">
          {drawable ? describeSection({ start, end }) : 'Choose a section within the track.'}
        </figcaption>
      </figure>
      {src ? (
        <div className="flex justify-end">
          {/* biome-ignore lint/a11y/useMediaCaption: generated music tracks have no spoken content to caption */}
          <audio
            ref={audio}
            src={src}
            preload="none"
            onPlay={() => {
              pauseOthers(audio.current);
              setPlaying(true);
            }}
            onPause={() => setPlaying(false)}
            onEnded={() => setPlaying(false)}
            onTimeUpdate={() => {
              const element = audio.current;
              if (element && !element.paused && element.currentTime >= end) element.pause();
            }}
          />
          <Button variant="outline" size="sm" onClick={togglePlay} disabled={!drawable && !playing}>
            {playing ? 'Stop' : 'Play section'}
          </Button>
        </div>
      ) : null}
    </div>
  );
}
