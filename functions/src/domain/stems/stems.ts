/**
 * A track's stems as stored on the track's own item (decision 044): one record
 * per set asked for, so they go with the track, and a compare-and-set on the
 * track decides which of two racing asks starts the work.
 */
import type { Loudness } from '@tunesmith/shared/ownership';
import { STEM_NAMES, type StemName, type StemSet } from '@tunesmith/shared/stems';
import { TRACK_AUDIO_AREA } from '../tracks/track';

/** One stem's files as stored (`s3://` addresses in the tracks bucket). */
export interface StoredStem {
  name: StemName;
  /**
   * The marked WAV: what the zip and the export hold. Until it is prepared
   * (`sha256` null), the provider's WAV as it came, which players get meanwhile.
   */
  wavUrl: string;
  /** The players' Ogg Opus copy; null when it could not be made (players get the WAV). */
  streamUrl: string | null;
  peaksUrl: string | null;
  /** SHA-256 (hex) of the marked WAV exactly as stored; null while it is being prepared. */
  sha256: string | null;
  loudness: Loudness | null;
}

/** One set's separation. */
export interface StemsRecord {
  set: StemSet;
  status: 'processing' | 'ready' | 'failed';
  /** When it was asked for: its quota unit is refunded into that week. */
  requestedAt: string;
  /** 1 for the first ask, one more for each ask after a failure: the workflow execution's name has it. */
  attempt: number;
  /** The provider's request id, once submitted. */
  requestId: string | null;
  /** The separation model asked for (fal-ai/demucs's `model`). */
  model: string;
  files: StoredStem[];
  /** The zip of the WAVs and a manifest (paid plans download it), made once the stems play. */
  zipUrl?: string | null;
  updatedAt: string;
}

export type TrackStemsRecords = Partial<Record<StemSet, StemsRecord>>;

/** The model family that separates a track, as its provenance and the zips' manifest name it. */
export const STEMS_MODEL_NAME = 'Demucs';

/** The Demucs model each set asks for: the 4-source hybrid transformer, or its 6-source variant. */
export const STEMS_MODELS: Readonly<Record<StemSet, string>> = { '4': 'htdemucs', '6': 'htdemucs_6s' };

/** The stems a set is made of. */
export const stemNamesOf = (set: StemSet): readonly StemName[] => STEM_NAMES[set];

/** Where a stem's file lives: beside its track's, by the track id, the set and the stem. */
export const stemKey = (trackId: string, set: StemSet, name: StemName, extension: string) =>
  `${TRACK_AUDIO_AREA}${trackId}.stems${set}.${name}${extension}`;

/** A set that plays but whose WAVs (the download: marked, signed, hashed) are still being prepared. */
export const stemsPreparing = (record: StemsRecord | undefined | null): boolean =>
  record?.status === 'ready' && record.files.some((f) => f.sha256 === null);

/** Whether any ready set of a track is still being prepared for download. */
export const anyStemsPreparing = (records: TrackStemsRecords | null | undefined): boolean =>
  Object.values(records ?? {}).some((record) => stemsPreparing(record));

/** The set a viewer is answered with: the one asked for last. */
export function latestStems(records: TrackStemsRecords | null | undefined): StemsRecord | undefined {
  const all = Object.values(records ?? {}).filter((r): r is StemsRecord => !!r);
  return all.sort((a, b) => b.requestedAt.localeCompare(a.requestedAt))[0];
}

/** Where a set's zip lives, beside its stems. */
export const stemsZipKey = (trackId: string, set: StemSet) => `${TRACK_AUDIO_AREA}${trackId}.stems${set}.zip`;
