import { vi } from 'vitest';

/** An AudioParam that takes every value it is set to at once. */
class FakeParam {
  value = 1;
  setValueAtTime(value: number) {
    this.value = value;
  }
  setTargetAtTime(value: number) {
    this.value = value;
  }
  cancelScheduledValues() {}
}

export class FakeGain {
  gain = new FakeParam();
  connect = vi.fn();
  disconnect = vi.fn();
}

export class FakeSource {
  buffer: { duration: number } | null = null;
  started: { when: number; offset: number } | null = null;
  stopped = false;
  onended: (() => void) | null = null;
  connect = vi.fn();
  disconnect = vi.fn();
  start(when: number, offset: number) {
    this.started = { when, offset };
  }
  stop() {
    this.stopped = true;
  }
}

/**
 * The part of an AudioContext the mixer uses, recording what it was asked:
 * happy-dom has no Web Audio (the real graph is measured in Chromium,
 * `web/e2e/stems-drift.spec.ts`).
 */
export class FakeAudioContext extends EventTarget {
  currentTime = 0;
  state: 'suspended' | 'running' | 'closed' = 'running';
  /** Whether `resume` starts the context (a browser may wait for a press). */
  resumable = true;
  destination = {};
  gains: FakeGain[] = [];
  sources: FakeSource[] = [];
  decoded: number[] = [];
  createGain() {
    const gain = new FakeGain();
    this.gains.push(gain);
    return gain;
  }
  createBufferSource() {
    const source = new FakeSource();
    this.sources.push(source);
    return source;
  }
  async decodeAudioData(bytes: ArrayBuffer) {
    this.decoded.push(bytes.byteLength);
    return { duration: 200 };
  }
  async resume() {
    if (!this.resumable || this.state !== 'suspended') return;
    this.state = 'running';
    this.dispatchEvent(new Event('statechange'));
  }
  async close() {
    this.state = 'closed';
  }
  /** The sources that are playing now. */
  playing() {
    return this.sources.filter((source) => source.started && !source.stopped);
  }
  /** Each stem's gain. */
  levels() {
    return this.gains.map((gain) => gain.gain.value);
  }
}

/**
 * A factory for the mixer that keeps its context for the test; a mixer made after the last one
 * closed its context (a retry) gets a new one, as a browser's would.
 */
export function fakeAudio() {
  let current = new FakeAudioContext();
  return {
    get context() {
      return current;
    },
    createContext: () => {
      if (current.state === 'closed') current = new FakeAudioContext();
      return current as unknown as AudioContext;
    },
  };
}
