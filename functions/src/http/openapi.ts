import {
  type NamedSchema,
  V1_RATE_LIMITS,
  type V1RouteDoc,
  type V1RouteId,
  v1Docs,
  v1ErrorDescriptions,
  v1Schemas,
} from '@tunesmith/shared/api-v1-docs';
import { IDEMPOTENCY_HEADER, IDEMPOTENCY_TTL_SECONDS, v1ErrorCodes } from '@tunesmith/shared/api-v1-schemas';
import {
  API_KEYS_MAX,
  WEBHOOK_SIGNATURE_HEADER,
  WEBHOOK_TEST_EVENT,
  WEBHOOK_TOLERANCE_SECONDS,
  webhookEvents,
  webhookPayloadSchema,
} from '@tunesmith/shared/developer-api';
import { type RouteDef, routesOfGroup } from '@tunesmith/shared/routes';
import * as z from 'zod/mini';

type Json = Record<string, unknown>;

/** A schema as JSON Schema 2020-12 (what OpenAPI 3.1 uses); what JSON cannot say is left open. */
export function jsonSchema(schema: z.ZodMiniType, io: 'input' | 'output'): Json {
  const { $schema: _, ...rest } = z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    io,
    unrepresentable: 'any',
  }) as Json;
  return rest;
}

/**
 * The request body's schema, each field's limits taken from the app's
 * schemas the handler validates with after it (where they name the field),
 * so a developer reads the limits the call applies.
 */
function requestSchema(body: NonNullable<V1RouteDoc['requestBody']>): Json {
  const base = jsonSchema(body.schema, 'input');
  const properties = base.properties as Record<string, Json> | undefined;
  if (!properties || !body.validatedWith) return base;
  const stricter = body.validatedWith.map(
    (schema) => (jsonSchema(schema, 'input').properties ?? {}) as Record<string, Json>,
  );
  const merged = Object.fromEntries(
    Object.entries(properties).map(([field, own]) => [
      field,
      stricter.find((fields) => field in fields)?.[field] ?? own,
    ]),
  );
  return { ...base, properties: merged };
}

const ref = (kind: 'schemas' | 'parameters' | 'headers' | 'securitySchemes', name: string) => ({
  $ref: `#/components/${kind}/${name}`,
});

/** The components every document carries beside the named schemas. */
function sharedComponents() {
  return {
    securitySchemes: {
      apiKey: {
        type: 'http',
        scheme: 'bearer',
        bearerFormat: 'API key',
        description:
          `Create a key in Profile → Developers (at most ${API_KEYS_MAX} at a time) and send it as \`Authorization: Bearer <key>\`. ` +
          'It is shown once and stored only as a hash; revoking it takes effect at once. ' +
          'A key carries scopes: `generate` to start work, `read` to read what it made. ' +
          'Cookies are ignored on `/api/v1`: a browser session never works here, and a key never works in the app.',
      },
    },
    parameters: {
      IdempotencyKey: {
        name: IDEMPOTENCY_HEADER,
        in: 'header',
        required: false,
        description:
          `Any 1 to 255 visible characters (a UUID serves). A repeat with the same key within ${IDEMPOTENCY_TTL_SECONDS / 3600} hours answers the first response ` +
          '(its status and body, with `Idempotent-Replayed: true`) and charges nothing again, even when the repeats race; ' +
          'a repeat while the first is still running answers 409, and the same key with a different request 422.',
        schema: { type: 'string', minLength: 1, maxLength: 255 },
      },
    },
    headers: {
      RetryAfter: {
        description: 'Seconds to wait before trying again.',
        schema: { type: 'integer', minimum: 0 },
      },
      IdempotentReplayed: {
        description:
          'true when this is the stored answer to an earlier request with the same Idempotency-Key.',
        schema: { type: 'string', enum: ['true'] },
      },
      [WEBHOOK_SIGNATURE_HEADER]: {
        description:
          '`t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.body" with the endpoint\'s signing secret>`. ' +
          `Refuse a delivery whose t is more than ${WEBHOOK_TOLERANCE_SECONDS} seconds from now, and compare the signature in constant time.`,
        required: true,
        schema: { type: 'string', pattern: '^t=\\d+,v1=[0-9a-f]{64}$' },
      },
    },
  };
}

/** Path parameters from the route's `{name}` placeholders. */
function pathParameters(route: RouteDef) {
  return [...route.path.matchAll(/\{(\w+)\}/g)].map(([, name]) => ({
    name,
    in: 'path',
    required: true,
    ...(name === 'id' ? { description: 'The track’s id.' } : {}),
    schema: { type: 'string' },
  }));
}

function queryParameters(query: NamedSchema | undefined) {
  if (!query) return [];
  const schema = jsonSchema(query.schema, 'input');
  const required = new Set((schema.required as string[] | undefined) ?? []);
  return Object.entries((schema.properties ?? {}) as Record<string, Json>).map(([name, property]) => ({
    name,
    in: 'query',
    required: required.has(name),
    schema: property,
  }));
}

/** Adds `named` to the components (once per name; one name is one schema object) and answers a reference to it. */
function register(
  components: Map<string, { schema: z.ZodMiniType; json: Json }>,
  named: NamedSchema,
  json: Json,
) {
  const known = components.get(named.name);
  if (known && known.schema !== named.schema) throw new Error(`Two schemas are named ${named.name}`);
  components.set(named.name, { schema: named.schema, json });
  return ref('schemas', named.name);
}

function operation(
  route: RouteDef,
  doc: V1RouteDoc,
  components: Map<string, { schema: z.ZodMiniType; json: Json }>,
) {
  const starts = route.method === 'POST';
  const responses = Object.fromEntries(
    Object.entries(doc.responses).map(([status, response]) => {
      const headers: Record<string, unknown> = {};
      if (status === '429') headers['Retry-After'] = ref('headers', 'RetryAfter');
      if (starts && status.startsWith('2'))
        headers['Idempotent-Replayed'] = ref('headers', 'IdempotentReplayed');
      return [
        status,
        {
          description: response.description,
          ...(Object.keys(headers).length ? { headers } : {}),
          content: {
            'application/json': response.body
              ? { schema: register(components, response.body, jsonSchema(response.body.schema, 'output')) }
              : {},
          },
        },
      ];
    }),
  );
  const body = doc.requestBody;
  const bodySchema = body ? requestSchema(body) : undefined;
  return {
    operationId: route.id,
    summary: doc.summary,
    description: doc.description,
    tags: [doc.tag],
    security: route.auth === 'key' ? [{ apiKey: route.scope ? [route.scope] : [] }] : [],
    ...(route.scope ? { 'x-scope': route.scope } : {}),
    parameters: [
      ...pathParameters(route),
      ...queryParameters(doc.query),
      ...(starts ? [ref('parameters', 'IdempotencyKey')] : []),
    ],
    ...(body && bodySchema
      ? {
          requestBody: {
            // A body with no required field may be left out (it reads as {}).
            required: Array.isArray(bodySchema.required) && bodySchema.required.length > 0,
            content: { 'application/json': { schema: register(components, body, bodySchema) } },
          },
        }
      : {}),
    responses,
  };
}

const webhookDescriptions: Record<(typeof webhookEvents)[number], string> = {
  'track.completed': 'A track of yours finished: its audio links are in `data.track`.',
  'track.failed': 'A track of yours failed: `data.track.error` says why; the quota it took is given back.',
  'stems.ready': 'The stems of a track of yours are separated: `data.track.stems` links them.',
};

function webhooks(components: Map<string, { schema: z.ZodMiniType; json: Json }>) {
  const payload = register(
    components,
    { name: 'WebhookEvent', schema: webhookPayloadSchema },
    jsonSchema(webhookPayloadSchema, 'output'),
  );
  const track = register(components, v1Schemas.track, jsonSchema(v1Schemas.track.schema, 'output'));
  return Object.fromEntries(
    webhookEvents.map((event) => [
      event,
      {
        post: {
          summary: event,
          description:
            `${webhookDescriptions[event]} Sent to each of your endpoints subscribed to it, for every track of yours (made in the app or with the API). ` +
            'Answer 2xx within 5 seconds; any other answer, a redirect or no answer is retried with backoff for 24 hours.',
          parameters: [
            { name: WEBHOOK_SIGNATURE_HEADER, in: 'header', required: true, schema: { type: 'string' } },
          ],
          requestBody: {
            required: true,
            content: {
              'application/json': {
                schema: {
                  allOf: [
                    payload,
                    {
                      type: 'object',
                      properties: {
                        type: { const: event },
                        data: { type: 'object', properties: { track }, required: ['track'] },
                      },
                    },
                  ],
                },
              },
            },
          },
          responses: { '200': { description: 'Received. Any 2xx will do.' } },
        },
      },
    ]),
  );
}

/**
 * The OpenAPI 3.1 document of `/api/v1`, served from `origin` (its server;
 * none when left out): every call of the manifest's `api-v1` group with its
 * docs (`api-v1-docs.ts`), the schemas its handler parses and answers with,
 * and the webhooks.
 */
export function openApiDocument(origin?: string) {
  const components = new Map<string, { schema: z.ZodMiniType; json: Json }>();
  register(components, v1Schemas.error, jsonSchema(v1Schemas.error.schema, 'output'));
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routesOfGroup('api-v1')) {
    const doc: V1RouteDoc = v1Docs[route.id as V1RouteId];
    paths[route.path] ??= {};
    (paths[route.path] as Record<string, unknown>)[route.method.toLowerCase()] = operation(
      route,
      doc,
      components,
    );
  }
  const webhookSection = webhooks(components);
  return {
    openapi: '3.1.0',
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    info: {
      title: 'Tunesmith API',
      version: '1',
      description:
        'Generate music from your own apps with the same rules as the app: your plan, your quota, the same validation and messages. ' +
        `Every error is \`{ "error": { "code", "message" } }\`. Each key may make ${V1_RATE_LIMITS.requestsPerMinute} requests a minute, ` +
        `of which ${V1_RATE_LIMITS.startsPerMinute} may start work; past that the answer is 429 with Retry-After.`,
    },
    ...(origin === undefined ? {} : { servers: [{ url: origin }] }),
    security: [{ apiKey: [] }],
    tags: [
      { name: 'Tracks', description: 'Make songs and read them.' },
      { name: 'Uploads', description: 'Bring your own audio to restyle.' },
      { name: 'Studio', description: 'Extend, repaint and vary a finished track.' },
      { name: 'Document', description: 'This description.' },
    ],
    paths,
    webhooks: webhookSection,
    components: {
      schemas: Object.fromEntries([...components].map(([name, { json }]) => [name, json])),
      ...sharedComponents(),
    },
    'x-error-codes': Object.entries(v1ErrorCodes).map(([status, code]) => ({
      status: Number(status),
      code,
      description: v1ErrorDescriptions[Number(status) as keyof typeof v1ErrorCodes],
    })),
    'x-rate-limits': V1_RATE_LIMITS,
    'x-webhooks': {
      signatureHeader: WEBHOOK_SIGNATURE_HEADER,
      toleranceSeconds: WEBHOOK_TOLERANCE_SECONDS,
      testEvent: WEBHOOK_TEST_EVENT,
    },
  };
}

export type OpenApiDocument = ReturnType<typeof openApiDocument>;

/** Where `npm run openapi` writes the document the API serves (see routes/openapi.ts for why it is written ahead). */
export const GENERATED_DOCUMENT_PATH = 'functions/src/http/openapi.gen.ts';

/** The text of {@link GENERATED_DOCUMENT_PATH}: the document without a server, as a module. */
export function generatedDocumentModule(): string {
  return [
    '// Written by `npm run openapi` from functions/src/http/openapi.ts: do not edit.',
    '// functions/src/http/openapi.test.ts fails when it differs from what the schemas generate.',
    `export const generatedOpenApi: Record<string, unknown> = ${JSON.stringify(openApiDocument(), null, 2)};`,
    '',
  ].join('\n');
}
