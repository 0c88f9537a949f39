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

describe('provenanceUrl', () => {
  it('points at the track’s provenance call on the site', () => {
    expect(provenanceUrl(SITE, 'a b')).toBe(`${SITE}/api/track/a%20b/provenance`);
  });
});
