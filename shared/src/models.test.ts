import { describe, expect, it } from 'vitest';
import {
  DEFAULT_MODEL_ID,
  MUSIC_MODELS,
  makesInstrumentals,
  modelRuns,
  musicModel,
  providerCostUsd,
  studioModel,
} from './models';

describe('the model registry', () => {
  it('has unique ids, the default among them, and at least four models besides it', () => {
    const ids = MUSIC_MODELS.map((m) => m.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(musicModel(DEFAULT_MODEL_ID)?.endpoints.text).toBe('fal-ai/ace-step');
    expect(ids.filter((id) => id !== DEFAULT_MODEL_ID).length).toBeGreaterThanOrEqual(4);
    for (const m of MUSIC_MODELS) {
      expect(m.promptLength.min).toBeLessThanOrEqual(m.promptLength.max);
      if (m.duration) expect(m.duration.min).toBeLessThan(m.duration.max);
      expect(m.lyrics === 'none' || m.lyricsLength !== undefined).toBe(true);
      expect(m.defaultQuotaCost).toBeGreaterThanOrEqual(1);
    }
  });

  it('prices a generation as fal charges it: per second, per started minute, per song', () => {
    const ace = musicModel('ace-step');
    const cassette = musicModel('cassetteai');
    const minimax = musicModel('minimax-music-2');
    if (!ace || !cassette || !minimax) throw new Error('missing model');
    expect(providerCostUsd(ace, 60)).toBeCloseTo(0.012, 10);
    expect(providerCostUsd(cassette, 60)).toBeCloseTo(0.02, 10);
    expect(providerCostUsd(cassette, 61)).toBeCloseTo(0.04, 10);
    expect(providerCostUsd(cassette, 10)).toBeCloseTo(0.02, 10);
    expect(providerCostUsd(minimax, 200)).toBeCloseTo(0.03, 10);
  });

  it('knows which models sing only, and which make instrumentals', () => {
    expect(makesInstrumentals(musicModel('minimax-music-2') as never)).toBe(false);
    expect(makesInstrumentals(musicModel('cassetteai') as never)).toBe(true);
    expect(makesInstrumentals(musicModel('ace-step') as never)).toBe(true);
  });

  it("runs a studio action on the track's own model where it can, else on one that can", () => {
    expect(studioModel('ace-step', 'extend')?.id).toBe('ace-step');
    expect(studioModel(undefined, 'repaint')?.id).toBe('ace-step');
    expect(modelRuns(musicModel('cassetteai') as never, 'extend')).toBe(false);
    expect(studioModel('cassetteai', 'extend')?.id).toBe('ace-step');
    expect(studioModel('cassetteai', 'extend', (m) => m.id !== 'ace-step')).toBeUndefined();
  });
});
