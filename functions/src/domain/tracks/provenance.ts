import {
  DIGITAL_SOURCE_TYPE,
  licenseSummaries,
  type Provenance,
  TERMS_LICENSE_PATH,
  type TrackLicense,
} from '@tunesmith/shared/ownership';
import type { Generation } from './track';

/** The license a plan gives the tracks made on it (written into each track at creation). */
export function licenseOf(plan: { commercialUse?: boolean }, siteOrigin: string): TrackLicense {
  const commercialUse = plan.commercialUse === true;
  return {
    commercialUse,
    summary: commercialUse ? licenseSummaries.commercial : licenseSummaries.personal,
    termsUrl: `${siteOrigin}${TERMS_LICENSE_PATH}`,
  };
}

/** Where a track's provenance record is read: what its files point to. */
export const provenanceUrl = (siteOrigin: string, trackId: string) =>
  `${siteOrigin}/api/track/${encodeURIComponent(trackId)}/provenance`;

/**
 * A track's provenance record (`GET /api/track/{id}/provenance`, and the
 * export's `provenance.json`). Tracks from before provenance have no origin:
 * they name the model the product ran then and the most careful license
 * (personal use), under plan "Unknown".
 */
export function provenanceOf(g: Generation, siteOrigin: string): Provenance {
  const origin = g.origin;
  return {
    trackId: g.id,
    createdAt: g.createdAt,
    aiGenerated: true,
    digitalSourceType: DIGITAL_SOURCE_TYPE,
    provider: origin?.provider ?? 'fal.ai',
    model: origin?.model ?? 'ACE-Step',
    endpoint:
      origin?.endpoint ??
      (g.type === 'audio-to-music' ? 'fal-ai/ace-step/audio-to-audio' : 'fal-ai/ace-step'),
    seed: g.seed,
    parameters: origin?.parameters ?? { tags: g.tags, lyrics: g.lyrics, duration: g.duration },
    inputs: origin?.inputs ?? [],
    parentId: g.parentId ?? null,
    audioSha256: g.audioSha256 ?? null,
    plan: origin?.plan ?? 'Unknown',
    license: origin?.license ?? licenseOf({ commercialUse: false }, siteOrigin),
  };
}
