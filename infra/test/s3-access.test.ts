import { EXPORTS_AREA } from '@tunesmith/functions/domain/exports/ports';
import { TRACK_AUDIO_AREA } from '@tunesmith/functions/domain/tracks/track';
import { INCOMING_AREA } from '@tunesmith/functions/domain/uploads/uploads';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  actionsOf,
  flatten,
  functionsByEntry,
  logicalId,
  propsOf,
  type Resource,
  resourcesOf,
  type Statement,
  SYNTH_TIMEOUT_MS,
  statementsOfFunction,
  synthBeforeAll,
} from './helpers';
import { type S3Request, s3CommandActions, s3RequestsIn, s3RequestsOfEntries } from './s3-requests';

// Decision 034: every S3 request a function's code can send is granted to its role, on the right bucket, as
// derived from the code (s3-requests.ts), so a missing action fails here rather than on AWS.

const synthesized = synthBeforeAll();
const { resources } = synthesized;

/** The environment variables naming the buckets a function works in. */
type BucketVariable = 'UPLOADS_BUCKET' | 'TRACKS_BUCKET' | 'SITE_BUCKET';

/**
 * Which bucket each module's S3 requests go to. The adapters take their
 * bucket from the wiring; a module that sends requests and is not named here
 * fails the test until it is.
 */
const bucketsOfModule: Record<string, readonly BucketVariable[]> = {
  'functions/src/adapters/s3/upload-store.ts': ['UPLOADS_BUCKET'],
  'functions/src/adapters/s3/multipart-store.ts': ['UPLOADS_BUCKET'],
  // A delete is final there; the tracks bucket, which keeps versions, is swept by versions.ts.
  'functions/src/adapters/s3/sweeper.ts': ['UPLOADS_BUCKET'],
  'functions/src/adapters/s3/versions.ts': ['TRACKS_BUCKET'],
  'functions/src/adapters/s3/audio-store.ts': ['TRACKS_BUCKET'],
  'functions/src/adapters/s3/export-files.ts': ['TRACKS_BUCKET'],
  // Export zips, written in parts by export-archive.ts.
  '@aws-sdk/lib-storage': ['TRACKS_BUCKET'],
  'functions/src/adapters/share/share-pages.ts': ['SITE_BUCKET'],
  // Public playlists' and profiles' documents (decisions 058, 059).
  'functions/src/adapters/share/playlist-share-pages.ts': ['SITE_BUCKET'],
  'functions/src/adapters/share/creator-pages.ts': ['SITE_BUCKET'],
  'functions/src/adapters/share/share-document-list.ts': ['SITE_BUCKET'],
  // The pricing page's document (decision 038).
  'functions/src/adapters/share/pricing-page.ts': ['SITE_BUCKET'],
  // Presigned links to an upload or a track file: either bucket.
  'functions/src/adapters/s3/links.ts': ['UPLOADS_BUCKET', 'TRACKS_BUCKET'],
};

/**
 * Requests a module can send that only some of the entries reaching it do
 * send: the module is shared, the call that sends the request is not. An
 * entry not listed does not need the request's actions. Everything else a
 * module sends is needed by every entry that reaches it, so a request added
 * to a module needs its grant everywhere until it is named here.
 */
const sentOnlyBy: readonly { module: string; commands: string[]; entries: string[]; why: string }[] = [
  {
    module: 'functions/src/adapters/s3/links.ts',
    commands: ['PutObjectCommand'],
    entries: ['uploads'],
    why: 'upload links are signed by the uploads group only',
  },
  {
    module: 'functions/src/adapters/s3/links.ts',
    commands: ['GetObjectCommand'],
    entries: ['workflow'],
    why: 'presigned reads are for the music provider (Submit: a remix upload, a parent WAV); browsers get CloudFront signed links to track files and export zips (decision 008), which fall back to a presigned read only for other objects, of which there are none',
  },
  {
    module: 'functions/src/adapters/s3/upload-store.ts',
    commands: ['CopyObjectCommand'],
    entries: ['uploads'],
    why: 'taking an upload in (moving it out of incoming/, recording its SHA-256) is the uploads group’s',
  },
  {
    module: 'functions/src/adapters/s3/upload-store.ts',
    commands: ['HeadObjectCommand', 'GetObjectCommand'],
    entries: ['uploads', 'generation', 'admin'],
    why: 'the account cascade in the jobs function only deletes uploads',
  },
  {
    module: 'functions/src/adapters/s3/export-files.ts',
    commands: ['GetObjectCommand'],
    entries: ['jobs'],
    why: 'track files are read into a zip by the export job only',
  },
  {
    module: '@aws-sdk/lib-storage',
    commands: [
      'PutObjectCommand',
      'CreateMultipartUploadCommand',
      'UploadPartCommand',
      'CompleteMultipartUploadCommand',
      'AbortMultipartUploadCommand',
    ],
    entries: ['jobs'],
    why: 'export zips are written by the export job; the generation and admin groups reach the export module only to link and remove zips',
  },
  {
    module: '@aws-sdk/lib-storage',
    commands: ['PutObjectTaggingCommand'],
    entries: [],
    why: 'sent only for an upload given tags, and export-archive.ts gives none',
  },
];

const ruleOf = (request: S3Request) =>
  sentOnlyBy.find((rule) => rule.module === request.module && rule.commands.includes(request.command));

/** One IAM action on one bucket that an entry's functions need, and the request that needs it. */
interface Need {
  action: string;
  variable: BucketVariable;
  on: 'bucket' | 'object';
  request: S3Request;
}

/** What the requests an entry sends need from IAM, by the buckets their modules use. */
function needsOf(entry: string, requests: readonly S3Request[]): Need[] {
  return requests.flatMap((request) => {
    const rule = ruleOf(request);
    if (rule && !rule.entries.includes(entry)) return [];
    const known = s3CommandActions[request.command];
    if (!known)
      throw new Error(`${request.module} sends ${request.command}: add its IAM actions to s3-requests.ts`);
    const buckets = bucketsOfModule[request.module];
    if (!buckets) throw new Error(`${request.module} sends S3 requests: say which bucket in bucketsOfModule`);
    const actions = [...known.actions, ...(request.versionId ? (known.withVersionId ?? []) : [])];
    return actions.flatMap((action) =>
      buckets.map((variable) => ({ action, variable, on: known.on, request })),
    );
  });
}

/** The logical id of the bucket a function's environment names in `variable`, if any. */
function bucketOf(functionResource: Resource | undefined, variable: BucketVariable): string | undefined {
  const variables = (propsOf(functionResource).Environment as { Variables?: Record<string, unknown> })
    ?.Variables;
  const match = /^\{Ref:(.+)\}$/.exec(flatten(variables?.[variable] ?? ''));
  return match?.[1];
}

/**
 * The needs no role of the entry's functions grants: an Allow of the action
 * on the bucket's ARN (bucket actions) or on objects in it (object actions),
 * for the bucket their environment names. A need on modules that may use
 * either of two buckets is met by a grant on one of them.
 */
function unmet(
  resourcesNow: Record<string, Resource>,
  functionIds: readonly string[],
  needs: readonly Need[],
) {
  const statements: Statement[] = functionIds.flatMap((id) => statementsOfFunction(resourcesNow, id));
  const bucketIds = (variable: BucketVariable) =>
    functionIds.map((id) => bucketOf(resourcesNow[id], variable)).filter((id): id is string => !!id);
  const granted = (need: Need) =>
    bucketIds(need.variable).some((bucket) =>
      statements.some(
        (s) =>
          s.Effect === 'Allow' &&
          actionsOf(s).includes(need.action) &&
          resourcesOf(s)
            .map(flatten)
            .some((resource) =>
              need.on === 'bucket' ? resource === `{${bucket}.Arn}` : resource.startsWith(`{${bucket}.Arn}/`),
            ),
      ),
    );
  const byRequest = new Map<string, Need[]>();
  for (const need of needs) {
    const key = `${need.request.module} ${need.request.command} ${need.action}`;
    byRequest.set(key, [...(byRequest.get(key) ?? []), need]);
  }
  // A need listed under several buckets (links.ts) is met when any of them grants it.
  return [...byRequest.entries()]
    .filter(([, alternatives]) => !alternatives.some(granted))
    .map(([key, alternatives]) => `${key} on ${alternatives.map((n) => n.variable).join(' or ')}`)
    .sort();
}

describe('what the code sends to S3, against what the roles allow', () => {
  let requests = new Map<string, S3Request[]>();
  let entries: Map<string, string[]>;
  beforeAll(() => {
    entries = functionsByEntry(resources);
    requests = s3RequestsOfEntries([...entries.keys()]);
  }, SYNTH_TIMEOUT_MS);

  it('finds the requests in the code: the functions that use S3 and what they send', () => {
    const sent = (entry: string) => new Set((requests.get(entry) ?? []).map((r) => r.command));
    // Uploads in parts (decision 015): ListParts before complete, abort.
    expect(sent('uploads')).toEqual(
      new Set([
        'CreateMultipartUploadCommand',
        'UploadPartCommand',
        'ListPartsCommand',
        'CompleteMultipartUploadCommand',
        'AbortMultipartUploadCommand',
        'HeadObjectCommand',
        'GetObjectCommand',
        'DeleteObjectCommand',
        'CopyObjectCommand',
        'PutObjectCommand',
      ]),
    );
    // Deleted means deleted: every version of a track file, listed and deleted by id.
    for (const entry of ['generation', 'admin', 'jobs', 'workflow']) {
      expect(requests.get(entry), entry).toEqual(
        expect.arrayContaining([
          {
            module: 'functions/src/adapters/s3/versions.ts',
            command: 'ListObjectVersionsCommand',
            versionId: false,
          },
          {
            module: 'functions/src/adapters/s3/versions.ts',
            command: 'DeleteObjectsCommand',
            versionId: true,
          },
        ]),
      );
    }
    // The export job's zip, through lib-storage's multipart upload.
    expect(requests.get('jobs')).toEqual(
      expect.arrayContaining([
        { module: '@aws-sdk/lib-storage', command: 'AbortMultipartUploadCommand', versionId: false },
      ]),
    );
    for (const entry of ['auth', 'billing', 'webhooks', 'admin-session', 'seed', 'analytics']) {
      expect(requests.get(entry), entry).toEqual([]);
    }
  });

  it('grants every function each action its requests need, on the bucket they go to', () => {
    const missing = [...entries].flatMap(([entry, ids]) =>
      unmet(resources, ids, needsOf(entry, requests.get(entry) ?? [])).map((line) => `${entry}: ${line}`),
    );
    expect(missing).toEqual([]);
  });

  it('names a missing grant: the uploads function without ListMultipartUploadParts', () => {
    const uploads = entries.get('uploads') ?? [];
    const withoutListParts = structuredClone(resources);
    for (const resource of Object.values(withoutListParts)) {
      if (resource.Type !== 'AWS::IAM::Policy') continue;
      const document = propsOf(resource).PolicyDocument as { Statement: Statement[] };
      document.Statement = document.Statement.map((s) => ({
        ...s,
        Action: actionsOf(s).filter((a) => a !== 's3:ListMultipartUploadParts'),
      }));
    }
    expect(unmet(withoutListParts, uploads, needsOf('uploads', requests.get('uploads') ?? []))).toEqual([
      'functions/src/adapters/s3/multipart-store.ts ListPartsCommand s3:ListMultipartUploadParts on UPLOADS_BUCKET',
    ]);
  });

  it('needs the version actions as soon as an adapter sends ListObjectVersions or deletes by version id', () => {
    const source = `
      export async function purge(s3, bucket, key) {
        const { sdk, client } = await s3();
        const listed = await client.send(new sdk.ListObjectVersionsCommand({ Bucket: bucket, Prefix: key }));
        const Objects = listed.Versions.map((v) => ({ Key: v.Key, VersionId: v.VersionId }));
        await client.send(new sdk.DeleteObjectsCommand({ Bucket: bucket, Delete: { Objects: listed.Versions.map(({ Key, VersionId }) => ({ Key, VersionId })) } }));
        await client.send(new sdk.DeleteObjectCommand({ Bucket: bucket, Key: key }));
        return Objects;
      }`;
    const found = s3RequestsIn('functions/src/adapters/s3/upload-store.ts', source);
    expect(found.map((r) => [r.command, r.versionId])).toEqual([
      ['ListObjectVersionsCommand', false],
      ['DeleteObjectsCommand', true],
      ['DeleteObjectCommand', false],
    ]);
    // The uploads bucket grants neither: the uploads function would fail this test until it does.
    const uploads = entries.get('uploads') ?? [];
    expect(unmet(resources, uploads, needsOf('uploads', found))).toEqual([
      'functions/src/adapters/s3/upload-store.ts DeleteObjectsCommand s3:DeleteObjectVersion on UPLOADS_BUCKET',
      'functions/src/adapters/s3/upload-store.ts ListObjectVersionsCommand s3:ListBucketVersions on UPLOADS_BUCKET',
    ]);
  });

  it('keeps each rule of sentOnlyBy true of the code: its module sends the requests, its entries reach them', () => {
    for (const rule of sentOnlyBy) {
      const reaching = [...requests].filter(([, found]) =>
        found.some((r) => r.module === rule.module && rule.commands.includes(r.command)),
      );
      expect(reaching.length, `${rule.module} ${rule.commands.join(', ')}`).toBeGreaterThan(0);
      for (const command of rule.commands) {
        expect(
          reaching.some(([, found]) => found.some((r) => r.module === rule.module && r.command === command)),
          `${rule.module} no longer sends ${command}`,
        ).toBe(true);
      }
      for (const entry of rule.entries) {
        expect(
          (requests.get(entry) ?? []).some(
            (r) => r.module === rule.module && rule.commands.includes(r.command),
          ),
          `${entry} no longer reaches ${rule.module}`,
        ).toBe(true);
      }
    }
  });
});

describe('the grants the code needs, where they apply', () => {
  const grants = (entry: string, action: string): string[] => {
    const ids = functionsByEntry(resources).get(entry) ?? [];
    return ids
      .flatMap((id) => statementsOfFunction(resources, id))
      .filter((s) => s.Effect === 'Allow' && actionsOf(s).includes(action))
      .flatMap((s) => resourcesOf(s).map(flatten))
      .filter((resource, i, all) => all.indexOf(resource) === i)
      .sort();
  };

  it("lists and aborts uploads in parts on the uploads bucket's incoming/ area only, in the uploads function only", () => {
    const { stack } = synthesized;
    const uploads = logicalId(stack, stack.data.uploads.node.defaultChild);
    for (const action of ['s3:ListMultipartUploadParts', 's3:AbortMultipartUpload']) {
      expect(grants('uploads', action)).toEqual([`{${uploads}.Arn}/${INCOMING_AREA}*`]);
      for (const entry of functionsByEntry(resources).keys()) {
        if (entry === 'uploads' || entry === 'jobs') continue;
        expect(grants(entry, action), `${entry} ${action}`).toEqual([]);
      }
    }
    // The export job aborts its own zip's upload (lib-storage), in exports/ only.
    const tracks = logicalId(stack, stack.data.tracks.node.defaultChild);
    expect(grants('jobs', 's3:AbortMultipartUpload')).toEqual([`{${tracks}.Arn}/${EXPORTS_AREA}*`]);
    expect(grants('jobs', 's3:ListMultipartUploadParts')).toEqual([]);
  });

  it('deletes versions in the tracks bucket only, in the areas each function deletes from, and lists them only there', () => {
    const { stack } = synthesized;
    const tracks = logicalId(stack, stack.data.tracks.node.defaultChild);
    const areas: Record<string, string[]> = {
      generation: [TRACK_AUDIO_AREA],
      admin: [TRACK_AUDIO_AREA, EXPORTS_AREA],
      jobs: [TRACK_AUDIO_AREA, EXPORTS_AREA],
      workflow: [TRACK_AUDIO_AREA],
    };
    for (const entry of functionsByEntry(resources).keys()) {
      const expected = areas[entry] ?? [];
      expect(grants(entry, 's3:DeleteObjectVersion'), entry).toEqual(
        expected.map((area) => `{${tracks}.Arn}/${area}*`).sort(),
      );
      expect(grants(entry, 's3:ListBucketVersions'), entry).toEqual(
        expected.length ? [`{${tracks}.Arn}`] : [],
      );
      const ids = functionsByEntry(resources).get(entry) ?? [];
      for (const s of ids.flatMap((id) => statementsOfFunction(resources, id))) {
        if (!actionsOf(s).includes('s3:ListBucketVersions')) continue;
        expect((s as Statement & { Condition?: unknown }).Condition, entry).toEqual({
          StringLike: { 's3:prefix': expected.map((area) => `${area}*`) },
        });
      }
    }
    // In the workflow, Finish, PrepareDownload and FinishStems only: they remove the files of a track deleted
    // while they were made (FinishStems: of a separation that failed meanwhile), and PrepareDownload the
    // master once the download is there.
    const removers = [
      stack.workflow.functions.FinishFunctionArn,
      stack.workflow.functions.PrepareFunctionArn,
      stack.workflow.functions.StemsFunctionArn,
    ].map((fn) => logicalId(stack, fn.node.defaultChild));
    for (const id of functionsByEntry(resources).get('workflow') ?? []) {
      const versions = statementsOfFunction(resources, id).filter((s) =>
        actionsOf(s).includes('s3:DeleteObjectVersion'),
      );
      expect(versions.length > 0, id).toBe(removers.includes(id));
    }
  });
});
