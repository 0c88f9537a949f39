import { analysisSteps, type TempoAndKey } from '../domain/audio/analysis';
import { type LoudnessMeasurement, loudnessSteps } from '../domain/audio/loudness';
import type { PcmSource } from '../domain/audio/pcm';
import { computePeaks, type WaveformPeaks } from '../domain/audio/peaks';
import { runInSlices } from './slices';

/**
 * Where a track's audio is measured: in this thread, giving the event loop a
 * turn now and then ({@link inThreadAudioWork}), or on worker threads
 * (adapters/audio/audio-workers.ts), where the measures run at once.
 */
export interface AudioWork {
  /** Starts what the work needs (worker threads, say) while the audio is on its way. */
  prepare?(): void;
  loudness(pcm: PcmSource): Promise<LoudnessMeasurement>;
  tempoAndKey(pcm: PcmSource): Promise<TempoAndKey | undefined>;
  peaks(pcm: PcmSource): Promise<WaveformPeaks>;
}

export const inThreadAudioWork: AudioWork = {
  loudness: (pcm) => runInSlices(loudnessSteps(pcm)),
  tempoAndKey: (pcm) => runInSlices(analysisSteps(pcm)),
  peaks: async (pcm) => computePeaks(pcm),
};
