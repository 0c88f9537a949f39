import { useEffect, useRef, useState } from 'react';
import { cn } from '@/lib/cn';
import { useReducedMotion } from '@/lib/use-reduced-motion';

const VIDEO_SRC = '/media/background.webm';
const POSTER_SRC = '/media/background-poster.jpg';

/**
 * How long after the page's load event the video waits. A page's start-up
 * (its code, its data, its first renders) is over by then on a phone; the
 * video's decoding and a compositor frame for each of its frames would
 * otherwise share the phone's cores with it.
 */
const VIDEO_AFTER_LOAD_MS = 3000;

/** Runs a callback a while after the page has loaded, once the browser is idle. */
function afterPageSettles(callback: () => void): () => void {
  let idleHandle: number | undefined;
  let timer: number | undefined;
  const whenIdle = () => {
    if (typeof window.requestIdleCallback === 'function') {
      idleHandle = window.requestIdleCallback(callback, { timeout: 2000 });
    } else {
      callback();
    }
  };
  const schedule = () => {
    timer = window.setTimeout(whenIdle, VIDEO_AFTER_LOAD_MS);
  };
  if (document.readyState === 'complete') schedule();
  else window.addEventListener('load', schedule, { once: true });
  return () => {
    window.removeEventListener('load', schedule);
    if (idleHandle !== undefined) window.cancelIdleCallback?.(idleHandle);
    if (timer !== undefined) window.clearTimeout(timer);
  };
}

/**
 * The looping, muted background video behind every page. A CSS gradient and
 * a tiny poster paint first; the video is attached only once the page has
 * loaded and settled, and never plays when the user prefers reduced motion.
 */
export function BackgroundVideo() {
  const reducedMotion = useReducedMotion();
  const [attached, setAttached] = useState(false);
  const [playing, setPlaying] = useState(false);
  const video = useRef<HTMLVideoElement>(null);

  useEffect(() => {
    if (reducedMotion || attached) return;
    return afterPageSettles(() => setAttached(true));
  }, [reducedMotion, attached]);

  useEffect(() => {
    const element = video.current;
    if (!element) return;
    if (reducedMotion) element.pause();
    else element.play()?.catch(() => setPlaying(false));
  }, [reducedMotion]);

  return (
    <div aria-hidden="true" className="pointer-events-none fixed inset-0 -z-10 overflow-hidden bg-zinc-950">
      {/* Blurred once at build (scripts/make-background-poster.ts): a blur filter over the whole screen slows every
          phone's first paint. */}
      <div className="absolute inset-0 bg-[url(/media/background-blurred.jpg)] bg-cover bg-center opacity-50" />
      <div className="absolute inset-0 bg-[radial-gradient(ellipse_at_top_left,rgba(168,85,247,0.35),transparent_55%),radial-gradient(ellipse_at_bottom_right,rgba(236,72,153,0.25),transparent_55%)]" />
      {attached ? (
        <video
          ref={video}
          aria-hidden="true"
          tabIndex={-1}
          autoPlay={!reducedMotion}
          muted
          loop
          playsInline
          preload="auto"
          poster={POSTER_SRC}
          src={VIDEO_SRC}
          onPlaying={() => setPlaying(true)}
          onPause={() => setPlaying(false)}
          className={cn(
            'absolute inset-0 size-full object-cover transition-opacity duration-1000',
            playing && !reducedMotion ? 'opacity-70' : 'opacity-0',
          )}
        />
      ) : null}
      <div className="absolute inset-0 bg-gradient-to-b from-zinc-950/45 via-zinc-950/70 to-zinc-950/95" />
    </div>
  );
}
