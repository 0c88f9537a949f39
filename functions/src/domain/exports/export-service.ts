/**
 * Export everything: one zip of every finished track a user owns, prepared by
 * a background job and linked for 24 hours (decision 021).
 *
 * `startExport` records the export and takes the user's one export slot in a
 * single conditional write (a second start while one prepares is a conflict),
 * then starts the job. `runExport` is the job: it pages through the library,
 * streams each track's stored WAV into the zip as it goes (one track open at
 * a time, so memory stays flat whatever the library's size), adds its lyrics
 * and provenance record, then the manifest and a README, and marks the export
 * ready with its size and the link's end, and mails the link. It can run
 * again from the start: a finished export is left alone, and a failed run
 * discards its partial upload and is retried; the last of Lambda's three
 * attempts marks the export failed and says so by mail. A preparing export
 * older than an hour is dead (its job crashed or timed out every time): it
 * reads as failed and frees the slot.
 */
import { createHash } from 'node:crypto';
import { pipeline, type Readable, Transform } from 'node:stream';
import {
  EXPORT_LINK_SECONDS,
  type ExportStatus,
  ownershipMessages,
  type UserExport,
} from '@tunesmith/shared/ownership';
import { UNTITLED_TRACK } from '@tunesmith/shared/tracks';
import type { User } from '../accounts/user';
import { conflict, notFound } from '../errors';
import { lrcFileName, toLrc } from '../lyrics/lrc';
import { anyStemsPreparing } from '../stems/stems';
import { provenanceOf, provenanceUrl } from '../tracks/provenance';
import type { Generation } from '../tracks/track';
import {
  folderName,
  LYRICS_FILE,
  lyricsText,
  MANIFEST_FILE,
  type Manifest,
  type ManifestStem,
  type ManifestTrack,
  manifestTrack,
  PROVENANCE_FILE,
  README_FILE,
  readmeText,
  stemFileName,
  wavFileName,
} from './archive-layout';
import { exportFailedMail, exportReadyMail } from './mail';
import { type ArchiveWriter, type ExportDeps, type ExportRecord, exportKey, exportPrefix } from './ports';

/** A preparing export older than this is dead: its job can no longer be running (3 × 15 min and the retries' pauses). */
export const STALE_EXPORT_MS = 60 * 60 * 1000;
/** Lambda runs an asynchronous invocation at most this many times (the first and two retries). */
export const EXPORT_ATTEMPTS = 3;
/** Library items read per page. */
const PAGE = 50;
/**
 * How long the job waits for a track whose download is being prepared (it
 * plays already; PrepareDownload takes seconds, and its retries a few
 * minutes), and how often it looks again. Past that the run fails, for
 * Lambda to run it again.
 */
export const PREPARING_WAIT_MS = 3 * 60 * 1000;
const PREPARING_POLL_MS = 2000;
const timer = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

const isStale = (record: Pick<ExportRecord, 'status' | 'createdAt'>, now: Date) =>
  record.status === 'preparing' && Date.parse(record.createdAt) < now.getTime() - STALE_EXPORT_MS;

/** The name the zip saves as: `tunesmith-export-2026-05-01.zip`. */
export const exportFilename = (createdAt: string) => `tunesmith-export-${createdAt.slice(0, 10)}.zip`;

/** Whether a track goes into an export started at `startedAt`: finished, with stored audio, made before. */
const exportable = (g: Generation, startedAt: string): g is Generation & { audioUrl: string } =>
  g.status === 'completed' && !!g.audioUrl && g.createdAt <= startedAt;

/**
 * Records a new export for the user and starts its job. Refused with a
 * conflict while another export of theirs is preparing.
 */
export async function startExport(
  deps: Pick<ExportDeps, 'exports' | 'jobs' | 'clock' | 'newId'>,
  userId: string,
): Promise<{ exportId: string }> {
  const now = deps.clock.now();
  const at = now.toISOString();
  const record: ExportRecord = {
    id: deps.newId(),
    userId,
    status: 'preparing',
    createdAt: at,
    updatedAt: at,
    tracksDone: 0,
    tracksTotal: null,
    attempts: 0,
  };
  const staleBefore = new Date(now.getTime() - STALE_EXPORT_MS).toISOString();
  if (!(await deps.exports.begin(record, staleBefore))) throw conflict(ownershipMessages.exportRunning);
  try {
    await deps.jobs.start({ kind: 'export', userId, exportId: record.id });
  } catch (error) {
    // Nothing will prepare it: free the slot, so the user can try again at once.
    await deps.exports.finish(record, { status: 'failed' }, deps.clock.now().toISOString());
    throw error;
  }
  return { exportId: record.id };
}

/** What the user sees of an export: its state, progress and, while it lasts, the link. */
async function view(deps: Pick<ExportDeps, 'files' | 'clock'>, record: ExportRecord): Promise<UserExport> {
  const now = deps.clock.now();
  const status: ExportStatus = isStale(record, now) ? 'failed' : record.status;
  const base: UserExport = {
    exportId: record.id,
    status,
    createdAt: record.createdAt,
    tracksDone: record.tracksDone,
    tracksTotal: record.tracksTotal,
  };
  if (status !== 'ready' || !record.linkExpiresAt || record.size === undefined) return base;
  const secondsLeft = Math.floor((Date.parse(record.linkExpiresAt) - now.getTime()) / 1000);
  // Signed when read, valid until the export's own end: a link handed out twice ends at the same time.
  const url =
    secondsLeft > 0
      ? await deps.files.link(exportKey(record.userId, record.id), {
          downloadAs: exportFilename(record.createdAt),
          expiresIn: secondsLeft,
        })
      : undefined;
  return { ...base, size: record.size, expiresAt: record.linkExpiresAt, ...(url ? { url } : {}) };
}

/** One of the user's exports; anyone else's, or none, is not found. */
export async function getExport(
  deps: Pick<ExportDeps, 'exports' | 'files' | 'clock'>,
  userId: string,
  exportId: string,
): Promise<UserExport> {
  const record = await deps.exports.get(exportId);
  if (!record || record.userId !== userId) throw notFound(ownershipMessages.exportNotFound);
  return view(deps, record);
}

/** The user's newest export, or null: the profile picks up a running export after a reload. */
export async function latestExport(
  deps: Pick<ExportDeps, 'exports' | 'files' | 'clock'>,
  userId: string,
): Promise<UserExport | null> {
  const record = await deps.exports.latest(userId);
  return record ? view(deps, record) : null;
}

/** Passes a stream through while hashing it; the digest is read once it has ended. */
function hashing(source: Readable): { stream: Readable; digest: () => string } {
  const hash = createHash('sha256');
  const tap = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk);
      done(null, chunk);
    },
  });
  // A failing source fails the tap, and so the archive entry reading it.
  const stream = pipeline(source, tap, () => {});
  return { stream, digest: () => hash.digest('hex') };
}

/** Finished tracks in the export, counted before writing so the profile can show "n of N". */
async function countTracks(deps: Pick<ExportDeps, 'generations'>, record: ExportRecord): Promise<number> {
  let count = 0;
  let cursor: string | undefined;
  do {
    const page = await deps.generations.listByUser(record.userId, {
      limit: PAGE,
      ...(cursor ? { cursor } : {}),
    });
    count += page.items.filter((g) => exportable(g, record.createdAt)).length;
    cursor = page.cursor;
  } while (cursor);
  return count;
}

/**
 * The track once its WAV download is there: the export holds the marked,
 * signed file and its hash, never the master a track plays from while its
 * download is being prepared. Undefined when it was deleted meanwhile.
 */
async function withDownload(
  deps: Pick<ExportDeps, 'generations' | 'clock' | 'pause'>,
  track: Generation & { audioUrl: string },
): Promise<(Generation & { audioUrl: string }) | undefined> {
  const deadline = deps.clock.now().getTime() + PREPARING_WAIT_MS;
  let current: Generation | undefined = track;
  // Stems being prepared (decision 048) are waited for as well; past the deadline they are left out, not the track.
  while (current?.downloadPending || anyStemsPreparing(current?.stems)) {
    if (deps.clock.now().getTime() >= deadline) {
      if (current?.downloadPending)
        throw new Error(`export: the download of track ${track.id} is still being prepared`);
      break;
    }
    await (deps.pause ?? timer)(PREPARING_POLL_MS);
    current = await deps.generations.get(track.id);
  }
  return current?.audioUrl ? { ...current, audioUrl: current.audioUrl } : undefined;
}

/**
 * The track's stems that are ready (decision 044), each set in `stems-{set}/`
 * of its folder, streamed and hashed as they go in. A stem whose file is
 * gone is left out (and logged), as a track's is.
 */
async function addStems(
  deps: ExportDeps,
  record: ExportRecord,
  writer: ArchiveWriter,
  folder: string,
  g: Generation,
): Promise<ManifestStem[]> {
  const added: ManifestStem[] = [];
  for (const set of ['4', '6'] as const) {
    const stems = g.stems?.[set];
    if (stems?.status !== 'ready') continue;
    for (const stem of stems.files) {
      if (stem.sha256 === null) {
        deps.log.warn('export: a stem’s download is still being prepared; it is left out', {
          exportId: record.id,
          trackId: g.id,
          stem: stem.name,
        });
        continue;
      }
      const audio = await deps.trackFiles.open(stem.wavUrl);
      if (!audio) {
        deps.log.warn('export: a stem has no stored audio', {
          exportId: record.id,
          trackId: g.id,
          stem: stem.name,
        });
        continue;
      }
      const file = stemFileName(set, stem.name);
      const hashed = hashing(audio);
      await writer.add(`${folder}/${file}`, hashed.stream, { store: true });
      added.push({ set, name: stem.name, file, sha256: hashed.digest() });
    }
  }
  return added;
}

/** Writes every track's folder, then the manifest and the README; returns how many tracks went in. */
async function writeArchive(
  deps: ExportDeps,
  record: ExportRecord,
  user: User,
  writer: ArchiveWriter,
  total: number,
): Promise<number> {
  const tracks: ManifestTrack[] = [];
  const width = String(total).length;
  let cursor: string | undefined;
  do {
    const page = await deps.generations.listByUser(record.userId, {
      limit: PAGE,
      ...(cursor ? { cursor } : {}),
    });
    for (const listed of page.items) {
      if (!exportable(listed, record.createdAt)) continue;
      const g = await withDownload(deps, listed);
      if (!g) continue;
      const audio = await deps.trackFiles.open(g.audioUrl);
      if (!audio) {
        // Deleted since the page was read, or lost: the export goes on without it.
        deps.log.warn('export: a track has no stored audio', { exportId: record.id, trackId: g.id });
        continue;
      }
      const folder = folderName(tracks.length + 1, width, g.title);
      const wav = wavFileName(g.title);
      const hashed = hashing(audio);
      await writer.add(`${folder}/${wav}`, hashed.stream, { store: true });
      const files = [wav];
      const stems = await addStems(deps, record, writer, folder, g);
      files.push(...stems.map((stem) => stem.file));
      const lyrics = lyricsText(g);
      if (lyrics !== undefined) {
        await writer.add(`${folder}/${LYRICS_FILE}`, lyrics);
        files.push(LYRICS_FILE);
      }
      const timed = lyrics === undefined ? undefined : await deps.lyrics?.get(g.id);
      if (timed) {
        const lrc = lrcFileName(wav);
        await writer.add(
          `${folder}/${lrc}`,
          toLrc(timed, { title: g.title ?? UNTITLED_TRACK, length: g.duration }),
        );
        files.push(lrc);
      }
      const provenance = provenanceOf(g, deps.siteOrigin);
      await writer.add(`${folder}/${PROVENANCE_FILE}`, `${JSON.stringify(provenance, null, 2)}\n`);
      files.push(PROVENANCE_FILE);
      tracks.push(
        manifestTrack(g, provenance, {
          folder,
          files,
          sha256: hashed.digest(),
          provenanceUrl: provenanceUrl(deps.siteOrigin, g.id),
          ...(stems.length ? { stems } : {}),
        }),
      );
      await deps.exports.progress(record.id, {
        tracksDone: tracks.length,
        tracksTotal: Math.max(total, tracks.length),
        at: deps.clock.now().toISOString(),
      });
    }
    cursor = page.cursor;
  } while (cursor);

  const manifest: Manifest = {
    exportId: record.id,
    createdAt: record.createdAt,
    site: deps.siteOrigin,
    user: { email: user.email },
    trackCount: tracks.length,
    tracks,
  };
  await writer.add(MANIFEST_FILE, `${JSON.stringify(manifest, null, 2)}\n`);
  await writer.add(
    README_FILE,
    readmeText({
      siteName: await deps.siteName(),
      siteOrigin: deps.siteOrigin,
      email: user.email,
      createdAt: record.createdAt,
      trackCount: tracks.length,
    }),
  );
  return tracks.length;
}

/** Marks the export failed (if it still prepares) and tells the user, when there is one to tell. */
async function fail(deps: ExportDeps, record: ExportRecord, user: User | undefined): Promise<void> {
  const ended = await deps.exports.finish(record, { status: 'failed' }, deps.clock.now().toISOString());
  if (!ended || !user) return;
  try {
    await deps.mailer.send(
      exportFailedMail({ to: user.email, siteOrigin: deps.siteOrigin, siteName: await deps.siteName() }),
    );
  } catch (error) {
    deps.log.warn('export failure mail not sent', { exportId: record.id, error });
  }
}

/**
 * The export job. Safe to run again: an export that has ended is left as it
 * is; one still preparing is written from the start (the zip's key is the
 * same, so a later run replaces what an earlier one left).
 */
export async function runExport(deps: ExportDeps, job: { userId: string; exportId: string }): Promise<void> {
  const found = await deps.exports.get(job.exportId);
  if (!found || found.userId !== job.userId || found.status !== 'preparing') return;
  const user = await deps.users.get(job.userId);
  if (!user || isStale(found, deps.clock.now())) return fail(deps, found, user);
  const record = await deps.exports.startAttempt(found.id, deps.clock.now().toISOString());
  if (!record) return;

  const key = exportKey(record.userId, record.id);
  let writer: ArchiveWriter | undefined;
  try {
    const total = await countTracks(deps, record);
    await deps.exports.progress(record.id, {
      tracksDone: 0,
      tracksTotal: total,
      at: deps.clock.now().toISOString(),
    });
    writer = deps.files.create(key);
    const written = await writeArchive(deps, record, user, writer, total);
    const { size } = await writer.finish();
    writer = undefined;
    const linkExpiresAt = new Date(deps.clock.now().getTime() + EXPORT_LINK_SECONDS * 1000).toISOString();
    const ready = await deps.exports.finish(
      record,
      { status: 'ready', size, linkExpiresAt, tracksDone: written, tracksTotal: written },
      deps.clock.now().toISOString(),
    );
    if (!ready) return;
    deps.log.info('export ready', { exportId: record.id, tracks: written, size });
    try {
      const link = await deps.files.link(key, {
        downloadAs: exportFilename(record.createdAt),
        expiresIn: EXPORT_LINK_SECONDS,
      });
      await deps.mailer.send(
        exportReadyMail({
          to: user.email,
          link,
          siteName: await deps.siteName(),
          tracks: written,
          size,
          expiresAt: linkExpiresAt,
        }),
      );
    } catch (error) {
      // The export is ready and the profile shows the link; a retry would not mail again.
      deps.log.warn('export mail not sent', { exportId: record.id, error });
    }
  } catch (error) {
    await writer
      ?.abort()
      .catch((abortError: unknown) =>
        deps.log.warn('export: partial upload not aborted', { exportId: record.id, error: abortError }),
      );
    if (record.attempts >= EXPORT_ATTEMPTS) await fail(deps, record, user);
    // Lambda runs it again (or, after the last attempt, keeps the event with the failed ones).
    throw error;
  }
}

/** Removes every export of a user: the zips and the records (deleting an account). */
export async function forgetExports(
  deps: Pick<ExportDeps, 'exports' | 'files'>,
  userId: string,
): Promise<void> {
  await deps.files.removeAll(exportPrefix(userId));
  await deps.exports.removeAll(userId);
}
