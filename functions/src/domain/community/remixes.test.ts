import { remixMessages } from '@tunesmith/shared/community';
import { describe, expect, it } from 'vitest';
import { aGeneration, aPlan } from '../../testing/fixtures';
import { inMemoryPlans } from '../../testing/in-memory';
import { fakeClock } from '../../testing/in-memory-accounts';
import { inMemoryGenerationStore, inMemoryQuota } from '../../testing/in-memory-generations';
import { inMemoryModelSettings } from '../../testing/in-memory-models';
import { DomainError } from '../errors';
import type { Generation } from '../tracks/track';
import type { CreatorNames } from './ports';
import { startRemix } from './remix-start';
import { listRemixes, type RemixIndex, remixCreditOf, setRemixable } from './remixes';

const owner = { id: 'owner', planStatus: 'free' as const, planEndDate: null };
const remixer = { id: 'remixer', planStatus: 'free' as const, planEndDate: null };
const restyle = { tags: 'jazz', lyrics: '', visibility: 'public' as const, title: undefined };

function memoryRemixIndex(): RemixIndex & { entries: Map<string, { id: string; entry: string }[]> } {
  const entries = new Map<string, { id: string; entry: string }[]>();
  return {
    entries,
    async add(sourceId, remix) {
      entries.set(sourceId, [
        { id: remix.id, entry: `${remix.createdAt}#${remix.id}` },
        ...(entries.get(sourceId) ?? []),
      ]);
    },
    async list(sourceId, limit) {
      return (entries.get(sourceId) ?? []).slice(0, limit);
    },
    async forget(track) {
      entries.delete(track.id);
      const source = track.remixOf?.trackId;
      if (source)
        entries.set(
          source,
          (entries.get(source) ?? []).filter((e) => e.id !== track.id),
        );
    },
    async remove(sourceId, entry) {
      entries.set(
        sourceId,
        (entries.get(sourceId) ?? []).filter((e) => e.entry !== entry),
      );
    },
  };
}

const named: CreatorNames = {
  names: async (ids) =>
    new Map(ids.filter((id) => id === 'owner').map((id) => [id, { handle: 'ada', displayName: 'Ada' }])),
};

function setup(tracks: Generation[]) {
  let n = 0;
  const generations = inMemoryGenerationStore(tracks);
  const quota = inMemoryQuota();
  const remixes = memoryRemixIndex();
  const started: string[] = [];
  const deps = {
    generations,
    quota,
    clock: fakeClock('2026-11-18T12:00:00.000Z'),
    newId: () => `remix-${++n}`,
    siteOrigin: 'https://tunesmith.test',
    plans: inMemoryPlans([aPlan()]),
    modelSettings: inMemoryModelSettings(),
    workflow: { start: async (id: string) => void started.push(id) },
    remixes,
    creators: named,
  };
  return { deps, generations, quota, remixes, started };
}

const source = (over: Partial<Generation> = {}) =>
  aGeneration({
    id: 'src',
    userId: 'owner',
    title: 'Harbour',
    remixable: true,
    audioSha256: 'f'.repeat(64),
    ...over,
  });

async function refusal(promise: Promise<unknown>): Promise<DomainError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DomainError);
  return error as DomainError;
}

describe('setRemixable', () => {
  it("changes only the owner's public track", async () => {
    const { deps, generations } = setup([
      source({ remixable: false }),
      source({ id: 'private', visibility: 'private' }),
    ]);
    expect((await setRemixable(deps, owner, 'src', true)).remixable).toBe(true);
    expect((await refusal(setRemixable(deps, remixer, 'src', false))).kind).toBe('not-found');
    const privateOne = await refusal(setRemixable(deps, owner, 'private', true));
    expect(privateOne.message).toBe(remixMessages.privateNotRemixable);
    // Turning it off is always allowed, private or not.
    expect((await setRemixable(deps, owner, 'private', false)).remixable).toBe(false);
    expect((await generations.get('src'))?.remixable).toBe(true);
  });
});

describe('startRemix', () => {
  it("records a restyle of the source on the remixer's quota, naming the source and its creator", async () => {
    const { deps, quota, remixes, started } = setup([source()]);
    const remix = await startRemix(deps, remixer, undefined, 'src', restyle);
    expect(remix).toMatchObject({
      userId: 'remixer',
      type: 'audio-to-music',
      inputAudioUrl: null,
      remixOf: { trackId: 'src', userId: 'owner', sha256: 'f'.repeat(64) },
    });
    expect(remix.origin?.inputs).toEqual([
      { kind: 'remix', trackId: 'src', sha256: 'f'.repeat(64), creator: 'ada' },
    ]);
    expect(started).toEqual([remix.id]);
    expect((await quota.read('remixer'))?.used).toBeGreaterThan(0);
    expect(await quota.read('owner')).toBeUndefined();
    expect(await remixes.list('src', 10)).toEqual([{ id: remix.id, entry: expect.any(String) }]);
  });

  it.each([
    ['not remixable', source({ remixable: false }), 'forbidden', remixMessages.cannotRemix],
    ['not in the gallery', source({ showInGallery: false }), 'forbidden', remixMessages.cannotRemix],
    ['unfinished', source({ status: 'generating' }), 'forbidden', remixMessages.cannotRemix],
    ['private', source({ visibility: 'private' }), 'not-found', undefined],
    ['hidden', source({ hidden: true }), 'not-found', undefined],
  ])('refuses a source that is %s, spending nothing', async (_label, track, kind, message) => {
    const { deps, quota, started } = setup([track]);
    const error = await refusal(startRemix(deps, remixer, undefined, 'src', restyle));
    expect(error.kind).toBe(kind);
    if (message) expect(error.message).toBe(message);
    expect(await quota.read('remixer')).toBeUndefined();
    expect(started).toEqual([]);
  });

  it('sends the owner of the source to the studio', async () => {
    const { deps } = setup([source()]);
    const error = await refusal(startRemix(deps, owner, undefined, 'src', restyle));
    expect([error.kind, error.message]).toEqual(['forbidden', remixMessages.ownTrack]);
  });
});

describe('remixCreditOf and listRemixes', () => {
  it('names a listed source, and nothing of it once it is private, hidden or gone', async () => {
    const remix = aGeneration({
      id: 'r1',
      userId: 'remixer',
      remixOf: { trackId: 'src', userId: 'owner', sha256: null },
    });
    const { deps, generations } = setup([source(), remix]);
    expect(await remixCreditOf(deps, remix)).toEqual({
      available: true,
      trackId: 'src',
      title: 'Harbour',
      creator: { handle: 'ada', displayName: 'Ada' },
    });
    expect(await remixCreditOf(deps, aGeneration())).toBeNull();
    const gone = { available: false, trackId: null, title: null, creator: null };
    await generations.update('src', (g) => ({ ...g, hidden: true }));
    expect(await remixCreditOf(deps, remix)).toEqual(gone);
    await generations.update('src', (g) => ({ ...g, hidden: false, visibility: 'private' }));
    expect(await remixCreditOf(deps, remix)).toEqual(gone);
    await generations.delete('src', 'owner');
    expect(await remixCreditOf(deps, remix)).toEqual(gone);
  });

  it('lists listed remixes newest first, tells the owner how many are private, and drops entries of deleted remixes', async () => {
    const of = { trackId: 'src', userId: 'owner', sha256: null };
    const older = aGeneration({ id: 'r1', userId: 'a', remixOf: of, createdAt: '2026-11-01T00:00:00.000Z' });
    const newer = aGeneration({ id: 'r2', userId: 'b', remixOf: of, createdAt: '2026-11-02T00:00:00.000Z' });
    const secret = aGeneration({ id: 'r3', userId: 'c', remixOf: of, visibility: 'private' });
    const { deps, remixes } = setup([source(), older, newer, secret]);
    for (const r of [older, secret, newer]) await remixes.add('src', r);
    await remixes.add('src', { id: 'deleted', createdAt: '2026-11-03T00:00:00.000Z' });

    const seen = await listRemixes(deps, { id: 'visitor' }, 'src');
    expect(seen.remixes.map((r) => r.id)).toEqual(['r2', 'r1']);
    expect(seen.privateCount).toBeUndefined();
    expect((await listRemixes(deps, { id: 'owner' }, 'src')).privateCount).toBe(1);
    expect((await remixes.list('src', 10)).map((e) => e.id)).not.toContain('deleted');
    await expect(listRemixes(deps, undefined, 'missing')).rejects.toBeInstanceOf(DomainError);
  });
});
