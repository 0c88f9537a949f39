import { DEFAULT_MODEL_ID, musicModel } from '@tunesmith/shared/models';

/**
 * The music provider port: text to music, audio to music (restyle), extend and
 * repaint a section of a track, job status and result, cancel, and the lyrics helper; plus the verifier of the provider's
 * webhooks. No vendor types: the fal adapter (adapters/fal) implements both.
 */

/** Which kind of job a request id belongs to (status and result calls need it). */
export type MusicJobKind = 'text' | 'audio' | 'extend' | 'repaint' | 'stems';

/** Who runs the model, as a track's provenance names it. */
export const MUSIC_PROVIDER_NAME = 'fal.ai';
/** The model of tracks made before there was a choice (provenance reads the track's own model). */
export const MUSIC_MODEL = 'ACE-Step';

/**
 * The ACE-Step endpoint of each kind of job (and Demucs for stems): where a
 * job is followed when the endpoint it was submitted to is not known.
 */
export const MUSIC_ENDPOINTS: Readonly<Record<MusicJobKind, string>> = {
  text: 'fal-ai/ace-step',
  audio: 'fal-ai/ace-step/audio-to-audio',
  extend: 'fal-ai/ace-step/audio-outpaint',
  repaint: 'fal-ai/ace-step/audio-inpaint',
  // Stems (decision 044): a finished track taken apart by Demucs.
  stems: 'fal-ai/demucs',
};

/**
 * The endpoint a job of `kind` made with `model` (a registered model's id;
 * absent or null for a track from before there was a choice) is submitted to,
 * and whose queue its status, result and cancel calls name. A model that does
 * not run that kind of job, or that is not registered, has none.
 */
export function musicEndpointOf(kind: MusicJobKind, model?: string | null): string | undefined {
  if (kind === 'stems') return MUSIC_ENDPOINTS.stems;
  return musicModel(model ?? DEFAULT_MODEL_ID)?.endpoints[kind];
}

/**
 * The provider job a track runs: extend and repaint by how it was made
 * (`edit.kind`), else by its type (a variation runs its parent's kind again).
 */
export function musicJobKindOf(track: { type: string; edit?: { kind: string } | null }): MusicJobKind {
  if (track.edit?.kind === 'extend' || track.edit?.kind === 'repaint') return track.edit.kind;
  return track.type === 'audio-to-music' ? 'audio' : 'text';
}

export type MusicJobStatus = 'queued' | 'running' | 'completed';

export interface TextToMusicRequest {
  /** The registered model (shared/src/models.ts) that makes the song: it picks the endpoint and the input. */
  model: string;
  /** The description (tempo and key among it as `120 bpm, A minor`). */
  tags: string;
  /** The words to sing; empty for none. */
  lyrics: string;
  /** No vocals: each model is told so in its own way (or refuses it when it always sings). */
  instrumental?: boolean;
  /** Seconds, within the model's range; null for a model that decides the length itself. */
  duration: number | null;
  /** Where the provider posts the signed completion callback. */
  webhookUrl?: string;
}

export interface AudioToMusicRequest {
  /** A URL the provider can fetch (a presigned GET of the upload). */
  audioUrl: string;
  tags: string;
  lyrics: string;
  /** Tags describing the uploaded audio. */
  originalTags: string;
  webhookUrl?: string;
}

/** Lengthens a song: the result is the whole song with the new seconds before and/or after it. */
export interface ExtendMusicRequest {
  /** A URL the provider can fetch (a short-lived presigned GET of the song's WAV). */
  audioUrl: string;
  tags: string;
  lyrics: string;
  /** Seconds added before the song. */
  before: number;
  /** Seconds added after the song. */
  after: number;
  webhookUrl?: string;
}

/** Generates one section of a song again; the result has the song's length, the rest as it was. */
export interface RepaintMusicRequest {
  /** A URL the provider can fetch (a short-lived presigned GET of the song's WAV). */
  audioUrl: string;
  tags: string;
  lyrics: string;
  /** Seconds from the start of the song. */
  start: number;
  end: number;
  /** How far the new section may stray from the old one, 0 to 1. */
  variance: number;
  webhookUrl?: string;
}

/** Takes a finished track apart into stems (fal-ai/demucs). */
export interface StemsMusicRequest {
  /** A URL the provider can fetch (a short-lived presigned GET of the track's WAV). */
  audioUrl: string;
  /** The Demucs model (`htdemucs` for 4 stems, `htdemucs_6s` for 6). */
  model: string;
  /** The stems wanted. */
  stems: readonly string[];
  webhookUrl?: string;
}

/** A finished separation: each stem's provider URL (they expire: copy them right away). */
export interface StemsResult {
  stems: Record<string, string>;
}

export interface MusicResult {
  /** Provider URL of the finished audio; it expires, so copy it right away. */
  audioUrl: string;
  seed: number;
  /** Seconds, when the provider says. */
  duration?: number;
}

export interface MusicProvider {
  submitTextToMusic(request: TextToMusicRequest): Promise<{ requestId: string }>;
  submitAudioToMusic(request: AudioToMusicRequest): Promise<{ requestId: string }>;
  submitExtend(request: ExtendMusicRequest): Promise<{ requestId: string }>;
  submitRepaint(request: RepaintMusicRequest): Promise<{ requestId: string }>;
  submitStems(request: StemsMusicRequest): Promise<{ requestId: string }>;
  /**
   * Status, result and cancel name the job by its kind and, when the caller
   * knows it, the endpoint it was submitted to ({@link musicEndpointOf});
   * without it, the kind's ACE-Step endpoint (jobs submitted before there
   * was a choice of models).
   */
  status(kind: MusicJobKind, requestId: string, endpoint?: string): Promise<MusicJobStatus>;
  /** The finished separation's stems. Throws `MusicProviderError` when the job failed or returned none. */
  stemsResult(requestId: string): Promise<StemsResult>;
  /** The finished job's output. Throws `MusicProviderError` when the job failed. */
  result(kind: MusicJobKind, requestId: string, endpoint?: string): Promise<MusicResult>;
  cancel(kind: MusicJobKind, requestId: string, endpoint?: string): Promise<void>;
  /** Lyrics with [verse]/[chorus] structure for a prompt, sized to `duration` seconds. */
  writeLyrics(request: { prompt: string; duration: number }): Promise<string>;
  /**
   * The words heard in the audio at `audioUrl`, each with when (seconds): a
   * timed transcription, word by word. Sung words come back misheard in places.
   */
  transcribe(request: { audioUrl: string }): Promise<TranscribedWord[]>;
}

/** A word a transcription heard, with its start and end in seconds. */
export interface TranscribedWord {
  text: string;
  start: number;
  end: number;
}

/** The provider endpoint of timed transcription (word level). */
export const TRANSCRIPTION_ENDPOINT = 'fal-ai/whisper';

/** The provider refused a request or a job failed. */
export class MusicProviderError extends Error {
  override readonly name = 'MusicProviderError';
  constructor(
    message: string,
    /** `rejected`: the provider refused the input; `failed`: the job failed; `unavailable`: could not be reached. */
    readonly reason: 'rejected' | 'failed' | 'unavailable',
    /** HTTP status from the provider, when there was one. */
    readonly status?: number,
    readonly detail?: unknown,
  ) {
    super(message);
  }
}

export interface VerifiedWebhook {
  requestId: string;
  status: 'OK' | 'ERROR';
  /** The job output (`OK`), or error details; may be null (then fetch the result). */
  payload: unknown;
  error?: string;
}

export interface WebhookVerifier {
  /**
   * Checks the signature and freshness of a webhook delivery over its raw body.
   * Returns the parsed delivery, or undefined when it is not authentic.
   */
  verify(input: {
    headers: Record<string, string | undefined>;
    rawBody: string | Uint8Array;
    now: Date;
  }): Promise<VerifiedWebhook | undefined>;
}
