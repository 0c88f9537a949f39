import { type RefObject, useEffect, useRef } from 'react';
import WaveSurfer from 'wavesurfer.js';
import RegionsPlugin, { type Region } from 'wavesurfer.js/plugins/regions';
import { loadPeaks, peaksFileKey } from './peaks';
import { clampSection, isDrawableSection, SECTION_MIN_SECONDS, type Section } from './section';
import { waveformColours } from './waveform-style';

/** The drawn waveform's height in pixels (the picker reserves a little more around it). */
const HEIGHT = 64;
const REGION_COLOUR = 'rgba(217, 70, 239, 0.3)';
/** The region's edges (the plugin's default is a dark line, lost on a dark page). */
const HANDLE_COLOUR = '#f5d0fe';

function showHandles(region: Region) {
  for (const handle of region.element?.querySelectorAll<HTMLElement>('[part~="region-handle"]') ?? []) {
    handle.style.borderColor = HANDLE_COLOUR;
  }
}

export interface SectionWaveformProps {
  peaksUrl: string;
  /** The picker's audio element, so playing the section shows on the waveform; none without audio. */
  media: RefObject<HTMLAudioElement | null>;
  duration: number;
  start: number;
  end: number;
  onChange(section: Section): void;
  /** The peaks could not be fetched or read, or the waveform failed: the picker shows its plain bar. */
  onError(): void;
}

/**
 * The section picker's waveform (loaded on demand): one region for the
 * section, dragged and resized, at least a second long; dragging across empty
 * waveform draws a new one in its place. It reports sections clamped to the
 * track and follows `start`/`end` when they change (the dialog's typed values).
 */
export default function SectionWaveform({
  peaksUrl,
  media,
  duration,
  start,
  end,
  onChange,
  onError,
}: SectionWaveformProps) {
  const container = useRef<HTMLDivElement>(null);
  const region = useRef<Region | null>(null);
  /** Draws the section as the one region (once the waveform is ready); null before. */
  const place = useRef<((section: Section) => void) | null>(null);
  const latest = useRef({ peaksUrl, duration, start, end, onChange, onError });
  latest.current = { peaksUrl, duration, start, end, onChange, onError };
  const file = peaksFileKey(peaksUrl);

  useEffect(() => {
    if (!file) return;
    let wavesurfer: WaveSurfer | null = null;
    let cancelled = false;
    const report = (changed: Region) => {
      const { duration: total, onChange: change } = latest.current;
      const section = clampSection({ start: changed.start, end: changed.end }, total);
      // Draw the clamped section at once; the parent's answer (the same values) then changes nothing.
      changed.setOptions({ start: section.start, end: section.end });
      change(section);
    };
    loadPeaks(latest.current.peaksUrl)
      .then((peaks) => {
        const element = container.current;
        if (cancelled || !element) return;
        const regions = RegionsPlugin.create();
        wavesurfer = WaveSurfer.create({
          container: element,
          ...(media.current ? { media: media.current } : {}),
          peaks: peaks.channels,
          duration: latest.current.duration,
          height: HEIGHT,
          ...waveformColours,
          cursorWidth: 1,
          barWidth: 2,
          barGap: 1,
          barRadius: 2,
          normalize: true,
          // A click chooses nothing on its own; drags make and move the section.
          interact: false,
          plugins: [regions],
        });
        let adding = false;
        wavesurfer.on('error', () => latest.current.onError());
        wavesurfer.on('ready', () => {
          place.current = (section) => {
            if (region.current) {
              region.current.setOptions(section);
              return;
            }
            adding = true;
            region.current = regions.addRegion({
              ...section,
              color: REGION_COLOUR,
              drag: true,
              resize: true,
              minLength: SECTION_MIN_SECONDS,
            });
            adding = false;
            showHandles(region.current);
          };
          const { start: from, end: to, duration: total } = latest.current;
          if (isDrawableSection({ start: from, end: to }, total)) place.current({ start: from, end: to });
          regions.enableDragSelection({ color: REGION_COLOUR, minLength: SECTION_MIN_SECONDS });
        });
        regions.on('region-created', (created) => {
          if (adding) return;
          // One section at a time: a new drag replaces the old region.
          if (region.current && region.current !== created) region.current.remove();
          region.current = created;
          showHandles(created);
          report(created);
        });
        regions.on('region-updated', (updated) => {
          if (updated === region.current) report(updated);
        });
      })
      .catch(() => {
        if (!cancelled) latest.current.onError();
      });
    return () => {
      cancelled = true;
      region.current = null;
      place.current = null;
      wavesurfer?.destroy();
    };
  }, [file, media]);

  // Typed values move the region; values mid-edit (end before start, past the end) leave it where it is.
  useEffect(() => {
    if (!isDrawableSection({ start, end }, duration)) return;
    const current = region.current;
    if (current && current.start === start && current.end === end) return;
    place.current?.({ start, end });
  }, [start, end, duration]);

  return (
    <div ref={container} className="absolute inset-x-0 top-1/2 -translate-y-1/2" style={{ height: HEIGHT }} />
  );
}
