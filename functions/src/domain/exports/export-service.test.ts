import { createHash } from 'node:crypto';
import { EXPORT_LINK_SECONDS, ownershipMessages } from '@tunesmith/shared/ownership';
import { describe, expect, it } from 'vitest';
import { aGeneration, aUser } from '../../testing/fixtures';
import { fakeClock, fakeMailer, inMemoryUsers } from '../../testing/in-memory-accounts';
import { fakeExportFiles, fakeTrackFiles, inMemoryExports } from '../../testing/in-memory-exports';
import { inMemoryGenerationStore } from '../../testing/in-memory-generations';
import { DomainError } from '../errors';
import type { BackgroundJob } from '../jobs';
import { provenanceOf } from '../tracks/provenance';
import type { Generation } from '../tracks/track';
import type { Manifest } from './archive-layout';
import {
  EXPORT_ATTEMPTS,
  getExport,
  latestExport,
  runExport,
  STALE_EXPORT_MS,
  startExport,
} from './export-service';
import type { ExportDeps } from './ports';

const SITE = 'https://tunesmith.example';
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** A user with tracks made before the clock's start; `wav(id)` is the stored WAV of each. */
function setup(tracks: Partial<Generation>[] = [], options: { lost?: string[] } = {}) {
  const clock = fakeClock('2026-05-01T10:00:00.000Z');
  const user = aUser({ id: 'user-1', email: 'ada@example.test' });
  const users = inMemoryUsers();
  users.all.set(user.id, user);
  const wav = (id: string) => Buffer.from(`RIFF-${id}-${'x'.repeat(40)}`);
  const generations = tracks.map((overrides, i) =>
    aGeneration({
      id: `t${i + 1}`,
      userId: user.id,
      audioUrl: `s3://tracks/tracks/t${i + 1}.wav`,
      createdAt: new Date(Date.parse('2026-04-01T00:00:00.000Z') + i * 60_000).toISOString(),
      ...overrides,
    }),
  );
  const stored = Object.fromEntries(
    generations.flatMap((g) =>
      g.audioUrl && !options.lost?.includes(g.id) ? [[g.audioUrl, wav(g.id)]] : [],
    ),
  );
  const started: BackgroundJob[] = [];
  const mailer = fakeMailer();
  const warnings: string[] = [];
  let ids = 0;
  const deps = {
    exports: inMemoryExports(),
    files: fakeExportFiles(),
    trackFiles: fakeTrackFiles(stored),
    generations: inMemoryGenerationStore(generations),
    users,
    jobs: {
      async start(job: BackgroundJob) {
        started.push(job);
      },
    },
    mailer,
    clock,
    newId: () => `exp-${++ids}`,
    siteOrigin: SITE,
    siteName: async () => 'Tunesmith',
    log: { info: () => {}, warn: (message: string) => void warnings.push(message) },
  } satisfies ExportDeps;
  return { deps, clock, user, wav, started, mailer, warnings, generations };
}

const entryNames = (deps: ReturnType<typeof setup>['deps']) =>
  deps.files.archives.at(-1)?.entries.map((e) => e.name) ?? [];
const entry = (deps: ReturnType<typeof setup>['deps'], name: string) =>
  deps.files.archives.at(-1)?.entries.find((e) => e.name === name);

describe('startExport', () => {
  it('records a preparing export and starts its job', async () => {
    const { deps, started } = setup();

    const { exportId } = await startExport(deps, 'user-1');

    expect(started).toEqual([{ kind: 'export', userId: 'user-1', exportId }]);
    expect(await getExport(deps, 'user-1', exportId)).toEqual({
      exportId,
      status: 'preparing',
      createdAt: '2026-05-01T10:00:00.000Z',
      tracksDone: 0,
      tracksTotal: null,
    });
  });

  it('refuses a second export while one is preparing, with the spec message', async () => {
    const { deps, started } = setup();
    await startExport(deps, 'user-1');

    const second = startExport(deps, 'user-1');

    await expect(second).rejects.toBeInstanceOf(DomainError);
    await expect(second).rejects.toMatchObject({
      kind: 'conflict',
      message: ownershipMessages.exportRunning,
    });
    expect(started).toHaveLength(1);
    // Another user is not held up.
    await expect(startExport(deps, 'user-2')).resolves.toEqual({ exportId: 'exp-3' });
  });

  it('lets a user start again once the last export has ended, or has been preparing for over an hour', async () => {
    const { deps, clock } = setup();
    const first = await startExport(deps, 'user-1');
    await runExport(deps, { userId: 'user-1', ...first });
    const second = await startExport(deps, 'user-1');

    clock.advance(STALE_EXPORT_MS + 1);

    await expect(startExport(deps, 'user-1')).resolves.toEqual({ exportId: 'exp-3' });
    // The dead one reads as failed, not as preparing forever.
    expect((await getExport(deps, 'user-1', second.exportId)).status).toBe('failed');
  });

  it('frees the slot and fails the export when its job cannot be started', async () => {
    const { deps } = setup();
    deps.jobs.start = async () => {
      throw new Error('Lambda unavailable');
    };

    await expect(startExport(deps, 'user-1')).rejects.toThrow('Lambda unavailable');

    expect((await latestExport(deps, 'user-1'))?.status).toBe('failed');
    deps.jobs.start = async () => {};
    await expect(startExport(deps, 'user-1')).resolves.toEqual({ exportId: 'exp-2' });
  });
});

describe('getExport and latestExport', () => {
  it("answers not found for another user's export and for an unknown id", async () => {
    const { deps } = setup();
    const { exportId } = await startExport(deps, 'user-1');

    await expect(getExport(deps, 'user-2', exportId)).rejects.toMatchObject({
      kind: 'not-found',
      message: ownershipMessages.exportNotFound,
    });
    await expect(getExport(deps, 'user-1', 'nope')).rejects.toMatchObject({ kind: 'not-found' });
    expect(await latestExport(deps, 'user-2')).toBeNull();
  });

  it('gives the newest export', async () => {
    const { deps, clock } = setup();
    const first = await startExport(deps, 'user-1');
    await runExport(deps, { userId: 'user-1', ...first });
    clock.advance(1000);
    const second = await startExport(deps, 'user-1');

    expect((await latestExport(deps, 'user-1'))?.exportId).toBe(second.exportId);
  });

  it('links a ready export until the end of its 24 hours, then keeps only its size and end', async () => {
    const { deps, clock } = setup([{ title: 'One' }]);
    const { exportId } = await startExport(deps, 'user-1');
    await runExport(deps, { userId: 'user-1', exportId });

    clock.advance(60 * 60 * 1000);
    const ready = await getExport(deps, 'user-1', exportId);
    expect(ready).toMatchObject({
      status: 'ready',
      tracksDone: 1,
      tracksTotal: 1,
      expiresAt: '2026-05-02T10:00:00.000Z',
      url: expect.stringContaining(`exports/user-1/${exportId}.zip`),
    });
    expect(ready.size).toBeGreaterThan(0);
    expect(deps.files.links.at(-1)).toEqual({
      key: `exports/user-1/${exportId}.zip`,
      downloadAs: 'tunesmith-export-2026-05-01.zip',
      expiresIn: EXPORT_LINK_SECONDS - 60 * 60,
    });

    clock.advance(EXPORT_LINK_SECONDS * 1000);
    const expired = await getExport(deps, 'user-1', exportId);
    expect(expired.url).toBeUndefined();
    expect(expired).toMatchObject({ status: 'ready', expiresAt: '2026-05-02T10:00:00.000Z' });
  });
});

describe('runExport', () => {
  it('zips every finished track: its WAV as stored, lyrics, provenance; then the manifest and README', async () => {
    const { deps, wav, generations } = setup([
      { title: 'First Song', lyrics: 'La la la\r\nla' },
      { title: 'Still generating', status: 'generating', audioUrl: null },
      { title: 'Broken', status: 'failed', audioUrl: null },
      { title: 'A/B: "mix"?', lyrics: '  ' },
    ]);
    const { exportId } = await startExport(deps, 'user-1');

    await runExport(deps, { userId: 'user-1', exportId });

    // Newest first, as the library lists them.
    expect(entryNames(deps)).toEqual([
      '001 A_B_ _mix__/A_B_ _mix__.wav',
      '001 A_B_ _mix__/provenance.json',
      '002 First Song/First Song.wav',
      '002 First Song/lyrics.txt',
      '002 First Song/provenance.json',
      'manifest.json',
      'README.txt',
    ]);
    expect(entry(deps, '002 First Song/First Song.wav')?.content).toEqual(wav('t1'));
    expect(entry(deps, '002 First Song/First Song.wav')?.store).toBe(true);
    expect(entry(deps, '002 First Song/lyrics.txt')?.content.toString()).toBe('La la la\nla\n');
    const provenance = JSON.parse(entry(deps, '002 First Song/provenance.json')?.content.toString() ?? '');
    expect(provenance).toEqual(provenanceOf(generations[0] as Generation, SITE));
    const manifest = JSON.parse(entry(deps, 'manifest.json')?.content.toString() ?? '') as Manifest;
    expect(manifest).toMatchObject({
      exportId,
      createdAt: '2026-05-01T10:00:00.000Z',
      user: { email: 'ada@example.test' },
      trackCount: 2,
    });
    expect(manifest.tracks.map((t) => [t.id, t.title, t.folder, t.files, t.sha256])).toEqual([
      ['t4', 'A/B: "mix"?', '001 A_B_ _mix__', ['A_B_ _mix__.wav', 'provenance.json'], sha256(wav('t4'))],
      [
        't1',
        'First Song',
        '002 First Song',
        ['First Song.wav', 'lyrics.txt', 'provenance.json'],
        sha256(wav('t1')),
      ],
    ]);
    expect(manifest.tracks[1]?.license).toEqual(provenance.license);
    // Each track's model and the endpoint it ran on (decision 051); tracks from before the choice read as ACE-Step.
    expect(manifest.tracks[1]).toMatchObject({ model: provenance.model, endpoint: provenance.endpoint });
    expect(manifest.tracks[1]?.model).toBe('ACE-Step');
    expect(entry(deps, 'README.txt')?.content.toString()).toContain('2 tracks');
    expect(deps.files.archives[0]).toMatchObject({
      key: `exports/user-1/${exportId}.zip`,
      state: 'finished',
    });
  });

  it("puts a timed track's lyrics in time beside its WAV as an .lrc", async () => {
    const { deps } = setup([
      { title: 'Timed', lyrics: '[verse]\nNeon over water', duration: 30 },
      { title: 'Not yet', lyrics: 'Words' },
    ]);
    const timed = {
      source: 'aligned' as const,
      lines: [{ start: 1.5, end: 3, text: 'Neon over water', words: [] }],
    };
    const withLyrics = { ...deps, lyrics: { get: async (id: string) => (id === 't1' ? timed : undefined) } };
    const { exportId } = await startExport(withLyrics, 'user-1');

    await runExport(withLyrics, { userId: 'user-1', exportId });

    expect(entryNames(deps)).toContain('002 Timed/Timed.lrc');
    expect(entryNames(deps).filter((name) => name.endsWith('.lrc'))).toEqual(['002 Timed/Timed.lrc']);
    expect(entry(deps, '002 Timed/Timed.lrc')?.content.toString()).toBe(
      '[ti:Timed]\n[length:00:30]\n[00:01.50]Neon over water\n',
    );
    const manifest = JSON.parse(entry(deps, 'manifest.json')?.content.toString() ?? '') as Manifest;
    expect(manifest.tracks.find((t) => t.title === 'Timed')?.files).toEqual([
      'Timed.wav',
      'lyrics.txt',
      'Timed.lrc',
      'provenance.json',
    ]);
  });

  it('marks the export ready with its size and the link end, frees the slot and mails the link', async () => {
    const { deps, mailer } = setup([{ title: 'One' }, { title: 'Two' }]);
    const { exportId } = await startExport(deps, 'user-1');

    await runExport(deps, { userId: 'user-1', exportId });

    const record = deps.exports.all.get(exportId);
    expect(record).toMatchObject({
      status: 'ready',
      tracksDone: 2,
      tracksTotal: 2,
      linkExpiresAt: '2026-05-02T10:00:00.000Z',
    });
    expect(record?.size).toBeGreaterThan(0);
    expect(deps.exports.slots.has('user-1')).toBe(false);
    expect(mailer.sent).toHaveLength(1);
    expect(mailer.sent[0]?.to).toBe('ada@example.test');
    expect(mailer.sent[0]?.subject).toBe('Your Tunesmith music is ready to download');
    expect(mailer.sent[0]?.text).toContain(`exports/user-1/${exportId}.zip?expires=${EXPORT_LINK_SECONDS}`);
    expect(mailer.sent[0]?.text).toContain('2 tracks');
  });

  it('reports progress as it goes, over a library of several pages, numbering every folder', async () => {
    const { deps } = setup(Array.from({ length: 120 }, (_, i) => ({ title: `Song ${i + 1}` })));
    const { exportId } = await startExport(deps, 'user-1');

    await runExport(deps, { userId: 'user-1', exportId });

    const wavs = entryNames(deps).filter((name) => name.endsWith('.wav'));
    expect(wavs).toHaveLength(120);
    expect(wavs[0]).toBe('001 Song 120/Song 120.wav');
    expect(wavs[119]).toBe('120 Song 1/Song 1.wav');
    // The total first, then one write per track.
    expect(deps.exports.progressWrites).toBe(121);
    expect(deps.exports.all.get(exportId)).toMatchObject({ tracksDone: 120, tracksTotal: 120 });
  });

  it('leaves out tracks made after the export started and tracks whose audio is gone', async () => {
    const { deps, clock, warnings } = setup([{ title: 'Kept' }, { title: 'Lost' }], { lost: ['t2'] });
    const { exportId } = await startExport(deps, 'user-1');
    clock.advance(1000);
    await deps.generations.create(
      aGeneration({ id: 'later', userId: 'user-1', createdAt: clock.now().toISOString() }),
    );

    await runExport(deps, { userId: 'user-1', exportId });

    expect(entryNames(deps).filter((n) => n.endsWith('.wav'))).toEqual(['001 Kept/Kept.wav']);
    expect(warnings).toContain('export: a track has no stored audio');
    expect(deps.exports.all.get(exportId)).toMatchObject({ status: 'ready', tracksDone: 1, tracksTotal: 1 });
  });

  it('waits for a track whose download is being prepared, and exports the prepared WAV with its hash', async () => {
    const { deps, clock, wav } = setup([
      {
        title: 'Fresh',
        audioUrl: 's3://tracks/tracks/t1.master.wav',
        downloadPending: true,
        audioSha256: null,
      },
    ]);
    const prepared = Buffer.from('RIFF-prepared-and-signed');
    deps.trackFiles = fakeTrackFiles({
      's3://tracks/tracks/t1.master.wav': wav('t1'),
      's3://tracks/tracks/t1.wav': prepared,
    });
    const pauses: number[] = [];
    const pausing = {
      ...deps,
      pause: async (ms: number) => {
        pauses.push(ms);
        clock.advance(ms);
        // PrepareDownload finishes while the job waits.
        if (pauses.length === 2)
          await deps.generations.update('t1', (g) => ({
            ...g,
            audioUrl: 's3://tracks/tracks/t1.wav',
            audioSha256: sha256(prepared),
            downloadPending: false,
          }));
      },
    };
    const { exportId } = await startExport(pausing, 'user-1');

    await runExport(pausing, { userId: 'user-1', exportId });

    expect(pauses).toHaveLength(2);
    expect(entry(deps, '001 Fresh/Fresh.wav')?.content).toEqual(prepared);
    const manifest = JSON.parse(String(entry(deps, 'manifest.json')?.content));
    expect(manifest.tracks[0]).toMatchObject({ sha256: sha256(prepared) });
    expect(deps.exports.all.get(exportId)).toMatchObject({ status: 'ready', tracksDone: 1 });
  });

  it('fails the run for a retry when a download is still being prepared after the wait', async () => {
    const { deps, clock } = setup([{ title: 'Stuck', downloadPending: true }]);
    const pausing = { ...deps, pause: async (ms: number) => clock.advance(ms) };
    const { exportId } = await startExport(pausing, 'user-1');

    await expect(runExport(pausing, { userId: 'user-1', exportId })).rejects.toThrow('still being prepared');
    // Not failed yet: Lambda runs it again.
    expect(deps.exports.all.get(exportId)?.status).toBe('preparing');
    expect(deps.files.archives.at(-1)?.entries.some((e) => e.name.endsWith('.wav'))).toBe(false);
  });

  /** A ready set of 4 stems whose WAVs play as they came, their downloads still being prepared (decision 048). */
  const stemsBeingPrepared = (): Generation['stems'] => ({
    '4': {
      set: '4',
      status: 'ready',
      requestedAt: '2026-04-02T00:00:00.000Z',
      attempt: 1,
      requestId: 'r1',
      model: 'htdemucs',
      files: (['vocals', 'drums', 'bass', 'other'] as const).map((name) => ({
        name,
        wavUrl: `s3://tracks/tracks/t1.stems4.${name}.master.wav`,
        streamUrl: null,
        peaksUrl: null,
        sha256: null,
        loudness: null,
      })),
      updatedAt: '2026-04-02T00:00:00.000Z',
    },
  });

  it('waits for stems whose downloads are being prepared, and exports the prepared WAVs with their hashes', async () => {
    const { deps, clock, wav } = setup([{ title: 'Parts', stems: stemsBeingPrepared() }]);
    const prepared = (name: string) => Buffer.from(`RIFF-${name}-marked`);
    deps.trackFiles = fakeTrackFiles({
      's3://tracks/tracks/t1.wav': wav('t1'),
      ...Object.fromEntries(
        ['vocals', 'drums', 'bass', 'other'].flatMap((name) => [
          [`s3://tracks/tracks/t1.stems4.${name}.master.wav`, Buffer.from(`RIFF-${name}-as-it-came`)],
          [`s3://tracks/tracks/t1.stems4.${name}.wav`, prepared(name)],
        ]),
      ),
    });
    const pauses: number[] = [];
    const pausing = {
      ...deps,
      pause: async (ms: number) => {
        pauses.push(ms);
        clock.advance(ms);
        // FinishStems prepares the downloads while the job waits.
        if (pauses.length === 1)
          await deps.generations.update('t1', (g) => {
            const set = g.stems?.['4'];
            if (!set) return undefined;
            const files = set.files.map((f) => ({
              ...f,
              wavUrl: `s3://tracks/tracks/t1.stems4.${f.name}.wav`,
              sha256: sha256(prepared(f.name)),
            }));
            return { ...g, stems: { '4': { ...set, files } } };
          });
      },
    };
    const { exportId } = await startExport(pausing, 'user-1');

    await runExport(pausing, { userId: 'user-1', exportId });

    expect(pauses).toHaveLength(1);
    expect(entry(deps, '001 Parts/stems-4/vocals.wav')?.content).toEqual(prepared('vocals'));
    const manifest = JSON.parse(String(entry(deps, 'manifest.json')?.content));
    expect(manifest.tracks[0].stems).toContainEqual({
      set: '4',
      name: 'vocals',
      file: 'stems-4/vocals.wav',
      sha256: sha256(prepared('vocals')),
    });
  });

  it('leaves out stems whose downloads are still being prepared after the wait, and exports the track', async () => {
    const { deps, clock, warnings } = setup([{ title: 'Parts', stems: stemsBeingPrepared() }]);
    const pausing = { ...deps, pause: async (ms: number) => clock.advance(ms) };
    const { exportId } = await startExport(pausing, 'user-1');

    await runExport(pausing, { userId: 'user-1', exportId });

    expect(entryNames(deps)).toContain('001 Parts/Parts.wav');
    expect(entryNames(deps).some((name) => name.includes('stems-4/'))).toBe(false);
    expect(warnings).toContain('export: a stem’s download is still being prepared; it is left out');
    expect(deps.exports.all.get(exportId)).toMatchObject({ status: 'ready', tracksDone: 1 });
  });

  it('exports an empty library as a manifest and README', async () => {
    const { deps } = setup();
    const { exportId } = await startExport(deps, 'user-1');

    await runExport(deps, { userId: 'user-1', exportId });

    expect(entryNames(deps)).toEqual(['manifest.json', 'README.txt']);
    expect(deps.exports.all.get(exportId)?.status).toBe('ready');
  });

  it('does nothing when run again after it finished (a repeated delivery)', async () => {
    const { deps, mailer } = setup([{ title: 'One' }]);
    const { exportId } = await startExport(deps, 'user-1');
    await runExport(deps, { userId: 'user-1', exportId });

    await runExport(deps, { userId: 'user-1', exportId });

    expect(deps.files.archives).toHaveLength(1);
    expect(mailer.sent).toHaveLength(1);
  });

  it('ignores a job for an export that is not that user’s', async () => {
    const { deps } = setup([{ title: 'One' }]);
    const { exportId } = await startExport(deps, 'user-1');

    await runExport(deps, { userId: 'user-2', exportId });

    expect(deps.files.archives).toHaveLength(0);
    expect(deps.exports.all.get(exportId)?.status).toBe('preparing');
  });

  it('aborts the partial upload and fails the run, so Lambda runs it again, and succeeds on a later attempt', async () => {
    const { deps, mailer } = setup([{ title: 'One' }, { title: 'Two' }]);
    const { exportId } = await startExport(deps, 'user-1');
    deps.files.failOn(/^002 /);

    await expect(runExport(deps, { userId: 'user-1', exportId })).rejects.toThrow('upload failed');

    expect(deps.files.archives[0]?.state).toBe('aborted');
    expect(deps.exports.all.get(exportId)).toMatchObject({ status: 'preparing', attempts: 1 });
    expect(mailer.sent).toEqual([]);

    deps.files.failOn(undefined);
    await runExport(deps, { userId: 'user-1', exportId });

    expect(deps.files.archives[1]?.state).toBe('finished');
    expect(deps.exports.all.get(exportId)).toMatchObject({ status: 'ready', tracksDone: 2, attempts: 2 });
  });

  it('marks the export failed on its last attempt, frees the slot and sends a short failure mail', async () => {
    const { deps, mailer } = setup([{ title: 'One' }]);
    const { exportId } = await startExport(deps, 'user-1');
    deps.files.failOn(/\.wav$/);

    for (let attempt = 1; attempt <= EXPORT_ATTEMPTS; attempt++)
      await expect(runExport(deps, { userId: 'user-1', exportId })).rejects.toThrow('upload failed');

    expect(deps.files.archives.map((a) => a.state)).toEqual(['aborted', 'aborted', 'aborted']);
    expect(deps.exports.all.get(exportId)?.status).toBe('failed');
    expect(deps.exports.slots.has('user-1')).toBe(false);
    expect(mailer.sent.map((m) => m.subject)).toEqual(['Your Tunesmith export failed']);
    expect(mailer.sent[0]?.text).toContain(`${SITE}/profile`);
  });

  it('fails an export whose user is gone, without mail', async () => {
    const { deps, mailer, user } = setup([{ title: 'One' }]);
    const { exportId } = await startExport(deps, 'user-1');
    deps.users.all.delete(user.id);

    await runExport(deps, { userId: 'user-1', exportId });

    expect(deps.exports.all.get(exportId)?.status).toBe('failed');
    expect(deps.files.archives).toHaveLength(0);
    expect(mailer.sent).toEqual([]);
  });

  it('fails an export whose job arrives after it went stale, without writing it', async () => {
    const { deps, clock } = setup([{ title: 'One' }]);
    const { exportId } = await startExport(deps, 'user-1');
    clock.advance(STALE_EXPORT_MS + 1);

    await runExport(deps, { userId: 'user-1', exportId });

    expect(deps.exports.all.get(exportId)?.status).toBe('failed');
    expect(deps.files.archives).toHaveLength(0);
  });

  it('keeps the export ready when the mail cannot be sent', async () => {
    const { deps, mailer, warnings } = setup([{ title: 'One' }]);
    const { exportId } = await startExport(deps, 'user-1');
    mailer.failNext();

    await runExport(deps, { userId: 'user-1', exportId });

    expect(deps.exports.all.get(exportId)?.status).toBe('ready');
    expect(warnings).toContain('export mail not sent');
  });
});
