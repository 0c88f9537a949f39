import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import SwaggerParser from '@apidevtools/swagger-parser';
import { type V1RequestBodyDoc, v1Docs } from '@tunesmith/shared/api-v1-docs';
import { routesOfGroup } from '@tunesmith/shared/routes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type * as z from 'zod/mini';
import { openApiDocument } from '../src/http/openapi';
import { signedInUser } from './support/accounts';
import { direct } from './support/direct';
import { apiUrl } from './support/http';
import { subscribe } from './support/plans';
import { paidGeneration } from './support/run';
import { wavBytes } from './support/storage';

// The OpenAPI document as served, and the developer examples (docs/examples)
// run as a developer runs them: curl scripts and TypeScript through tsx,
// with the site and a key in the environment, against the API under test.

const run = promisify(execFile);
const root = join(import.meta.dirname, '..', '..');
const example = (file: string) => join(root, 'docs', 'examples', file);
const tsx = join(root, 'node_modules', '.bin', 'tsx');
const EXAMPLE_TIMEOUT_MS = 180_000;

describe('GET /api/v1/openapi.json', () => {
  it('answers, without a key, the document generated from the manifest and the schemas, cacheable', async () => {
    const response = await fetch(`${apiUrl}/api/v1/openapi.json`);
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('public, max-age=300');
    const served = (await response.json()) as ReturnType<typeof openApiDocument>;
    const origin = served.servers?.[0]?.url as string;
    expect(served).toEqual(JSON.parse(JSON.stringify(openApiDocument(origin))));
    await expect(SwaggerParser.validate(served as never)).resolves.toBeTruthy();
  });
});

paidGeneration.describe('the developer examples, against the API', () => {
  const store = direct();
  let key: string;
  let newKey: () => Promise<string>;
  let workDir: string;
  let finishedTrack: { id: string; duration: number | null };

  const env = () => ({ ...process.env, TUNESMITH_URL: apiUrl, TUNESMITH_API_KEY: key });
  const sh = async (file: string, ...args: string[]) =>
    (await run('sh', [example(file), ...args], { env: env(), timeout: EXAMPLE_TIMEOUT_MS })).stdout;
  const ts = async (file: string, ...args: string[]) =>
    (await run(tsx, [example(file), ...args], { env: env(), timeout: EXAMPLE_TIMEOUT_MS })).stdout;
  const lastJson = (stdout: string) => JSON.parse(stdout.trim().split('\n').at(-1) as string);

  beforeAll(async () => {
    const { browser, id } = await signedInUser();
    // Premium: the examples make four songs, and the studio calls below need a plan that offers them.
    await subscribe(store, id, 'premium');
    newKey = async () => {
      const created = await browser.post('/api/user/api-keys', {
        name: 'examples',
        scopes: ['generate', 'read'],
      });
      expect(created.status).toBe(201);
      return String(created.body.key);
    };
    key = await newKey();
    workDir = mkdtempSync(join(tmpdir(), 'tunesmith-examples-'));
  });

  afterAll(() => {
    store.close();
    if (workDir) rmSync(workDir, { recursive: true, force: true });
  });

  it(
    'create-track.sh starts a song and poll-track.sh waits until it is completed',
    async () => {
      const started = JSON.parse(await sh('create-track.sh'));
      expect(started).toMatchObject({ id: expect.any(String), status: 'pending' });
      const track = lastJson(await sh('poll-track.sh', started.id));
      expect(track).toMatchObject({ id: started.id, status: 'completed', instrumental: true });
      expect(track.audio.stream).toMatch(/^https?:\/\//);
      finishedTrack = track;
    },
    EXAMPLE_TIMEOUT_MS,
  );

  it(
    'create-track.ts starts a song and prints it completed',
    async () => {
      const track = lastJson(await ts('create-track.ts'));
      expect(track).toMatchObject({
        status: 'completed',
        tags: 'lo-fi hip hop, mellow piano, vinyl crackle',
      });
      expect(track.audio.stream).toMatch(/^https?:\/\//);
    },
    EXAMPLE_TIMEOUT_MS,
  );

  it(
    'restyle-upload.sh uploads a file and restyles it',
    async () => {
      const file = join(workDir, 'hum.wav');
      writeFileSync(file, wavBytes({ seconds: 2 }));
      const started = JSON.parse(await sh('restyle-upload.sh', file, 'jazz, upright bass'));
      expect(started).toMatchObject({ id: expect.any(String), status: 'pending' });
      const track = lastJson(await sh('poll-track.sh', started.id));
      expect(track).toMatchObject({ status: 'completed', tags: 'jazz, upright bass' });
    },
    EXAMPLE_TIMEOUT_MS,
  );

  it(
    'restyle-upload.ts uploads a file, restyles it and prints the new song',
    async () => {
      const file = join(workDir, 'whistle.wav');
      writeFileSync(file, wavBytes({ seconds: 2 }));
      const track = lastJson(await ts('restyle-upload.ts', file, 'synthwave, 80s'));
      expect(track).toMatchObject({ status: 'completed', tags: 'synthwave, 80s' });
    },
    EXAMPLE_TIMEOUT_MS,
  );

  it('refuses each POST body its documented schema refuses, with that schema’s own message', async () => {
    expect(finishedTrack).toBeDefined();
    // A key of its own: the examples above used most of a key's starts for this minute.
    const refusalKey = await newKey();
    /** What the documentation says the call parses a body with (for this track, on the studio calls). */
    const documentedSchemas = (id: string): z.ZodMiniType[] => {
      const doc = (v1Docs as Record<string, { requestBody?: V1RequestBodyDoc }>)[id]?.requestBody;
      if (!doc) throw new Error(`${id} documents no request body`);
      if (doc.forTrack) return [doc.forTrack(finishedTrack.duration)];
      return [doc.schema, ...(doc.validatedWith ?? [])];
    };
    // Bodies the documented schemas refuse; for the create call, one for each schema it names.
    const refused: Record<string, { body: unknown; schemaIndex?: number; asParsed?: unknown }[]> = {
      v1CreateTrack: [
        { body: {}, schemaIndex: 1 },
        { body: { tags: 'x'.repeat(501), duration: 30 }, schemaIndex: 1 },
        {
          body: { tags: 'pop', inputAudio: 'x'.repeat(3000) },
          schemaIndex: 2,
          asParsed: { tags: 'pop', inputAudioUrl: 'x'.repeat(3000) },
        },
      ],
      v1CreateUpload: [{ body: { filename: 'a.wav', type: 'audio/wav' } }],
      v1ExtendTrack: [{ body: { seconds: 1000 } }],
      v1RepaintTrack: [{ body: { start: 3, end: 1 } }],
      v1CreateVariation: [{ body: [1] }],
    };
    const posts = routesOfGroup('api-v1').filter((route) => route.method === 'POST');
    expect(Object.keys(refused).sort()).toEqual(posts.map((route) => route.id).sort());
    for (const route of posts) {
      for (const { body, schemaIndex = 0, asParsed = body } of refused[route.id] ?? []) {
        const schema = documentedSchemas(route.id)[schemaIndex] as z.ZodMiniType;
        const expected = schema.safeParse(asParsed);
        expect(expected.success, `${route.id} ${JSON.stringify(body)}`).toBe(false);
        const response = await fetch(`${apiUrl}${route.path.replace('{id}', finishedTrack.id)}`, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${refusalKey}`,
            'content-type': 'application/json',
            'idempotency-key': randomUUID(),
          },
          body: JSON.stringify(body),
        });
        expect({ id: route.id, status: response.status, body: await response.json() }).toEqual({
          id: route.id,
          status: 400,
          body: { error: { code: 'invalid_request', message: expected.error?.issues[0]?.message } },
        });
      }
    }
  });
});
