import { Readable } from 'node:stream';
import type {
  ArchiveWriter,
  ExportFiles,
  ExportRecord,
  ExportRepository,
  TrackFiles,
} from '../domain/exports/ports';

/**
 * In-memory export records with the table's contracts: `begin` stores the
 * record and takes the user's slot together, or neither when a fresh export
 * holds it; `finish` ends a preparing export once and frees the slot it holds.
 */
export function inMemoryExports(): ExportRepository & {
  all: Map<string, ExportRecord>;
  slots: Map<string, { exportId: string; startedAt: string }>;
  progressWrites: number;
} {
  const all = new Map<string, ExportRecord>();
  const slots = new Map<string, { exportId: string; startedAt: string }>();
  const copy = (r: ExportRecord | undefined) => (r ? structuredClone(r) : undefined);
  const state = {
    all,
    slots,
    progressWrites: 0,
    async begin(record: ExportRecord, staleBefore: string) {
      const slot = slots.get(record.userId);
      if (slot && slot.startedAt >= staleBefore) return false;
      slots.set(record.userId, { exportId: record.id, startedAt: record.createdAt });
      all.set(record.id, structuredClone(record));
      return true;
    },
    async get(id: string) {
      return copy(all.get(id));
    },
    async latest(userId: string) {
      const mine = [...all.values()].filter((r) => r.userId === userId);
      mine.sort((a, b) => `${b.createdAt}#${b.id}`.localeCompare(`${a.createdAt}#${a.id}`));
      return copy(mine[0]);
    },
    async startAttempt(id: string, at: string) {
      const r = all.get(id);
      if (r?.status !== 'preparing') return undefined;
      r.attempts += 1;
      r.updatedAt = at;
      return copy(r);
    },
    async progress(id: string, p: { tracksDone: number; tracksTotal: number; at: string }) {
      const r = all.get(id);
      if (r?.status !== 'preparing') return;
      state.progressWrites += 1;
      Object.assign(r, { tracksDone: p.tracksDone, tracksTotal: p.tracksTotal, updatedAt: p.at });
    },
    async finish(
      record: Pick<ExportRecord, 'id' | 'userId'>,
      outcome: Parameters<ExportRepository['finish']>[1],
      at: string,
    ) {
      const r = all.get(record.id);
      if (r?.status !== 'preparing') return false;
      Object.assign(r, outcome, { updatedAt: at });
      if (slots.get(record.userId)?.exportId === record.id) slots.delete(record.userId);
      return true;
    },
    async removeAll(userId: string) {
      for (const [id, r] of all) if (r.userId === userId) all.delete(id);
      slots.delete(userId);
    },
  };
  return state;
}

export interface FakeArchive {
  key: string;
  entries: { name: string; content: Buffer; store: boolean }[];
  state: 'writing' | 'finished' | 'aborted';
}

/**
 * Zips as lists of entries, each read to its end when added (as the real
 * writer does before the next is opened). `failOnEntry` makes adding a name
 * that matches it fail, as a broken upload would; `linkOf` is what `link` answers.
 */
export function fakeExportFiles(options: { failOnEntry?: RegExp } = {}) {
  const archives: FakeArchive[] = [];
  const removed: string[] = [];
  const links: { key: string; downloadAs: string; expiresIn: number }[] = [];
  let failOnEntry = options.failOnEntry;
  const files: ExportFiles & {
    archives: FakeArchive[];
    removed: string[];
    links: typeof links;
    failOn(pattern: RegExp | undefined): void;
  } = {
    archives,
    removed,
    links,
    failOn(pattern) {
      failOnEntry = pattern;
    },
    create(key): ArchiveWriter {
      const archive: FakeArchive = { key, entries: [], state: 'writing' };
      archives.push(archive);
      return {
        async add(name, content, addOptions = {}) {
          if (archive.state !== 'writing') throw new Error('archive closed');
          if (failOnEntry?.test(name)) throw new Error(`upload failed at ${name}`);
          const chunks: Buffer[] = [];
          if (typeof content === 'string') chunks.push(Buffer.from(content));
          else for await (const chunk of content) chunks.push(Buffer.from(chunk as Buffer));
          archive.entries.push({ name, content: Buffer.concat(chunks), store: addOptions.store ?? false });
        },
        async finish() {
          archive.state = 'finished';
          return { size: archive.entries.reduce((sum, e) => sum + e.content.length, 22) };
        },
        async abort() {
          archive.state = 'aborted';
        },
      };
    },
    async link(key, linkOptions) {
      links.push({ key, ...linkOptions });
      return `https://site.example/${key}?expires=${linkOptions.expiresIn}`;
    },
    async removeAll(prefix) {
      removed.push(prefix);
    },
  };
  return files;
}

/** Stored audio by `s3://` URL; anything else is missing. */
export function fakeTrackFiles(stored: Record<string, Buffer> = {}): TrackFiles & { opened: string[] } {
  const opened: string[] = [];
  return {
    opened,
    async open(url) {
      const bytes = stored[url];
      if (!bytes) return undefined;
      opened.push(url);
      return Readable.from([bytes.subarray(0, 3), bytes.subarray(3)]);
    },
  };
}
