/**
 * What export everything needs from the outside world: where export records
 * live (and the one-export-per-user slot), where the zip is written and
 * linked, and where a track's stored WAV is read. Adapters implement these
 * with DynamoDB, S3 (a streaming zip into a multipart upload) and CloudFront;
 * tests with in-memory fakes.
 */
import type { Readable } from 'node:stream';
import type { ExportStatus } from '@tunesmith/shared/ownership';
import type { Clock, Mailer } from '../accounts/ports';
import type { UserRepository } from '../accounts/user';
import type { GenerationStore } from '../generations/ports';
import type { BackgroundJobs } from '../jobs';
import type { LyricsStore } from '../lyrics/lyrics-timing';

/** Where zips are kept in the tracks bucket: `exports/{userId}/{exportId}.zip`, expired after 7 days. */
export const EXPORTS_AREA = 'exports/';
export const exportPrefix = (userId: string) => `${EXPORTS_AREA}${userId}/`;
export const exportKey = (userId: string, exportId: string) => `${exportPrefix(userId)}${exportId}.zip`;

/** An export as stored. */
export interface ExportRecord {
  id: string;
  userId: string;
  status: ExportStatus;
  createdAt: string;
  updatedAt: string;
  tracksDone: number;
  tracksTotal: number | null;
  /** Runs of the job so far (Lambda runs a failed one up to three times). */
  attempts: number;
  /** When ready: the zip's size in bytes, and when its link stops working. */
  size?: number;
  linkExpiresAt?: string;
}

/** What a finished run writes. */
export type ExportOutcome =
  | { status: 'ready'; size: number; linkExpiresAt: string; tracksDone: number; tracksTotal: number }
  | { status: 'failed' };

export interface ExportRepository {
  /**
   * Stores a new `preparing` record and takes the user's export slot, both or
   * neither (one conditional transaction). The slot is free when no export
   * holds it, or when the one holding it started before `staleBefore` (a job
   * that died). Returns false when another export holds it.
   */
  begin(record: ExportRecord, staleBefore: string): Promise<boolean>;
  get(exportId: string): Promise<ExportRecord | undefined>;
  /** The user's newest export. */
  latest(userId: string): Promise<ExportRecord | undefined>;
  /** Counts one more run of a preparing export; returns the record as it now is, or undefined when it is not preparing. */
  startAttempt(exportId: string, at: string): Promise<ExportRecord | undefined>;
  /** Progress of a preparing export (ignored once it has finished). */
  progress(
    exportId: string,
    progress: { tracksDone: number; tracksTotal: number; at: string },
  ): Promise<void>;
  /**
   * Ends a preparing export with `outcome` and frees the user's slot if this
   * export holds it. Returns false (and changes nothing) when it had already ended.
   */
  finish(record: Pick<ExportRecord, 'id' | 'userId'>, outcome: ExportOutcome, at: string): Promise<boolean>;
  /** Every export record of the user and the slot (deleting an account). */
  removeAll(userId: string): Promise<void>;
}

/** A zip being written: entries one after the other, streamed through, never held whole. */
export interface ArchiveWriter {
  /**
   * Adds a file and resolves once its bytes are in the archive (so the next
   * stream is opened only then). `store` keeps it uncompressed (audio).
   */
  add(name: string, content: Readable | string, options?: { store?: boolean }): Promise<void>;
  /** Writes the zip's directory and completes the upload; resolves with the zip's size in bytes. */
  finish(): Promise<{ size: number }>;
  /** Gives up: whatever was uploaded so far is discarded. Safe to call after a failure. */
  abort(): Promise<void>;
}

/** Where zips go. */
export interface ExportFiles {
  /** Starts writing the zip at `key` (an upload in parts). */
  create(key: string): ArchiveWriter;
  /** A GET link that saves the zip as `downloadAs`, working at least `expiresIn` seconds. */
  link(key: string, options: { downloadAs: string; expiresIn: number }): Promise<string>;
  /** Deletes every zip under `prefix`. */
  removeAll(prefix: string): Promise<void>;
}

/** A finished track's stored files. */
export interface TrackFiles {
  /** The stored object (`s3://bucket/tracks/{id}.wav`) as a stream, or undefined when it is missing. */
  open(stored: string): Promise<Readable | undefined>;
}

export interface ExportDeps {
  exports: ExportRepository;
  files: ExportFiles;
  trackFiles: TrackFiles;
  generations: Pick<GenerationStore, 'listByUser' | 'get'>;
  users: Pick<UserRepository, 'get'>;
  jobs: BackgroundJobs;
  mailer: Mailer;
  clock: Clock;
  /** Waits `ms` (a track whose download is being prepared is waited for); a timer by default. */
  pause?: (ms: number) => Promise<void>;
  newId: () => string;
  /** Tracks' timed lyrics: a track that has them gets an `.lrc` beside its WAV. */
  lyrics?: Pick<LyricsStore, 'get'>;
  /** The site's origin (links in the README, provenance records). */
  siteOrigin: string;
  siteName: () => Promise<string>;
  log: {
    info(message: string, fields?: Record<string, unknown>): void;
    warn(message: string, fields?: Record<string, unknown>): void;
  };
}
