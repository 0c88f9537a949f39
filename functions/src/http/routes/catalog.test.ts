import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import type { Generation } from '../../domain/tracks/track';
import { aPrivateTrack } from '../../testing/fixtures';
import { inMemoryPlans, inMemorySettings } from '../../testing/in-memory';
import { inMemoryGenerationStore } from '../../testing/in-memory-generations';
import type { RouteContext } from '../group-handler';
import { catalogRoutes, type ViewerLookup } from './catalog';

const track = aPrivateTrack;

/** A viewer whose session was refreshed on this request: the new cookies must reach the browser. */
const refreshed =
  (id: string): ViewerLookup =>
  async () => ({ user: { id }, cookies: ['ts_session=fresh'] });

function getTrack(viewer: ViewerLookup, generations: Generation[]) {
  const routes = catalogRoutes({
    plans: inMemoryPlans(),
    generations: inMemoryGenerationStore(generations),
    audioLinks: async (stored) => (stored ? `https://signed.test/${stored.slice('s3://'.length)}` : null),
    viewer,
    settings: inMemorySettings(),
    siteName: 'Tunesmith',
  });
  const handler = routes.getTrack;
  if (!handler) throw new Error('getTrack is not built');
  return handler(
    {} as APIGatewayProxyEventV2,
    { params: { id: 't1' }, cookies: [] } as unknown as RouteContext,
  );
}

describe('getTrack', () => {
  it('shows the owner a private track with a signed link, keeping refreshed session cookies', async () => {
    const res = await getTrack(refreshed('owner'), [track({})]);

    expect(res.statusCode).toBe(200);
    expect(JSON.parse(String(res.body))).toMatchObject({
      id: 't1',
      audioUrl: 'https://signed.test/tracks/tracks/owner/t1.wav',
    });
    expect(res.cookies).toEqual(['ts_session=fresh']);
  });

  it('answers 404 to someone else, still keeping their refreshed session cookies', async () => {
    const res = await getTrack(refreshed('stranger'), [track({})]);

    expect(res.statusCode).toBe(404);
    expect(JSON.parse(String(res.body))).toEqual({ message: 'Track not found' });
    expect(res.cookies).toEqual(['ts_session=fresh']);
  });

  it('shows a public track to a visitor without setting cookies', async () => {
    const res = await getTrack(async () => ({ cookies: [] }), [track({ visibility: 'public' })]);

    expect(res.statusCode).toBe(200);
    expect(res.cookies).toBeUndefined();
  });
});
