import type { Stem } from '@tunesmith/shared/stems';
import { type RefObject, useCallback, useEffect, useRef, useState } from 'react';
import { Button } from '@/components/ui/button';
import { cn } from '@/lib/cn';
import { stemLabel, stemsMessages } from '../messages';
import { type ContextFactory, StemsMixer as Engine } from '../mixer/engine';
import { defaultStemControl, isAudible, type StemControl, stemGains } from '../mixer/mix';

export interface StemsMixerProps {
  /** The stems to mix, each with its audio. */
  stems: readonly PlayableStem[];
  /** The player's audio element: the stems follow it and sound in its place. */
  audio: RefObject<HTMLAudioElement | null>;
  /**
   * Asks for the stems again (their links are short-lived): Try again loads what it answers, so a page
   * left open past the links' lifetime can still play its stems.
   */
  refresh?: () => Promise<readonly PlayableStem[] | undefined>;
  /** The audio context to play in (tests give their own). */
  createContext?: ContextFactory;
}

/** A stem with its audio. */
export type PlayableStem = Stem & { audioUrl: string };

type EngineState = 'idle' | 'loading' | 'ready' | 'failed';

/**
 * Mute, solo and a volume per stem. Nothing is fetched until the listener
 * plays the track or changes a stem; then the stems load (the track plays as
 * mixed meanwhile) and take over from the track's own sound where it is.
 * Loaded on demand: only a track with stems imports it.
 */
export default function StemsMixer({ stems, audio, refresh, createContext }: StemsMixerProps) {
  const [controls, setControls] = useState<StemControl[]>(() => stems.map(() => defaultStemControl));
  const [state, setState] = useState<EngineState>('idle');
  const engine = useRef<Engine | null>(null);
  const latest = useRef({ stems, controls, createContext });
  latest.current = { stems, controls, createContext };

  const engage = useCallback(
    (fresh?: readonly PlayableStem[]) => {
      const element = audio.current;
      if (!element || engine.current) return;
      const mixer = new Engine(element, latest.current.createContext);
      engine.current = mixer;
      mixer.setGains(stemGains(latest.current.controls));
      setState('loading');
      mixer
        .load((fresh ?? latest.current.stems).map((stem) => stem.audioUrl))
        .then(() => {
          if (engine.current !== mixer) return;
          mixer.attach();
          setState('ready');
        })
        .catch(() => {
          if (engine.current !== mixer) return;
          mixer.dispose();
          engine.current = null;
          setState('failed');
        });
    },
    [audio],
  );

  // The first play of the track brings the stems in; leaving the page gives the track its sound back.
  useEffect(() => {
    const element = audio.current;
    const onPlay = () => engage();
    element?.addEventListener('play', onPlay);
    // The stems' code arrived while the track was already playing: they come in now.
    if (element && !element.paused) engage();
    return () => {
      element?.removeEventListener('play', onPlay);
      engine.current?.dispose();
      engine.current = null;
    };
  }, [audio, engage]);

  useEffect(() => {
    engine.current?.setGains(stemGains(controls));
  }, [controls]);

  const change = (index: number, next: Partial<StemControl>) => {
    setControls((current) => current.map((control, i) => (i === index ? { ...control, ...next } : control)));
    engage();
    // A press on a stem's control is a moment a browser lets audio start.
    engine.current?.resume();
  };

  return (
    <div className="grid gap-2">
      <ul className="grid gap-1">
        {stems.map((stem, index) => {
          const control = controls[index] ?? defaultStemControl;
          const label = stemLabel(stem.name);
          const audible = isAudible(controls, index);
          return (
            <li
              key={stem.name}
              className={cn(
                'grid grid-cols-[1fr_auto_auto] items-center gap-x-2 gap-y-1 rounded-lg px-2 py-1 sm:grid-cols-[6rem_auto_auto_1fr]',
                audible ? 'text-zinc-100' : 'text-zinc-500',
              )}
            >
              <span className="truncate text-sm font-medium">{label}</span>
              <button
                type="button"
                aria-pressed={control.muted}
                aria-label={stemsMessages.mute(stem.name)}
                onClick={() => change(index, { muted: !control.muted })}
                className={toggleClasses(control.muted, 'bg-red-600/80')}
              >
                Mute
              </button>
              <button
                type="button"
                aria-pressed={control.solo}
                aria-label={stemsMessages.solo(stem.name)}
                onClick={() => change(index, { solo: !control.solo })}
                className={toggleClasses(control.solo, 'bg-amber-500/80')}
              >
                Solo
              </button>
              <input
                type="range"
                min={0}
                max={100}
                step={5}
                value={Math.round(control.volume * 100)}
                onChange={(event) => change(index, { volume: Number(event.target.value) / 100 })}
                aria-label={stemsMessages.volume(stem.name)}
                aria-valuetext={`${Math.round(control.volume * 100)}%`}
                className="col-span-3 h-6 w-full cursor-pointer accent-fuchsia-500 sm:col-span-1 focus-visible:outline-2 focus-visible:outline-offset-4 focus-visible:outline-violet-300"
              />
            </li>
          );
        })}
      </ul>
      <MixerStatus
        state={state}
        onRetry={() => {
          setState('loading');
          void (refresh ? refresh().catch(() => undefined) : Promise.resolve(undefined)).then((fresh) =>
            engage(fresh),
          );
        }}
      />
    </div>
  );
}

function toggleClasses(pressed: boolean, pressedColour: string) {
  return cn(
    'h-8 rounded-md border px-2 text-xs font-semibold',
    'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-violet-300',
    pressed
      ? `border-transparent text-white ${pressedColour}`
      : 'border-white/20 text-zinc-300 hover:bg-white/10',
  );
}

/** What the stems are doing, said once for screen readers (a polite status, not a stream of updates). */
function MixerStatus({ state, onRetry }: { state: EngineState; onRetry: () => void }) {
  return (
    <div className="flex min-h-8 flex-wrap items-center gap-3 text-xs text-zinc-400">
      <p role="status">
        {state === 'idle' ? stemsMessages.hint : null}
        {state === 'loading' ? stemsMessages.loading : null}
        {state === 'failed' ? stemsMessages.loadFailed : null}
      </p>
      {state === 'failed' ? (
        <Button variant="outline" size="sm" onClick={onRetry}>
          {stemsMessages.tryAgain}
        </Button>
      ) : null}
    </div>
  );
}
