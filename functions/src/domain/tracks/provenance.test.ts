import { DIGITAL_SOURCE_TYPE, provenanceSchema } from '@tunesmith/shared/ownership';
import { describe, expect, it } from 'vitest';
import { aGeneration } from '../../testing/fixtures';
import { licenseOf, originOf, provenanceOf, provenanceUrl } from './provenance';

const SITE = 'https://tunesmith.test';

describe('licenseOf', () => {
  it('gives a commercial plan’s tracks commercial use and every other plan’s personal use, linked to the terms', () => {
    expect(licenseOf({ commercialUse: true }, SITE)).toEqual({
      commercialUse: true,
      summary: 'Commercial use allowed: you may use this track in ads, products and paid content.',
      termsUrl: `${SITE}/terms#license`,
    });
    expect(licenseOf({ commercialUse: false }, SITE)).toMatchObject({
      commercialUse: false,
      summary: 'Personal, non-commercial use only.',
    });
    // A plan stored before the switch existed is not commercial.
    expect(licenseOf({}, SITE).commercialUse).toBe(false);
  });
});

describe('the model in the provenance (decision 051)', () => {
  it("records the track's model by name, the endpoint it ran on, its id and terms", () => {
    const track = {
      type: 'text-to-music',
      tags: 'ballad',
      lyrics: '[verse] mine',
      duration: null,
      model: 'minimax-music-2.5',
    };
    const origin = originOf(track, [], { name: 'Basic', commercialUse: true }, SITE);
    expect(origin).toMatchObject({
      model: 'MiniMax Music 2.5',
      endpoint: 'fal-ai/minimax-music/v2.5',
      modelId: 'minimax-music-2.5',
      modelTerms: 'https://fal.ai/models/fal-ai/minimax-music/v2.5',
    });
    const record = provenanceOf(aGeneration({ id: 'g2', ...track, origin }), SITE);
    expect(record).toMatchObject({ model: 'MiniMax Music 2.5', endpoint: 'fal-ai/minimax-music/v2.5' });
  });

  it('reads a track from before the choice as ACE-Step, with its id and terms', () => {
    const old = aGeneration({ id: 'old', type: 'text-to-music', origin: null, model: undefined });
    expect(provenanceOf(old, SITE)).toMatchObject({
      model: 'ACE-Step',
      endpoint: 'fal-ai/ace-step',
      modelId: 'ace-step',
      modelTerms: 'https://fal.ai/models/fal-ai/ace-step',
    });
    const { modelId: _id, modelTerms: _terms, ...before } = originOf(old, [], { name: 'Free' }, SITE);
    expect(provenanceOf(aGeneration({ id: 'old2', origin: before }), SITE)).toMatchObject({
      model: 'ACE-Step',
      modelId: 'ace-step',
    });
  });
});

describe('provenanceOf', () => {
  it('answers a track’s record from its origin, with the seed and hash it completed with', () => {
    const track = { type: 'text-to-music', tags: 'ambient', lyrics: '', duration: 30, instrumental: true };
    const origin = originOf(track, [], { name: 'Premium', commercialUse: true }, SITE);
    const generation = aGeneration({
      id: 'g1',
      ...track,
      origin,
      seed: 1234,
      audioSha256: 'ab'.repeat(32),
      createdAt: '2026-11-18T12:00:00.000Z',
    });

    const record = provenanceOf(generation, 'https://elsewhere.test');

    expect(provenanceSchema.parse(record)).toEqual(record);
    expect(record).toEqual({
      trackId: 'g1',
      createdAt: '2026-11-18T12:00:00.000Z',
      aiGenerated: true,
      digitalSourceType: DIGITAL_SOURCE_TYPE,
      provider: 'fal.ai',
      model: 'ACE-Step',
      endpoint: 'fal-ai/ace-step',
      modelId: 'ace-step',
      modelTerms: 'https://fal.ai/models/fal-ai/ace-step',
      seed: 1234,
      parameters: { tags: 'ambient', lyrics: '', duration: 30, instrumental: true },
      inputs: [],
      parentId: null,
      audioSha256: 'ab'.repeat(32),
      plan: 'Premium',
      // The license as written at creation, with the terms link of then.
      license: licenseOf({ commercialUse: true }, SITE),
    });
  });

  it('answers a track from before provenance with plan Unknown, personal use and its inputs unhashed', () => {
    const restyle = aGeneration({
      id: 'old',
      type: 'audio-to-music',
      inputAudioUrl: '/objects/uploads/u/a.wav',
    });
    const extended = aGeneration({
      id: 'old-ext',
      parentId: 'old',
      edit: { kind: 'extend', seconds: 10, at: 'end' },
    });

    const a = provenanceOf(restyle, SITE);
    const b = provenanceOf(extended, SITE);

    expect(provenanceSchema.parse(a)).toEqual(a);
    expect(a).toMatchObject({
      endpoint: 'fal-ai/ace-step/audio-to-audio',
      inputs: [{ kind: 'upload', sha256: null }],
      plan: 'Unknown',
      license: licenseOf({ commercialUse: false }, SITE),
      audioSha256: null,
    });
    expect(b).toMatchObject({
      endpoint: 'fal-ai/ace-step/audio-outpaint',
      parentId: 'old',
      inputs: [{ kind: 'parent', trackId: 'old', sha256: null }],
      parameters: { edit: { kind: 'extend', seconds: 10, at: 'end' } },
    });
  });
});

describe('provenanceOf for someone who may not be told the parent', () => {
  it('says the track was made from another, but neither which nor the hash of its audio', () => {
    const parentHash = 'cd'.repeat(32);
    const uploadHash = 'ef'.repeat(32);
    const track = {
      type: 'audio-to-music',
      tags: 'ambient',
      lyrics: '',
      duration: 30,
      instrumental: false,
      edit: { kind: 'variation' as const },
    };
    const origin = originOf(
      track,
      [
        { kind: 'parent', trackId: 'secret-parent', sha256: parentHash },
        { kind: 'upload', sha256: uploadHash },
      ],
      { name: 'Basic' },
      SITE,
    );
    const child = aGeneration({ id: 'child', ...track, origin, parentId: 'secret-parent' });

    const told = provenanceOf(child, SITE);
    const withheld = provenanceOf(child, SITE, { parentNamed: false });

    expect(told).toMatchObject({
      parentId: 'secret-parent',
      inputs: [
        { kind: 'parent', trackId: 'secret-parent', sha256: parentHash },
        { kind: 'upload', sha256: uploadHash },
      ],
    });
    expect(provenanceSchema.parse(withheld)).toEqual(withheld);
    expect(withheld.parentId).toBeNull();
    expect(withheld.inputs).toEqual([
      { kind: 'parent', sha256: null },
      { kind: 'upload', sha256: uploadHash },
    ]);
    expect(JSON.stringify(withheld)).not.toContain('secret-parent');
    expect(JSON.stringify(withheld)).not.toContain(parentHash);
    // The rest of the record is the same.
    expect({ ...withheld, parentId: told.parentId, inputs: told.inputs }).toEqual(told);
  });

  it('withholds the parent of a track from before provenance too', () => {
    const old = aGeneration({
      id: 'old-ext',
      parentId: 'old',
      edit: { kind: 'extend', seconds: 10, at: 'end' },
    });

    expect(provenanceOf(old, SITE, { parentNamed: false })).toMatchObject({
      parentId: null,
      inputs: [{ kind: 'parent', sha256: null }],
    });
  });
});

describe('provenanceOf a remix (decision 060)', () => {
  const source = { kind: 'remix' as const, trackId: 'src', sha256: 'f'.repeat(64), creator: 'ada' };
  const remix = aGeneration({
    type: 'audio-to-music',
    remixOf: { trackId: 'src', userId: 'owner', sha256: 'f'.repeat(64) },
    origin: originOf(aGeneration({ type: 'audio-to-music' }), [source], { name: 'Free' }, SITE),
  });

  it('names its source: track, creator and the hash of its audio', () => {
    const record = provenanceOf(remix, SITE);
    expect(record.inputs).toEqual([source]);
    expect(provenanceSchema.parse(record).inputs).toEqual([source]);
  });

  it('names nothing of a source that is no longer listed, but still says it is a remix', () => {
    expect(provenanceOf(remix, SITE, { remixNamed: false }).inputs).toEqual([
      { kind: 'remix', sha256: null },
    ]);
  });
});

describe('provenanceUrl', () => {
  it('points at the track’s provenance call on the site', () => {
    expect(provenanceUrl(SITE, 'a b')).toBe(`${SITE}/api/track/a%20b/provenance`);
  });
});
