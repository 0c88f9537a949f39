/**
 * A track as `/api/v1` answers it (decision 055): its owner's view, with
 * short-lived links to what the owner may fetch: the stream and waveform once
 * completed, the WAV only when the plan downloads and it is prepared, the
 * stems once separated, and its timed lyrics when they exist.
 */
import type { V1Track } from '@tunesmith/shared/api-v1-schemas';
import { generationMessages } from '@tunesmith/shared/generation-values';
import { DEFAULT_MODEL_ID } from '@tunesmith/shared/models';
import type { User } from '../accounts/user';
import { downloadFilename } from '../generations/download';
import { entitlementsFor } from '../generations/entitlements';
import type { LyricsStore } from '../lyrics/lyrics-timing';
import type { Plan } from '../plans/plan';
import { latestStems } from '../stems/stems';
import { provenanceUrl } from '../tracks/provenance';
import { type Generation, isDownloadReady, playbackAudio } from '../tracks/track';

export interface V1TrackDeps {
  /** A short-lived link a program can fetch stored audio (or peaks) by; null for null. */
  playLink(stored: string | null): Promise<string | null>;
  /** A short-lived link that saves stored audio as `filename`. */
  downloadLink(stored: string, filename: string): Promise<string>;
  lyrics: Pick<LyricsStore, 'get'>;
  /** The site's public origin: where the provenance record is read. */
  siteOrigin: string;
  clock: { now(): Date };
}

/** A track's status as `/api/v1` names it: the app's `generating` is `processing`. */
export const v1StatusOf = (status: Generation['status']): V1Track['status'] =>
  status === 'generating' ? 'processing' : status;

/**
 * A track's own facts in the {@link V1Track} shape, with no links (`audio`,
 * `stems` and `timedLyrics` null): what a webhook's `data.track` carries, as a
 * delivery is retried for a day, longer than a link lives (decision 053).
 */
export function v1TrackFacts(generation: Generation, siteOrigin: string): V1Track {
  return {
    id: generation.id,
    status: v1StatusOf(generation.status),
    type: generation.type,
    title: generation.title,
    tags: generation.tags,
    lyrics: generation.lyrics,
    instrumental: generation.instrumental ?? false,
    duration: generation.duration,
    model: generation.model ?? DEFAULT_MODEL_ID,
    visibility: generation.visibility,
    createdAt: generation.createdAt,
    parentId: generation.parentId ?? null,
    audio: null,
    // The record exists once the track does.
    provenanceUrl: generation.status === 'completed' ? provenanceUrl(siteOrigin, generation.id) : null,
    analysis: generation.analysis ? { bpm: generation.analysis.bpm, key: generation.analysis.key } : null,
    stems: null,
    timedLyrics: null,
    // The track keeps no reason (it may name the provider's internals); the app's own words.
    error: generation.status === 'failed' ? generationMessages.statusFailed : null,
  };
}

/**
 * `generation` (the owner's: the caller has checked) as a {@link V1Track}.
 * `plan` is the owner's plan: whether the WAV is offered follows it, as the
 * app's download does.
 */
export async function toV1Track(
  deps: V1TrackDeps,
  owner: Pick<User, 'planStatus' | 'planEndDate'>,
  plan: Plan | undefined,
  generation: Generation,
): Promise<V1Track> {
  const completed = generation.status === 'completed';
  const canDownload = entitlementsFor(owner, plan, deps.clock.now()).canDownload;
  const [audio, stems, timed] = await Promise.all([
    completed ? audioOf(deps, generation, canDownload) : null,
    stemsOf(deps, generation),
    completed && !generation.instrumental ? deps.lyrics.get(generation.id) : undefined,
  ]);
  return {
    ...v1TrackFacts(generation, deps.siteOrigin),
    audio,
    stems,
    timedLyrics: timed ? timed.lines.map(({ text, start, end }) => ({ text, start, end })) : null,
  };
}

async function audioOf(
  deps: V1TrackDeps,
  generation: Generation,
  canDownload: boolean,
): Promise<V1Track['audio']> {
  const wavReady = canDownload && isDownloadReady(generation) && !!generation.audioUrl;
  const [stream, peaks, wav] = await Promise.all([
    deps.playLink(playbackAudio(generation)),
    deps.playLink(generation.peaksUrl ?? null),
    wavReady ? deps.downloadLink(generation.audioUrl as string, downloadFilename(generation.title)) : null,
  ]);
  return { stream, wav, peaks };
}

/** The ready set asked for last (a later set still separating leaves it answered): each stem's players' copy (or its WAV). */
async function stemsOf(deps: V1TrackDeps, generation: Generation): Promise<V1Track['stems']> {
  const ready = Object.fromEntries(
    Object.entries(generation.stems ?? {}).filter(([, record]) => record?.status === 'ready'),
  );
  const record = latestStems(ready);
  if (!record) return null;
  return Promise.all(
    record.files.map(async (file) => ({
      name: file.name,
      url: (await deps.playLink(file.streamUrl ?? file.wavUrl)) ?? file.wavUrl,
    })),
  );
}
