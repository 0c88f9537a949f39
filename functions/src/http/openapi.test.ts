import { readFileSync } from 'node:fs';
import SwaggerParser from '@apidevtools/swagger-parser';
import { v1Docs } from '@tunesmith/shared/api-v1-docs';
import {
  IDEMPOTENCY_HEADER,
  v1CreateTrackSchema,
  v1ErrorSchema,
  v1TrackSchema,
  v1UploadSchema,
} from '@tunesmith/shared/api-v1-schemas';
import { WEBHOOK_SIGNATURE_HEADER, webhookEvents } from '@tunesmith/shared/developer-api';
import {
  audioToMusicSchema,
  extendSchema,
  extendSchemaFor,
  repaintSchema,
  repaintSchemaFor,
  textToMusicSchema,
  variationSchema,
} from '@tunesmith/shared/generations';
import { routesOfGroup } from '@tunesmith/shared/routes';
import { describe, expect, it } from 'vitest';
import { generatedDocumentModule, jsonSchema, openApiDocument } from './openapi';
import { generatedOpenApi } from './openapi.gen';

// biome-ignore lint/suspicious/noExplicitAny: the document is parsed JSON, walked freely by the assertions below.
type Json = Record<string, any>;

/** The document as a client receives it (JSON), so nothing in memory only passes. */
const document = (): Json => JSON.parse(JSON.stringify(openApiDocument('https://tunesmith.test')));

const methods = ['get', 'post', 'put', 'patch', 'delete', 'head'];

/** Every operation of the document as `METHOD path`. */
function documentedOperations(doc: Json): string[] {
  return Object.entries(doc.paths as Record<string, Json>).flatMap(([path, item]) =>
    Object.keys(item)
      .filter((key) => methods.includes(key))
      .map((method) => `${method.toUpperCase()} ${path}`),
  );
}

const resolve = (doc: Json, reference: { $ref: string }): Json =>
  reference.$ref
    .slice(2)
    .split('/')
    .reduce<Json>((node, part) => node[part], doc);

const operationOf = (doc: Json, id: string): Json => {
  const route = routesOfGroup('api-v1').find((r) => r.id === id);
  if (!route) throw new Error(`no route ${id}`);
  return doc.paths[route.path][route.method.toLowerCase()];
};

describe('the OpenAPI document of /api/v1', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    const doc = document();
    expect(doc.openapi).toBe('3.1.0');
    // validate() throws, naming the first fault, on a document that breaks the OpenAPI 3.1 schema or its references.
    await expect(SwaggerParser.validate(structuredClone(doc) as never)).resolves.toBeTruthy();
  });

  it('would be refused by the validator if an answer lost its description or a reference broke', async () => {
    const undescribed = document();
    delete undescribed.paths['/api/v1/tracks'].get.responses['200'].description;
    await expect(SwaggerParser.validate(undescribed as never)).rejects.toThrow();
    const broken = document();
    broken.paths['/api/v1/tracks'].post.requestBody.content['application/json'].schema = {
      $ref: '#/components/schemas/Missing',
    };
    await expect(SwaggerParser.validate(broken as never)).rejects.toThrow();
  });

  it('names every api-v1 route of the manifest with its method and path, and nothing else', () => {
    const manifest = routesOfGroup('api-v1').map((route) => `${route.method} ${route.path}`);
    expect(manifest.length).toBeGreaterThan(0);
    expect(documentedOperations(document()).sort()).toEqual([...manifest].sort());
  });

  it("gives each operation its manifest id, and asks for a key with the route's scope on key routes", () => {
    const doc = document();
    for (const route of routesOfGroup('api-v1')) {
      const operation = operationOf(doc, route.id);
      expect(operation.operationId).toBe(route.id);
      if (route.auth === 'key') expect(operation.security).toEqual([{ apiKey: [route.scope] }]);
      else expect(operation.security).toEqual([]);
    }
    expect(doc.components.securitySchemes.apiKey).toMatchObject({ type: 'http', scheme: 'bearer' });
  });

  it('takes each request body from the very schema object the handler parses', () => {
    // What the /api/v1 handlers parse each body with (the app's own schemas for the studio calls).
    const parsedByHandler = {
      v1CreateTrack: v1CreateTrackSchema,
      v1CreateUpload: v1UploadSchema,
      v1ExtendTrack: extendSchema,
      v1RepaintTrack: repaintSchema,
      v1CreateVariation: variationSchema,
    };
    const documented = Object.fromEntries(
      Object.entries(v1Docs).flatMap(([id, doc]) =>
        'requestBody' in doc ? [[id, doc.requestBody.schema]] : [],
      ),
    );
    expect(Object.keys(documented).sort()).toEqual(Object.keys(parsedByHandler).sort());
    for (const [id, schema] of Object.entries(parsedByHandler)) expect(documented[id]).toBe(schema);
    expect(v1Docs.v1CreateTrack.requestBody.validatedWith).toEqual([textToMusicSchema, audioToMusicSchema]);
  });

  it('documents every POST body as JSON Schema generated from its schema', () => {
    const doc = document();
    for (const route of routesOfGroup('api-v1').filter((r) => r.method === 'POST')) {
      const body = operationOf(doc, route.id).requestBody;
      const schema = resolve(doc, body.content['application/json'].schema);
      const own: Json = jsonSchema((v1Docs as Json)[route.id].requestBody.schema, 'input');
      expect(Object.keys(schema.properties).sort(), route.id).toEqual(Object.keys(own.properties).sort());
      expect(schema.required ?? [], route.id).toEqual(own.required ?? []);
    }
  });

  it("shows the app's limits on the create call's fields, where the app's schemas name them", () => {
    const schema = resolve(document(), { $ref: '#/components/schemas/CreateTrackRequest' });
    const app = jsonSchema(textToMusicSchema, 'input').properties as Json;
    expect(schema.properties.tags).toEqual(app.tags);
    expect(schema.properties.duration).toEqual({ type: 'integer', minimum: 1, maximum: 240 });
    // Only the API has inputAudio: its own schema describes it.
    expect(schema.properties.inputAudio).toEqual({ type: 'string' });
  });

  it('documents the fields of the schema the studio handlers build for the track', () => {
    const doc = document();
    const fields = (schema: Json) => Object.keys(schema.properties).sort();
    expect(v1Docs.v1ExtendTrack.requestBody.forTrack).toBe(extendSchemaFor);
    for (const id of ['v1ExtendTrack', 'v1RepaintTrack'] as const) {
      const body = v1Docs[id].requestBody;
      const documented = resolve(doc, { $ref: `#/components/schemas/${body.name}` });
      expect(fields(documented), id).toEqual(fields(jsonSchema(body.forTrack(90), 'input')));
    }
    // The track's own limits: a 90 s track has room for 150 s more, and a section within its 90 s.
    expect(v1Docs.v1ExtendTrack.requestBody.forTrack(90).safeParse({ seconds: 151 }).success).toBe(false);
    expect(v1Docs.v1RepaintTrack.requestBody.forTrack(90).safeParse({ start: 80, end: 91 }).success).toBe(
      false,
    );
    expect(jsonSchema(repaintSchemaFor(90), 'input')).toEqual(
      jsonSchema(v1Docs.v1RepaintTrack.requestBody.forTrack(90), 'input'),
    );
  });

  it('asks for an Idempotency-Key on every POST and on nothing else', () => {
    const doc = document();
    const parameter = doc.components.parameters.IdempotencyKey;
    expect(parameter).toMatchObject({ name: IDEMPOTENCY_HEADER, in: 'header' });
    for (const route of routesOfGroup('api-v1')) {
      const refs = (operationOf(doc, route.id).parameters as Json[]).map((p) => p.$ref);
      expect(refs.includes('#/components/parameters/IdempotencyKey'), route.id).toBe(route.method === 'POST');
    }
  });

  it('answers errors as the error schema, with Retry-After on every 429', () => {
    const doc = document();
    expect(doc.components.schemas.Error).toEqual(jsonSchema(v1ErrorSchema, 'output'));
    for (const route of routesOfGroup('api-v1').filter((r) => r.auth === 'key')) {
      const responses = operationOf(doc, route.id).responses as Record<string, Json>;
      expect(responses['401'], route.id).toBeDefined();
      expect(responses['429']?.headers?.['Retry-After'], route.id).toEqual({
        $ref: '#/components/headers/RetryAfter',
      });
      for (const [status, response] of Object.entries(responses).filter(([s]) => Number(s) >= 400)) {
        expect(response.content['application/json'].schema, `${route.id} ${status}`).toEqual({
          $ref: '#/components/schemas/Error',
        });
      }
    }
  });

  it('documents path parameters from the manifest path', () => {
    const parameters = operationOf(document(), 'v1GetTrack').parameters as Json[];
    expect(parameters).toContainEqual(expect.objectContaining({ name: 'id', in: 'path', required: true }));
    const list = operationOf(document(), 'v1ListTracks').parameters as Json[];
    expect(list.map((p) => `${p.in} ${p.name}`)).toEqual(['query cursor', 'query limit']);
  });

  it('documents each webhook event with its signature header and the track it carries', () => {
    const doc = document();
    expect(Object.keys(doc.webhooks).sort()).toEqual([...webhookEvents].sort());
    for (const event of webhookEvents) {
      const post = doc.webhooks[event].post;
      expect(post.parameters).toContainEqual(
        expect.objectContaining({ name: WEBHOOK_SIGNATURE_HEADER, in: 'header' }),
      );
      const [payload, specific] = post.requestBody.content['application/json'].schema.allOf;
      expect(payload).toEqual({ $ref: '#/components/schemas/WebhookEvent' });
      expect(specific.properties.type).toEqual({ const: event });
      expect(specific.properties.data.properties.track).toEqual({ $ref: '#/components/schemas/Track' });
    }
    expect(doc.components.schemas.Track).toEqual(jsonSchema(v1TrackSchema, 'output'));
  });

  it('is what the API serves: the written document is the one the schemas generate now (else run npm run openapi)', () => {
    expect(generatedOpenApi).toEqual(JSON.parse(JSON.stringify(openApiDocument())));
    expect(readFileSync(new URL('./openapi.gen.ts', import.meta.url), 'utf8')).toBe(
      generatedDocumentModule(),
    );
  });

  it('names the origin it is served from as its server', () => {
    expect(openApiDocument('http://127.0.0.1:5173').servers).toEqual([{ url: 'http://127.0.0.1:5173' }]);
  });
});
