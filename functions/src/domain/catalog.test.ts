import { describe, expect, it } from 'vitest';
import { aGeneration } from '../testing/fixtures';
import { inMemoryGenerations, inMemoryPlans } from '../testing/in-memory';
import { listActivePlans } from './plans/plan-service';
import { seedPlans } from './plans/seed-plans';
import { listPublicTracks } from './tracks/track-service';

describe('listActivePlans', () => {
  it('returns active plans by sort order and leaves inactive ones out', async () => {
    const [free, basic, premium] = seedPlans('2026-01-01T00:00:00.000Z');
    const plans = inMemoryPlans([
      { ...(premium as NonNullable<typeof premium>), sortOrder: 0 },
      { ...(basic as NonNullable<typeof basic>), isActive: false },
      { ...(free as NonNullable<typeof free>), sortOrder: 5 },
    ]);
    expect((await listActivePlans(plans)).map((p) => p.name)).toEqual(['Premium', 'Free']);
  });
});

describe('listPublicTracks', () => {
  it('lists only public, completed, gallery-visible tracks, newest first, without owner fields', async () => {
    const generations = inMemoryGenerations([
      aGeneration({ id: 'old', createdAt: '2026-01-01T00:00:00.000Z' }),
      aGeneration({ id: 'new', createdAt: '2026-02-01T00:00:00.000Z' }),
      aGeneration({ id: 'private', visibility: 'private' }),
      aGeneration({ id: 'pending', status: 'pending', audioUrl: null }),
      aGeneration({ id: 'hidden', showInGallery: false }),
    ]);

    const tracks = await listPublicTracks(generations);

    expect(tracks.map((t) => t.id)).toEqual(['new', 'old']);
    expect(tracks[0]).not.toHaveProperty('userId');
    expect(tracks[0]).not.toHaveProperty('seed');
    expect(tracks[0]).not.toHaveProperty('falRequestId');
  });

  it('drops anything the store returns that is not gallery-visible', async () => {
    const leaky = {
      async listGallery() {
        return {
          items: [aGeneration({ id: 'ok' }), aGeneration({ id: 'private', visibility: 'private' as const })],
        };
      },
      async put() {},
    };
    expect((await listPublicTracks(leaky)).map((t) => t.id)).toEqual(['ok']);
  });
});
