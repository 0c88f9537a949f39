import type { V1Track } from '@tunesmith/shared/developer-api';
import { DEFAULT_MODEL_ID } from '@tunesmith/shared/models';
import { provenanceUrl } from '../tracks/provenance';
import { type Generation, isDownloadReady, playbackAudio } from '../tracks/track';

/** The v1 API's word for a track being made (the app's `generating`). */
const v1Status = (status: Generation['status']): V1Track['status'] =>
  status === 'generating' ? 'processing' : status;

/** What a failed track says about it: the provider's reasons are not the developer's to read. */
export const V1_TRACK_FAILED = 'The track could not be made. Its quota was given back.';

/** Turns a stored file into a short-lived link (null when there is none). */
export type TrackLinker = (stored: string | null) => Promise<string | null>;

/**
 * A track in the shape `/api/v1` answers (`V1Track`), as a webhook's
 * `data.track` carries it. Without `link` it holds no audio or stem links:
 * a delivery is kept and retried for a day, longer than a link lives, so a
 * receiver reads fresh ones from `GET /api/v1/tracks/{id}`; with it, the
 * links are signed now.
 */
export async function toV1Track(
  g: Generation,
  options: { siteOrigin: string; link?: TrackLinker },
): Promise<V1Track> {
  const link = options.link;
  const ready = Object.values(g.stems ?? {}).filter((record) => record?.status === 'ready');
  return {
    id: g.id,
    status: v1Status(g.status),
    type: g.type,
    title: g.title,
    tags: g.tags,
    lyrics: g.lyrics,
    instrumental: g.instrumental ?? false,
    duration: g.duration,
    model: g.model ?? DEFAULT_MODEL_ID,
    visibility: g.visibility,
    createdAt: g.createdAt,
    parentId: g.parentId ?? null,
    audio:
      link && g.status === 'completed'
        ? {
            stream: await link(playbackAudio(g)),
            wav: isDownloadReady(g) ? await link(g.audioUrl) : null,
            peaks: await link(g.peaksUrl ?? null),
          }
        : null,
    provenanceUrl: g.status === 'completed' ? provenanceUrl(options.siteOrigin, g.id) : null,
    analysis: g.analysis ? { bpm: g.analysis.bpm, key: g.analysis.key } : null,
    stems:
      link && ready.length
        ? (
            await Promise.all(
              ready.flatMap((record) =>
                (record?.files ?? []).map(async (file) => ({
                  name: file.name,
                  url: await link(file.streamUrl ?? file.wavUrl),
                })),
              ),
            )
          ).flatMap((stem) => (stem.url ? [{ name: stem.name, url: stem.url }] : []))
        : null,
    timedLyrics: null,
    error: g.status === 'failed' ? V1_TRACK_FAILED : null,
  };
}
