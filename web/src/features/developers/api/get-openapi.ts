import { queryOptions, useQuery } from '@tanstack/react-query';
import { v1OpenApi } from '@tunesmith/shared/calls/api-v1';
import { apiRequest } from '@/lib/api-client';

/** A JSON Schema as the document carries it (2020-12), read loosely: the page only shows it. */
export interface JsonSchema {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  allOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  additionalProperties?: JsonSchema | boolean;
}

export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required?: boolean;
  description?: string;
  schema?: JsonSchema;
}

export interface Operation {
  operationId: string;
  summary: string;
  description?: string;
  tags?: string[];
  security?: Record<string, string[]>[];
  parameters?: (Parameter | { $ref: string })[];
  requestBody?: { required?: boolean; content: Record<string, { schema?: JsonSchema }> };
  responses: Record<
    string,
    {
      description: string;
      headers?: Record<string, unknown>;
      content?: Record<string, { schema?: JsonSchema }>;
    }
  >;
}

/** The part of `GET /api/v1/openapi.json` the Developers page shows. */
export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; description?: string };
  servers?: { url: string }[];
  tags?: { name: string; description?: string }[];
  paths: Record<string, Record<string, Operation>>;
  webhooks?: Record<string, { post: Operation & { parameters?: Parameter[] } }>;
  components: {
    schemas: Record<string, JsonSchema>;
    parameters: Record<string, Parameter>;
    headers: Record<string, { description?: string }>;
    securitySchemes: Record<string, { description?: string }>;
  };
  'x-error-codes'?: { status: number; code: string; description: string }[];
  'x-rate-limits'?: { requestsPerMinute: number; startsPerMinute: number };
  'x-webhooks'?: { signatureHeader: string; toleranceSeconds: number; testEvent: string };
}

export const openApiQueryOptions = () =>
  queryOptions({
    queryKey: ['developers', 'openapi'],
    queryFn: () => apiRequest<OpenApiDocument>(v1OpenApi),
    // The document changes with a deploy only; the server lets caches keep it five minutes too.
    staleTime: 5 * 60_000,
  });

export const useOpenApi = () => useQuery(openApiQueryOptions());
