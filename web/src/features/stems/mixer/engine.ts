import { buildMixerGraph, type MixerGraph, setStemGains, startStems, stopStems } from './graph';

/** How far (seconds) the stems may be from the player's place before they are started there again. */
const RESYNC_SECONDS = 0.25;

/** The browser's audio context; a function so that tests can give their own. */
export type ContextFactory = () => AudioContext;

/** Fetches and decodes one stem's audio into the context's sample rate. */
async function decodeStem(context: BaseAudioContext, url: string, signal: AbortSignal): Promise<AudioBuffer> {
  const response = await fetch(url, { signal });
  if (!response.ok) throw new Error(`The stem could not be fetched (${response.status})`);
  return context.decodeAudioData(await response.arrayBuffer());
}

/**
 * The stems, played in place of the track's own audio. The player's audio
 * element stays what the listener drives (Play, the waveform's seek, the
 * keys, the time shown) but silent; the stems follow it: they start where it
 * is when it plays or is sought, and stop when it pauses, waits for data or
 * ends. All stems sound from one AudioContext, started together at one context
 * time (`graph.ts`), so they stay together to the sample.
 */
export class StemsMixer {
  private readonly context: AudioContext;
  private graph: MixerGraph | null = null;
  private sources: AudioBufferSourceNode[] = [];
  /** The context time the sources started at, and the place in the audio they started from. */
  private started: { when: number; offset: number } | null = null;
  private gains: readonly number[] = [];
  private wasMuted = false;
  private attached = false;
  private readonly abort = new AbortController();

  constructor(
    private readonly audio: HTMLAudioElement,
    createContext: ContextFactory = () => new AudioContext(),
  ) {
    this.context = createContext();
  }

  /** Fetches and decodes every stem (in the order given); rejects if any cannot be. */
  async load(urls: readonly string[]): Promise<void> {
    const buffers = await Promise.all(urls.map((url) => decodeStem(this.context, url, this.abort.signal)));
    this.graph = buildMixerGraph(this.context, buffers);
    setStemGains(this.graph, this.gains, true);
  }

  /**
   * Lets the context start: called from the listener's own press (a browser may start audio only
   * then), and again whenever the stems start.
   */
  resume(): void {
    if (this.context.state === 'suspended') void this.context.resume().catch(() => undefined);
  }

  /**
   * The stems take over from the element's sound, where it is, playing or not. The element is
   * silent only while the context runs: a browser that has not let the context start yet (it
   * waits for a press) keeps playing the track as mixed until it does.
   */
  attach(): void {
    if (this.attached || !this.graph) return;
    this.attached = true;
    this.wasMuted = this.audio.muted;
    this.context.addEventListener('statechange', this.silenceTrack);
    this.silenceTrack();
    for (const event of ['play', 'playing', 'seeked'] as const)
      this.audio.addEventListener(event, this.follow);
    for (const event of ['pause', 'waiting', 'seeking', 'ended', 'emptied'] as const)
      this.audio.addEventListener(event, this.halt);
    this.audio.addEventListener('timeupdate', this.check);
    if (!this.audio.paused) this.follow();
  }

  /** Each stem's gain (from `stemGains`), applied at once. */
  setGains(values: readonly number[]): void {
    this.gains = values;
    if (this.graph) setStemGains(this.graph, values);
  }

  /** Where the stems are (seconds into the track), or null when they are not playing. */
  position(): number | null {
    return this.started ? this.started.offset + (this.context.currentTime - this.started.when) : null;
  }

  /** Stops the stems, gives the element its sound back and lets the context go. */
  dispose(): void {
    this.abort.abort();
    this.stop();
    if (this.attached) {
      for (const event of ['play', 'playing', 'seeked'] as const)
        this.audio.removeEventListener(event, this.follow);
      for (const event of ['pause', 'waiting', 'seeking', 'ended', 'emptied'] as const)
        this.audio.removeEventListener(event, this.halt);
      this.audio.removeEventListener('timeupdate', this.check);
      this.context.removeEventListener('statechange', this.silenceTrack);
      this.audio.muted = this.wasMuted;
      this.attached = false;
    }
    void this.context.close().catch(() => undefined);
  }

  /** Starts the stems at the element's place (again, if they play). */
  private readonly follow = () => {
    if (!this.graph || this.audio.paused || this.audio.seeking) return;
    this.stop();
    this.resume();
    const when = this.context.currentTime;
    const offset = this.audio.currentTime;
    this.sources = startStems(this.graph, when, offset);
    this.started = { when, offset };
  };

  private readonly halt = () => this.stop();

  private readonly silenceTrack = () => {
    this.audio.muted = this.context.state === 'running' ? true : this.wasMuted;
  };

  /** The element is the listener's clock: stems that have strayed from it (a stall) start again where it is. */
  private readonly check = () => {
    // A context that is not running has a clock that stands still: nothing to compare yet.
    if (this.context.state !== 'running') return;
    const position = this.position();
    if (position === null) {
      if (!this.audio.paused && !this.audio.seeking) this.follow();
      return;
    }
    if (Math.abs(position - this.audio.currentTime) > RESYNC_SECONDS) this.follow();
  };

  private stop(): void {
    stopStems(this.sources);
    this.sources = [];
    this.started = null;
  }
}
