/**
 * The mixer's Web Audio graph: one source per stem, each through its own gain
 * into one output, all on the one clock of their context. The live mixer
 * (`engine.ts`) and the drift test (`web/e2e/stems-drift.spec.ts`, an
 * OfflineAudioContext) build and start it with these same functions.
 */

export interface MixerGraph {
  context: BaseAudioContext;
  buffers: readonly AudioBuffer[];
  /** One per stem, in the buffers' order. */
  gains: GainNode[];
}

/** Each stem's gain node, connected to `destination` (the context's, unless given). */
export function buildMixerGraph(
  context: BaseAudioContext,
  buffers: readonly AudioBuffer[],
  destination: AudioNode = context.destination,
): MixerGraph {
  const gains = buffers.map(() => {
    const gain = context.createGain();
    gain.connect(destination);
    return gain;
  });
  return { context, buffers, gains };
}

/**
 * Starts every stem at the same context time `when`, each from `offset`
 * seconds into its audio: one call to `start` per source with the same two
 * numbers, so the context lines them up to the sample, and they stay so, since
 * they run on its clock. Returns the sources, to stop them.
 */
export function startStems(graph: MixerGraph, when: number, offset: number): AudioBufferSourceNode[] {
  return graph.buffers.map((buffer, index) => {
    const source = graph.context.createBufferSource();
    source.buffer = buffer;
    source.connect(graph.gains[index] as GainNode);
    source.start(when, Math.min(Math.max(offset, 0), buffer.duration));
    return source;
  });
}

/** Stops and lets go of the sources `startStems` started. */
export function stopStems(sources: readonly AudioBufferSourceNode[]): void {
  for (const source of sources) {
    source.onended = null;
    try {
      source.stop();
    } catch {
      // A source that never started (its context closed first) has nothing to stop.
    }
    source.disconnect();
  }
}

/** Seconds a change of gain takes to settle: fast enough to feel immediate, slow enough not to click. */
const GAIN_RAMP_SECONDS = 0.015;

/**
 * Sets each stem's gain, from now (`at` when given); `immediate` for a graph
 * that has not played yet.
 */
export function setStemGains(
  graph: MixerGraph,
  values: readonly number[],
  immediate = false,
  at?: number,
): void {
  const now = at ?? graph.context.currentTime;
  graph.gains.forEach((gain, index) => {
    const value = values[index] ?? 0;
    gain.gain.cancelScheduledValues(now);
    if (immediate) gain.gain.setValueAtTime(value, now);
    else gain.gain.setTargetAtTime(value, now, GAIN_RAMP_SECONDS / 3);
  });
}
