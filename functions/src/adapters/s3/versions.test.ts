import {
  DeleteObjectsCommand,
  type DeleteObjectsCommandInput,
  ListObjectVersionsCommand,
  type ListObjectVersionsCommandInput,
  type S3Client,
} from '@aws-sdk/client-s3';
import { describe, expect, it } from 'vitest';
import { s3AudioStore } from './audio-store';
import { s3Of } from './client';
import { s3ExportFiles } from './export-files';
import { s3TrackAudio } from './track-audio';
import { deleteEveryVersion, s3VersionSweeper } from './versions';

type Stored = { key: string; versionId: string; deleteMarker?: boolean };

/**
 * A bucket that keeps versions, as S3 runs one: ListObjectVersions lists
 * versions and delete markers by key (pages of `MaxKeys`), DeleteObjects with
 * version ids deletes those versions for good. Every call is recorded.
 */
function versionedBucket(
  bucket: string,
  stored: Stored[],
  options: { refuse?: string; keepsQuietly?: boolean; pageSize?: number } = {},
) {
  let held = [...stored];
  const calls: { command: string; input: unknown }[] = [];
  const client = {
    async send(command: unknown) {
      if (command instanceof ListObjectVersionsCommand) {
        const input = command.input as ListObjectVersionsCommandInput;
        calls.push({ command: 'ListObjectVersions', input });
        expect(input.Bucket).toBe(bucket);
        const matching = held
          .filter((v) => v.key.startsWith(input.Prefix ?? ''))
          .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
        const page = matching.slice(0, options.pageSize ?? input.MaxKeys ?? 1000);
        return {
          IsTruncated: matching.length > page.length,
          Versions: page.filter((v) => !v.deleteMarker).map((v) => ({ Key: v.key, VersionId: v.versionId })),
          DeleteMarkers: page
            .filter((v) => v.deleteMarker)
            .map((v) => ({ Key: v.key, VersionId: v.versionId })),
        };
      }
      if (command instanceof DeleteObjectsCommand) {
        const input = command.input as DeleteObjectsCommandInput;
        calls.push({ command: 'DeleteObjects', input });
        expect(input.Bucket).toBe(bucket);
        const objects = input.Delete?.Objects ?? [];
        const refused = objects.filter((o) => o.Key === options.refuse);
        held = held.filter(
          (v) =>
            options.keepsQuietly ||
            v.key === options.refuse ||
            !objects.some((o) => o.Key === v.key && o.VersionId === v.versionId),
        );
        return {
          Errors: refused.map((o) => ({
            Key: o.Key,
            VersionId: o.VersionId,
            Code: 'AccessDenied',
            Message: 'no',
          })),
        };
      }
      throw new Error(`unexpected command ${(command as object).constructor.name}`);
    },
  } as unknown as S3Client;
  return { s3: s3Of(client), calls, held: () => held };
}

const bucket = 'tunesmith-tracks';

describe('deleting every version of an object', () => {
  it('deletes each version and delete marker of the key by its id, and nothing of a longer key', async () => {
    const store = versionedBucket(bucket, [
      { key: 'tracks/t1.wav', versionId: 'v1' },
      { key: 'tracks/t1.wav', versionId: 'v2' },
      { key: 'tracks/t1.wav', versionId: 'm1', deleteMarker: true },
      { key: 'tracks/t1.wav.peaks', versionId: 'p1' },
      { key: 'tracks/t2.wav', versionId: 'w1' },
    ]);

    await deleteEveryVersion(store.s3, bucket, 'tracks/t1.wav');

    expect(store.held()).toEqual([
      { key: 'tracks/t1.wav.peaks', versionId: 'p1' },
      { key: 'tracks/t2.wav', versionId: 'w1' },
    ]);
    expect(store.calls[0]).toEqual({
      command: 'ListObjectVersions',
      input: { Bucket: bucket, Prefix: 'tracks/t1.wav', MaxKeys: 1000 },
    });
    expect(store.calls[1]).toEqual({
      command: 'DeleteObjects',
      input: {
        Bucket: bucket,
        Delete: {
          Objects: [
            { Key: 'tracks/t1.wav', VersionId: 'v1' },
            { Key: 'tracks/t1.wav', VersionId: 'v2' },
            { Key: 'tracks/t1.wav', VersionId: 'm1' },
          ],
          Quiet: true,
        },
      },
    });
    // The listing was the whole of it: nothing left to ask.
    expect(store.calls.map((c) => c.command)).toEqual(['ListObjectVersions', 'DeleteObjects']);
  });

  it("deletes an unversioned bucket's object through its one version, null", async () => {
    const store = versionedBucket(bucket, [{ key: 'tracks/t1.opus', versionId: 'null' }]);
    await deleteEveryVersion(store.s3, bucket, 'tracks/t1.opus');
    expect(store.held()).toEqual([]);
  });

  it('asks once and deletes nothing when the object is gone already', async () => {
    const store = versionedBucket(bucket, [{ key: 'tracks/other.wav', versionId: 'v1' }]);
    await deleteEveryVersion(store.s3, bucket, 'tracks/t1.wav');
    expect(store.calls.map((c) => c.command)).toEqual(['ListObjectVersions']);
    expect(store.held()).toHaveLength(1);
  });

  it('fails with what S3 refused, rather than leave a version behind unsaid', async () => {
    const store = versionedBucket(bucket, [{ key: 'tracks/t1.wav', versionId: 'v1' }], {
      refuse: 'tracks/t1.wav',
    });
    await expect(deleteEveryVersion(store.s3, bucket, 'tracks/t1.wav')).rejects.toThrow(
      'S3 did not delete tracks/t1.wav version v1: AccessDenied no',
    );
  });

  it('stops when a version it deleted is listed again, rather than ask for ever', async () => {
    const store = versionedBucket(
      bucket,
      [
        { key: 'tracks/t1.wav', versionId: 'v1' },
        { key: 'tracks/t2.wav', versionId: 'v1' },
      ],
      { keepsQuietly: true, pageSize: 1 },
    );
    // Pages of one: the listing says there is more, and the same version comes back first.
    await expect(s3VersionSweeper(store.s3, bucket).deletePrefix('tracks/')).rejects.toThrow(
      'S3 still lists tracks/t1.wav version v1 after deleting it',
    );
    expect(store.calls.map((c) => c.command)).toEqual([
      'ListObjectVersions',
      'DeleteObjects',
      'ListObjectVersions',
    ]);
  });
});

describe('sweeping a prefix of a bucket that keeps versions', () => {
  it('deletes every version under the prefix, page after page, and counts the objects', async () => {
    const many: Stored[] = Array.from({ length: 1200 }, (_, i) => ({
      key: `exports/u1/${String(i).padStart(4, '0')}.zip`,
      versionId: `v${i}`,
    }));
    const store = versionedBucket(bucket, [
      ...many,
      { key: 'exports/u1/0000.zip', versionId: 'old' },
      { key: 'exports/u10/a.zip', versionId: 'x' },
    ]);

    expect(await s3VersionSweeper(store.s3, bucket).deletePrefix('exports/u1/')).toBe(1200);

    expect(store.held()).toEqual([{ key: 'exports/u10/a.zip', versionId: 'x' }]);
    const deletes = store.calls.filter((c) => c.command === 'DeleteObjects');
    expect(deletes).toHaveLength(2);
  });

  it('refuses a prefix that is not a folder', async () => {
    const store = versionedBucket(bucket, []);
    await expect(s3VersionSweeper(store.s3, bucket).deletePrefix('exports/u1')).rejects.toThrow('Refusing');
    expect(store.calls).toEqual([]);
  });
});

describe('the tracks bucket adapters delete every version', () => {
  const files = (): Stored[] => [
    { key: 'tracks/t1.wav', versionId: 'v1' },
    { key: 'tracks/t1.wav', versionId: 'm1', deleteMarker: true },
    { key: 'exports/u1/e1.zip', versionId: 'z1' },
    { key: 'exports/u1/e1.zip', versionId: 'z0' },
  ];

  it("a deleted track's audio (the library, the admin area, the account cascade)", async () => {
    const store = versionedBucket(bucket, files());
    const links = { read: async () => 'unused' };
    await s3TrackAudio(store.s3, links, bucket).remove(`s3://${bucket}/tracks/t1.wav`);
    // Audio kept elsewhere is not ours to delete.
    await s3TrackAudio(store.s3, links, bucket).remove('s3://elsewhere/tracks/t1.wav');
    expect(store.held().map((v) => v.key)).toEqual(['exports/u1/e1.zip', 'exports/u1/e1.zip']);
  });

  it('a file the workflow removes again (its track was deleted while it was made)', async () => {
    const store = versionedBucket(bucket, files());
    await s3AudioStore(store.s3, bucket).remove('tracks/t1.wav');
    expect(store.held().map((v) => v.key)).toEqual(['exports/u1/e1.zip', 'exports/u1/e1.zip']);
  });

  it("a deleted user's export zips", async () => {
    const store = versionedBucket(bucket, files());
    await s3ExportFiles(store.s3, bucket, { read: async () => 'unused' }).removeAll('exports/u1/');
    expect(store.held().map((v) => v.key)).toEqual(['tracks/t1.wav', 'tracks/t1.wav']);
  });
});
