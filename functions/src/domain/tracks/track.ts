import { DEFAULT_MODEL_ID } from '@tunesmith/shared/models';
import type { Loudness, ProvenanceInput, TrackLicense } from '@tunesmith/shared/ownership';
import type { Track, TrackAnalysis, TrackEdit, TrackStatus, Visibility } from '@tunesmith/shared/tracks';
import type { TrackStemsRecords } from '../stems/stems';

/**
 * What made a track, written when it is created and never changed (the seed,
 * the audio's hash and the completion time come when it completes).
 */
export interface GenerationOrigin {
  /** "fal.ai". */
  provider: string;
  /** The model's name, "ACE-Step". */
  model: string;
  /** The provider endpoint the submit step calls for this kind. */
  endpoint: string;
  /** The model's id (`shared/src/models.ts`, decision 051); absent on records from before the choice (ACE-Step). */
  modelId?: string;
  /** Where the model's terms of use are read; absent on records from before the choice. */
  modelTerms?: string;
  /** What the model was asked (tags, lyrics, duration, instrumental, the edit). */
  parameters: Record<string, unknown>;
  /** Inputs, hashed when they arrived. */
  inputs: ProvenanceInput[];
  /** The plan's name at creation. */
  plan: string;
  /** The plan's license at creation; a later upgrade or downgrade never changes it. */
  license: TrackLicense;
}

/** A music generation as stored: the public view plus owner and provider fields. */
export interface Generation {
  id: string;
  userId: string;
  type: string;
  title: string | null;
  tags: string;
  lyrics: string | null;
  duration: number | null;
  status: TrackStatus;
  visibility: Visibility;
  showInGallery: boolean;
  inputAudioUrl: string | null;
  /**
   * The track's WAV as we keep it (`s3://bucket/tracks/{id}.wav`): what downloads get. While
   * `downloadPending`, the master as the provider made it (`tracks/{id}.master.wav`), unmarked.
   */
  audioUrl: string | null;
  /**
   * The compressed copy players stream (`s3://bucket/tracks/{id}.opus`, Ogg Opus);
   * null or absent when there is none (tracks from before it, or its encoding failed).
   */
  streamAudioUrl?: string | null;
  /**
   * The waveform's peaks (`s3://bucket/tracks/{id}.peaks.json`, audiowaveform
   * JSON v2, 8-bit), made when the track completes; absent before that or for
   * tracks from before peaks (the backfill makes them).
   */
  peaksUrl?: string | null;
  /** Made without vocals: the provider got lyrics `[instrumental]`. Absent means false. */
  instrumental?: boolean;
  /** The owner's track this one was made from (variation, extend, repaint); it may since be deleted. */
  parentId?: string | null;
  /** How it was made from `parentId`. */
  edit?: TrackEdit | null;
  /** Provenance and license, from creation; absent on tracks from before it. */
  origin?: GenerationOrigin | null;
  /** SHA-256 (hex) of the WAV download as stored (with its marking); set once the download is prepared. */
  audioSha256?: string | null;
  /**
   * Completed and playable, while its download (the WAV marked, signed and hashed) is still
   * being prepared; false once it is ready, absent on tracks from before (ready too).
   */
  downloadPending?: boolean;
  /** The tempo (whole BPM) the music was asked to keep; absent when none was asked. */
  tempo?: number | null;
  /** The key the music was asked to be in ("A minor"), in the stored spelling; absent when none was asked. */
  musicalKey?: string | null;
  /**
   * The model it was made with (`shared/src/models.ts`, decision 051); absent on tracks from
   * before the choice, which were all made with DEFAULT_MODEL_ID.
   */
  model?: string | null;
  /** Quota units its start reserved (its model's cost then, decision 051); absent: one. A failure refunds them all. */
  quotaUnits?: number;
  /** Tempo and key measured from the audio when it completed (or by the backfill); absent before. */
  analysis?: TrackAnalysis | null;
  /** Loudness of the master and the stream's gain; set when completed. */
  loudness?: Loudness | null;
  /** Its stems, per set asked for (decision 044); absent when none were. */
  stems?: TrackStemsRecords | null;
  seed: number | null;
  falRequestId: string | null;
  /** Its owner lets others remix it while it is public (decision 056); absent: no. */
  remixable?: boolean;
  /** The track it remixes, as it was when the remix started: its id, owner and audio's SHA-256. */
  remixOf?: { trackId: string; userId: string; sha256: string | null } | null;
  /** Hidden by an administrator after a report: seen by its owner only, listed nowhere (decision 056). */
  hidden?: boolean;
  /** Likes and counted plays, moved by their own writes; read with the track, never written from it. */
  likes?: number;
  plays?: number;
  createdAt: string;
  updatedAt: string;
}

/** The refusal of a page cursor that no page of the list handed out. */
export const CURSOR_INVALID = 'The cursor is not valid.';

export interface Page<T> {
  items: T[];
  /** Opaque cursor for the next page, absent on the last page. */
  cursor?: string;
}

/** Storage port for generations. */
export interface GenerationRepository {
  /** Public, completed, gallery-visible tracks, newest first. */
  listGallery(limit: number, cursor?: string): Promise<Page<Generation>>;
  put(generation: Generation): Promise<void>;
}

/**
 * A track in the gallery (and its creator's listing, feeds and others' playlists): public, completed,
 * shown in the gallery and not hidden after a report.
 */
export function isGalleryVisible(
  g: Pick<Generation, 'visibility' | 'status' | 'showInGallery'> & Pick<Partial<Generation>, 'hidden'>,
): boolean {
  return g.visibility === 'public' && g.status === 'completed' && g.showInGallery && !g.hidden;
}

/** The audio players stream: the compressed copy when there is one, else the WAV. */
export const playbackAudio = (g: Pick<Generation, 'audioUrl' | 'streamAudioUrl'>): string | null =>
  g.streamAudioUrl ?? g.audioUrl;

/** Whether the WAV download is there: completed, with stored audio, and no longer being prepared. */
export const isDownloadReady = (g: Pick<Generation, 'status' | 'audioUrl' | 'downloadPending'>): boolean =>
  g.status === 'completed' && !!g.audioUrl && !g.downloadPending;

/** Media types of the audio we store, by file extension (the players' Ogg Opus copy, the WAV, older uploads). */
const AUDIO_MEDIA_TYPES: Record<string, string> = {
  opus: 'audio/ogg',
  ogg: 'audio/ogg',
  wav: 'audio/wav',
  mp3: 'audio/mpeg',
  flac: 'audio/flac',
  m4a: 'audio/mp4',
};

/**
 * The media type of stored audio (`s3://bucket/tracks/{id}.opus`, or a URL),
 * from its name's extension; undefined for a name we cannot tell.
 */
export function audioMediaType(stored: string): string | undefined {
  const name = stored.split(/[?#]/)[0] ?? '';
  const extension = /\.([A-Za-z0-9]+)$/.exec(name)?.[1]?.toLowerCase();
  return extension ? AUDIO_MEDIA_TYPES[extension] : undefined;
}

/**
 * Every stored object of a track (the WAV, its compressed copy and its
 * waveform's peaks), for removing them with it.
 */
export const storedTrackAudio = (
  g: Pick<Generation, 'audioUrl' | 'streamAudioUrl' | 'peaksUrl' | 'stems'>,
): string[] =>
  [g.audioUrl, g.streamAudioUrl, g.peaksUrl, ...storedStemFiles(g.stems)].filter((u): u is string => !!u);

/** Every stored file of a track's stems (WAV, Opus copy, peaks), for removing them with it. */
export const storedStemFiles = (records: TrackStemsRecords | null | undefined): string[] =>
  Object.values(records ?? {}).flatMap((record) =>
    [...(record?.files ?? []).flatMap((f) => [f.wavUrl, f.streamUrl, f.peaksUrl]), record?.zipUrl].filter(
      (u): u is string => !!u,
    ),
  );

/** The fields a screen may see. Owner and provider fields stay on the server. */
export function toTrack(g: Generation): Track {
  return {
    id: g.id,
    title: g.title,
    tags: g.tags,
    lyrics: g.lyrics,
    duration: g.duration,
    status: g.status,
    type: g.type,
    visibility: g.visibility,
    showInGallery: g.showInGallery,
    audioUrl: playbackAudio(g),
    createdAt: g.createdAt,
    instrumental: g.instrumental ?? false,
    parentId: g.parentId ?? null,
    edit: g.edit ?? null,
    peaksUrl: g.peaksUrl ?? null,
    loudness: g.loudness ?? null,
    license: g.origin?.license ?? null,
    downloadReady: isDownloadReady(g),
    analysis: g.analysis ?? null,
    model: g.model ?? DEFAULT_MODEL_ID,
    likes: g.likes ?? 0,
    plays: g.plays ?? 0,
    remixable: g.remixable ?? false,
    // Only its owner (and the admin area) is ever answered a hidden track: the owner's page says so.
    ...(g.hidden ? { hidden: true } : {}),
    // Named by the reads that look up profiles and sources (decision 056).
    creator: null,
    remixOf: null,
  };
}

/** Where finished audio is kept in the tracks bucket, one object per track id. */
export const TRACK_AUDIO_AREA = 'tracks/';

/** Where audio was kept per user before keys stopped naming the owner (swept on a user delete). */
export const legacyTrackAudioPrefix = (userId: string) => `${TRACK_AUDIO_AREA}${userId}/`;
