import { DEFAULT_MODEL_ID, type MusicModel, musicModel } from '@tunesmith/shared/models';
import {
  DIGITAL_SOURCE_TYPE,
  licenseSummaries,
  type Provenance,
  type ProvenanceInput,
  TERMS_LICENSE_PATH,
  type TrackLicense,
} from '@tunesmith/shared/ownership';
import {
  MUSIC_ENDPOINTS,
  MUSIC_MODEL,
  MUSIC_PROVIDER_NAME,
  type MusicJobKind,
  musicJobKindOf,
} from '../generations/music-provider';
import { STEMS_MODEL_NAME } from '../stems/stems';
import type { Generation, GenerationOrigin } from './track';

/**
 * The registered model a track was made with: the one it records, ACE-Step
 * for a track from before the choice (or one naming a model no longer registered).
 */
export function modelOfTrack(g: Pick<Generation, 'model'>): MusicModel | undefined {
  return musicModel(g.model ?? DEFAULT_MODEL_ID);
}

/** The endpoint a model runs a kind of job on (the product's own for a kind the model does not name). */
function endpointOf(model: MusicModel | undefined, kind: MusicJobKind): string {
  const endpoints: Partial<Record<MusicJobKind, string>> = model?.endpoints ?? {};
  return endpoints[kind] ?? MUSIC_ENDPOINTS[kind];
}

/** The license a plan gives the tracks made on it (written into each track at creation). */
export function licenseOf(plan: { commercialUse?: boolean }, siteOrigin: string): TrackLicense {
  const commercialUse = plan.commercialUse === true;
  return {
    commercialUse,
    summary: commercialUse ? licenseSummaries.commercial : licenseSummaries.personal,
    termsUrl: `${siteOrigin}${TERMS_LICENSE_PATH}`,
  };
}

/**
 * What the model was asked for a track: its tags, lyrics, length, whether it
 * is instrumental and, for a studio track, the edit with its numbers (a
 * repaint's variance among them). A restyle's length is its upload's (null).
 */
export function parametersOf(
  track: Pick<Generation, 'tags' | 'lyrics' | 'duration' | 'instrumental' | 'edit' | 'tempo' | 'musicalKey'>,
): Record<string, unknown> {
  return {
    tags: track.tags,
    lyrics: track.lyrics ?? '',
    duration: track.duration,
    instrumental: track.instrumental === true,
    ...(track.tempo ? { bpm: track.tempo } : {}),
    ...(track.musicalKey ? { key: track.musicalKey } : {}),
    ...(track.edit ? { edit: { ...track.edit } } : {}),
  };
}

/**
 * A new track's origin, written when it is created and never changed: the
 * provider, model and endpoint its kind runs on, what the model is asked, its
 * inputs as hashed when they arrived, and the name and license of the plan in
 * force (a later upgrade or downgrade leaves both as they were).
 */
export function originOf(
  track: Pick<
    Generation,
    'type' | 'tags' | 'lyrics' | 'duration' | 'instrumental' | 'edit' | 'tempo' | 'musicalKey' | 'model'
  >,
  inputs: ProvenanceInput[],
  plan: { name: string; commercialUse?: boolean },
  siteOrigin: string,
): GenerationOrigin {
  const model = modelOfTrack(track);
  return {
    provider: MUSIC_PROVIDER_NAME,
    model: model?.name ?? MUSIC_MODEL,
    endpoint: endpointOf(model, musicJobKindOf(track)),
    modelId: model?.id ?? DEFAULT_MODEL_ID,
    ...(model ? { modelTerms: model.termsUrl } : {}),
    parameters: parametersOf(track),
    inputs,
    plan: plan.name,
    license: licenseOf(plan, siteOrigin),
  };
}

/** Where a track's provenance record is read: what its files point to. */
export const provenanceUrl = (siteOrigin: string, trackId: string) =>
  `${siteOrigin}/api/track/${encodeURIComponent(trackId)}/provenance`;

/** The inputs of a track from before provenance, as far as it tells: never hashed, so no hash. */
function inputsBeforeProvenance(g: Generation): ProvenanceInput[] {
  const inputs: ProvenanceInput[] = [];
  if (g.parentId) inputs.push({ kind: 'parent', trackId: g.parentId, sha256: null });
  if (g.inputAudioUrl) inputs.push({ kind: 'upload', sha256: null });
  return inputs;
}

/** A parent input as told to someone who may not know the parent. */
const withheld: ProvenanceInput = { kind: 'parent', sha256: null };
/** A remix's source once it is no longer listed (decision 060): still a remix, of a track not named. */
const sourceWithheld: ProvenanceInput = { kind: 'remix', sha256: null };

/**
 * A track's provenance record (`GET /api/track/{id}/provenance`, and the
 * export's `provenance.json`). Tracks from before provenance have no origin:
 * they name the model the product ran then, the inputs they had (unhashed)
 * and the most careful license (personal use), under plan "Unknown".
 *
 * `parentNamed: false` is the record for someone who may not be told which
 * track this one was made from (generation-service `parentForViewer`): it
 * still says it was made from a track, but not which, and not its hash.
 * `remixNamed: false` does the same for a remix's source once it is no longer
 * listed (decision 060); the file signed when the remix was made keeps what was
 * true then.
 */
export function provenanceOf(
  g: Generation,
  siteOrigin: string,
  { parentNamed = true, remixNamed = true }: { parentNamed?: boolean; remixNamed?: boolean } = {},
): Provenance {
  const origin = g.origin;
  const inputs = origin?.inputs ?? inputsBeforeProvenance(g);
  // A record from before the choice names no model id: the track's own, else ACE-Step's.
  const model = musicModel(origin?.modelId ?? g.model ?? DEFAULT_MODEL_ID);
  return {
    trackId: g.id,
    createdAt: g.createdAt,
    aiGenerated: true,
    digitalSourceType: DIGITAL_SOURCE_TYPE,
    provider: origin?.provider ?? MUSIC_PROVIDER_NAME,
    model: origin?.model ?? model?.name ?? MUSIC_MODEL,
    endpoint: origin?.endpoint ?? endpointOf(model, musicJobKindOf(g)),
    modelId: origin?.modelId ?? model?.id ?? DEFAULT_MODEL_ID,
    ...((origin?.modelTerms ?? model?.termsUrl) ? { modelTerms: origin?.modelTerms ?? model?.termsUrl } : {}),
    seed: g.seed,
    parameters: origin?.parameters ?? parametersOf(g),
    inputs: inputs.map((input) =>
      input.kind === 'parent' && !parentNamed
        ? withheld
        : input.kind === 'remix' && !remixNamed
          ? sourceWithheld
          : input,
    ),
    parentId: parentNamed ? (g.parentId ?? null) : null,
    audioSha256: g.audioSha256 ?? null,
    plan: origin?.plan ?? 'Unknown',
    license: origin?.license ?? licenseOf({ commercialUse: false }, siteOrigin),
    ...stemsProvenance(g),
  };
}

/**
 * The ready stems of a track, each with its WAV's hash and the model that
 * separated it (decision 044); a stem whose WAV is still being prepared (no
 * hash yet, decision 048) is listed once it is.
 */
function stemsProvenance(g: Generation): Pick<Provenance, 'stems'> {
  const stems = Object.values(g.stems ?? {})
    .filter((record) => record?.status === 'ready')
    .flatMap((record) =>
      (record?.files ?? []).flatMap((file) =>
        file.sha256 === null
          ? []
          : [
              {
                set: record?.set ?? '',
                name: file.name,
                sha256: file.sha256,
                model: `${STEMS_MODEL_NAME} (${record?.model ?? ''})`,
                endpoint: MUSIC_ENDPOINTS.stems,
              },
            ],
      ),
    );
  return stems.length ? { stems } : {};
}
