import { useSyncExternalStore } from 'react';

/**
 * What a page shares with one of its players: where the audio is (published
 * by the player as it plays and seeks) and a way to seek it from elsewhere on
 * the page (the lyrics view). Only the parts that read the time re-render as
 * it moves.
 */
export interface PlayerLink {
  /** Seconds into the audio. */
  time(): number;
  subscribe(onChange: () => void): () => void;
  /** Moves the player to `seconds`; nothing happens before a player is attached. */
  seek(seconds: number): void;
  /** The player: reports its time and takes seeks while it is mounted. */
  attach(seek: (seconds: number) => void): () => void;
  publish(seconds: number): void;
}

export function createPlayerLink(): PlayerLink {
  let now = 0;
  let seeker: ((seconds: number) => void) | undefined;
  const listeners = new Set<() => void>();
  return {
    time: () => now,
    subscribe(onChange) {
      listeners.add(onChange);
      return () => listeners.delete(onChange);
    },
    seek(seconds) {
      seeker?.(seconds);
    },
    attach(seek) {
      seeker = seek;
      return () => {
        if (seeker === seek) seeker = undefined;
      };
    },
    publish(seconds) {
      if (seconds === now) return;
      now = seconds;
      for (const listener of listeners) listener();
    },
  };
}

/** The linked player's time, in seconds. */
export function usePlayerTime(link: PlayerLink): number {
  return useSyncExternalStore(link.subscribe, link.time, link.time);
}
