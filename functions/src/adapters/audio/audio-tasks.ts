/**
 * The work an audio worker thread does (audio-worker.ts runs it; the pool in
 * audio-workers.ts sends it): measuring and encoding audio held in memory the
 * threads share, so no task copies the track.
 */
import { analyse, type TempoAndKey } from '../../domain/audio/analysis';
import { type LoudnessMeasurement, measureLoudness, withGain } from '../../domain/audio/loudness';
import { DEFAULT_BITRATES, type OpusPart, opusInput, opusPacketSteps } from '../../domain/audio/ogg-opus';
import { AudioFormatError, type PlanarPcm, planarSource } from '../../domain/audio/pcm';
import { computePeaks, type WaveformPeaks } from '../../domain/audio/peaks';
import { loadOpus, opusEncoder } from './opus-encoder';

export type AudioTask =
  | { kind: 'loudness'; audio: PlanarPcm }
  | { kind: 'tempoAndKey'; audio: PlanarPcm }
  | { kind: 'peaks'; audio: PlanarPcm }
  /** One part of the stream copy: the audio at `gainDb`, as Opus packets. */
  | { kind: 'opus'; audio: PlanarPcm; gainDb: number; bitrate?: number; part: OpusPart };

export interface OpusPackets {
  packets: Uint8Array[];
  /** The encoder's delay: the file's pre-skip. */
  lookahead: number;
  vendor: string;
}

export interface AudioResults {
  loudness: LoudnessMeasurement;
  tempoAndKey: TempoAndKey | undefined;
  peaks: WaveformPeaks;
  opus: OpusPackets;
}

export type AudioResult<T extends AudioTask> = AudioResults[T['kind']];

/** Runs a task to its end (a worker thread has nothing else to give a turn to). */
export async function runAudioTask(task: AudioTask): Promise<AudioResults[AudioTask['kind']]> {
  const source = planarSource(task.audio);
  switch (task.kind) {
    case 'loudness':
      return measureLoudness(source);
    case 'tempoAndKey':
      return analyse(source);
    case 'peaks':
      return computePeaks(source);
    case 'opus': {
      const { pcm, channels } = opusInput(withGain(source, task.gainDb));
      const encoder = opusEncoder(await loadOpus(), {
        channels,
        bitrate: task.bitrate ?? DEFAULT_BITRATES[channels],
      });
      try {
        const steps = opusPacketSteps(pcm, encoder, task.part);
        for (;;) {
          const next = steps.next();
          if (next.done) return { packets: next.value, lookahead: encoder.lookahead, vendor: encoder.vendor };
        }
      } finally {
        encoder.close();
      }
    }
  }
}

/** An error as it crosses between threads (its class does not survive the trip; its name does). */
export interface CarriedError {
  name: string;
  message: string;
  stack?: string;
}

export const carryError = (error: unknown): CarriedError =>
  error instanceof Error
    ? { name: error.name, message: error.message, ...(error.stack ? { stack: error.stack } : {}) }
    : { name: 'Error', message: String(error) };

/** The error again, as the class the caller may test for where it is one of ours. */
export function restoreError(carried: CarriedError): Error {
  if (carried.name === 'Audio.Format')
    return Object.assign(new AudioFormatError(carried.message), stackOf(carried));
  const error = new Error(carried.message);
  error.name = carried.name;
  return Object.assign(error, stackOf(carried));
}

const stackOf = (carried: CarriedError) => (carried.stack ? { stack: carried.stack } : {});
