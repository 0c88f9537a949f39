import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import type { RouteContext } from '../group-handler';
import { openApiDocument } from '../openapi';
import { openApiRoutes } from './openapi';

const event = (headers: Record<string, string>) => ({ headers }) as unknown as APIGatewayProxyEventV2;
const ctx = { params: {}, cookies: [] } as unknown as RouteContext;

async function get(routes: ReturnType<typeof openApiRoutes>, headers: Record<string, string> = {}) {
  const handler = routes.v1OpenApi;
  if (!handler) throw new Error('v1OpenApi is not built');
  return handler(event(headers), ctx);
}

describe('GET /api/v1/openapi.json', () => {
  it('answers the document as JSON that browsers and the CDN may keep for five minutes', async () => {
    const answer = await get(openApiRoutes({ publicOrigin: () => 'https://tunesmith.test/' }));
    expect(answer.statusCode).toBe(200);
    expect(answer.headers?.['content-type']).toMatch(/^application\/json/);
    expect(answer.headers?.['cache-control']).toBe('public, max-age=300');
    const doc = JSON.parse(answer.body ?? '');
    expect(doc).toEqual(JSON.parse(JSON.stringify(openApiDocument('https://tunesmith.test'))));
    expect(doc.servers).toEqual([{ url: 'https://tunesmith.test' }]);
  });

  it("names the request's own origin when the site's is not set", async () => {
    const routes = openApiRoutes({ publicOrigin: () => undefined });
    const answer = await get(routes, { host: '127.0.0.1:3000', 'x-forwarded-proto': 'http' });
    expect(JSON.parse(answer.body ?? '').servers).toEqual([{ url: 'http://127.0.0.1:3000' }]);
    const other = await get(routes, { host: 'api.example.test' });
    expect(JSON.parse(other.body ?? '').servers).toEqual([{ url: 'https://api.example.test' }]);
  });
});
