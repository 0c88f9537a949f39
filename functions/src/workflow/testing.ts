/** Fakes for the workflow's ports (unit tests here and in local/). */

import type { VorbisComment } from '../domain/audio/marking';
import type { PcmSource } from '../domain/audio/pcm';
import type {
  MusicJobKind,
  MusicJobStatus,
  MusicProvider,
  MusicResult,
  TranscribedWord,
} from '../domain/generations/music-provider';
import type {
  AudioStore,
  CallbackOutcome,
  CallbackStore,
  SiteIdentity,
  StreamEncoder,
  WorkflowLog,
} from './steps';

/** A PCM WAV of `seconds` of silence (44.1 kHz, 16-bit stereo). */
export function silentWav(seconds: number, sampleRate = 44100, channels = 2): Uint8Array {
  const dataSize = Math.round(seconds * sampleRate) * channels * 2;
  const buf = Buffer.alloc(44 + dataSize);
  buf.write('RIFF', 0);
  buf.writeUInt32LE(36 + dataSize, 4);
  buf.write('WAVE', 8);
  buf.write('fmt ', 12);
  buf.writeUInt32LE(16, 16);
  buf.writeUInt16LE(1, 20);
  buf.writeUInt16LE(channels, 22);
  buf.writeUInt32LE(sampleRate, 24);
  buf.writeUInt32LE(sampleRate * channels * 2, 28);
  buf.writeUInt16LE(channels * 2, 32);
  buf.writeUInt16LE(16, 34);
  buf.write('data', 36);
  buf.writeUInt32LE(dataSize, 40);
  return new Uint8Array(buf);
}

/** An audio store that serves `files` by URL and keeps what is stored (and its type) by key. */
export function fakeAudioStore(
  files: Map<string, Uint8Array>,
): AudioStore & { copies: Map<string, Uint8Array>; types: Map<string, string> } {
  const copies = new Map<string, Uint8Array>();
  const types = new Map<string, string>();
  return {
    copies,
    types,
    async fetch(url) {
      const bytes = files.get(url);
      if (!bytes) throw new Error(`404 ${url}`);
      return bytes;
    },
    async put(key, bytes, contentType) {
      copies.set(key, bytes);
      types.set(key, contentType);
      return `https://tracks.example/${key}`;
    },
    async keep(url, key, contentType) {
      const bytes = await this.fetch(url);
      return { bytes, stored: await this.put(key, bytes, contentType) };
    },
    async read(stored) {
      const bytes = copies.get(stored.replace('https://tracks.example/', ''));
      if (!bytes) throw new Error(`404 ${stored}`);
      return bytes;
    },
    async remove(key) {
      copies.delete(key);
    },
  };
}

/**
 * A stream encoder that keeps what it was given (the audio, read out, and the
 * comments) and makes a small stand-in file; `failWith` makes it throw.
 */
export function fakeStreamEncoder(): StreamEncoder & {
  inputs: { pcm: PcmSource; channels: Float32Array[]; comments: readonly VorbisComment[] }[];
  failWith?: Error;
} {
  const encoder: ReturnType<typeof fakeStreamEncoder> = {
    contentType: 'audio/ogg; codecs=opus',
    extension: '.opus',
    inputs: [],
    async encode(pcm, comments) {
      const channels = Array.from({ length: pcm.channels }, (_, c) => {
        const samples = new Float32Array(pcm.frames);
        pcm.read(c, 0, samples);
        return samples;
      });
      encoder.inputs.push({ pcm, channels, comments: await comments });
      if (encoder.failWith) throw encoder.failWith;
      return new TextEncoder().encode(`OggS copy of ${pcm.frames} frames`);
    },
  };
  return encoder;
}

/** The site a test's files name. */
export const testSite: SiteIdentity = {
  origin: 'https://tunesmith.example',
  name: async () => 'Tunesmith',
};

/** A log that keeps its warnings. */
export function recordingLog(): WorkflowLog & {
  warnings: { message: string; fields?: Record<string, unknown> }[];
} {
  const warnings: { message: string; fields?: Record<string, unknown> }[] = [];
  return {
    warnings,
    warn: (message, fields) => {
      warnings.push({ message, ...(fields ? { fields } : {}) });
    },
  };
}

export function inMemoryCallbackStore(): CallbackStore {
  const records = new Map<string, { taskToken?: string; outcome?: CallbackOutcome }>();
  return {
    async register(requestId, taskToken) {
      const r = records.get(requestId) ?? {};
      records.set(requestId, { ...r, taskToken });
      return r.outcome ? { outcome: r.outcome } : {};
    },
    async complete(requestId, outcome) {
      const r = records.get(requestId) ?? {};
      records.set(requestId, { ...r, outcome });
      return r.taskToken ? { taskToken: r.taskToken } : {};
    },
  };
}

export interface FakeJob {
  kind: MusicJobKind;
  status: MusicJobStatus;
  result?: MusicResult;
  /** A separation's stems (name → URL). */
  stems?: Record<string, string>;
  error?: Error;
  webhookUrl?: string;
  cancelled?: boolean;
  /** What the job was submitted with. */
  request?: unknown;
  /** The endpoint each status, result and cancel call named it by (undefined: the kind's default). */
  followedAt?: Array<string | undefined>;
}

/** A scripted provider: `next` decides each submitted job's fate. */
export function fakeMusicProvider(next: (n: number) => Omit<FakeJob, 'kind'>): MusicProvider & {
  jobs: Map<string, FakeJob>;
  submitErrors: Error[];
  /** What each transcription answers, in turn (nothing heard once they run out). */
  transcribed: TranscribedWord[][];
} {
  const transcribed: TranscribedWord[][] = [];
  const jobs = new Map<string, FakeJob>();
  const submitErrors: Error[] = [];
  let n = 0;
  const submit = async (kind: MusicJobKind, request: { webhookUrl?: string }) => {
    const { webhookUrl } = request;
    const error = submitErrors.shift();
    if (error) throw error;
    n += 1;
    const requestId = `req-${n}`;
    jobs.set(requestId, { kind, ...next(n), ...(webhookUrl ? { webhookUrl } : {}), request });
    return { requestId };
  };
  const job = (id: string, endpoint?: string) => {
    const j = jobs.get(id);
    if (!j) throw new Error(`unknown job ${id}`);
    j.followedAt = [...(j.followedAt ?? []), endpoint];
    return j;
  };
  return {
    jobs,
    submitErrors,
    submitTextToMusic: (r) => submit('text', r),
    submitAudioToMusic: (r) => submit('audio', r),
    submitExtend: (r) => submit('extend', r),
    submitRepaint: (r) => submit('repaint', r),
    submitStems: (r) => submit('stems', r),
    async stemsResult(id) {
      const j = job(id, 'fal-ai/demucs');
      if (j.error) throw j.error;
      if (!j.stems) throw new Error('no stems');
      return { stems: j.stems };
    },
    async status(_kind, id, endpoint) {
      return job(id, endpoint).status;
    },
    async result(_kind, id, endpoint) {
      const j = job(id, endpoint);
      if (j.error) throw j.error;
      if (!j.result) throw new Error('no result');
      return j.result;
    },
    async cancel(_kind, id, endpoint) {
      job(id, endpoint).cancelled = true;
    },
    async writeLyrics() {
      return '[verse]\nla la';
    },
    async transcribe() {
      return transcribed.shift() ?? [];
    },
    transcribed,
  };
}
