import type { ModelSettings } from '@tunesmith/shared/model-settings';
import { MUSIC_MODELS } from '@tunesmith/shared/models';
import { describe, expect, it } from 'vitest';
import { aBasicPlan, aPlan } from '../../testing/fixtures';
import { inMemoryModelSettings } from '../../testing/in-memory-models';
import { DomainError } from '../errors';
import { checkModelSettings, modelSettingsSource, settingsInForce } from './model-settings';

const free = aPlan();
const basic = aBasicPlan();
const premium = aBasicPlan({ id: 'plan-premium', name: 'Premium', monthlyPrice: 19 });
const plans = [free, basic, premium];

const refusal = (run: () => unknown): DomainError => {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    return error as DomainError;
  }
  throw new Error('expected a refusal');
};

describe('the models settings in force', () => {
  it('without a saved document: every model on at its registry cost, three on Free, the dearer two on paid plans only', () => {
    const settings = settingsInForce(undefined, plans);
    expect(settings.defaultModel).toBe('ace-step');
    for (const model of MUSIC_MODELS) {
      expect(settings.models[model.id]).toMatchObject({ enabled: true, quotaCost: model.defaultQuotaCost });
    }
    const onFree = MUSIC_MODELS.filter((m) => settings.models[m.id]?.plans.includes(free.id)).map(
      (m) => m.id,
    );
    expect(onFree).toEqual(['ace-step', 'minimax-music-2', 'cassetteai']);
    expect(settings.models['minimax-music-2.5']?.plans).toEqual([basic.id, premium.id]);
    expect(settings.models['stable-audio-2.5']?.plans).toEqual([basic.id, premium.id]);
  });

  it('keeps what is saved and gives a model missing from it its default', () => {
    const saved = settingsInForce(undefined, plans);
    saved.defaultModel = 'cassetteai';
    saved.models.cassetteai = { enabled: true, quotaCost: 2, plans: plans.map((p) => p.id) };
    delete saved.models['stable-audio-2.5'];
    const settings = settingsInForce(saved, plans);
    expect(settings.defaultModel).toBe('cassetteai');
    expect(settings.models.cassetteai?.quotaCost).toBe(2);
    expect(settings.models['stable-audio-2.5']).toEqual({
      enabled: true,
      quotaCost: 4,
      plans: [basic.id, premium.id],
    });
  });
});

describe('the settings in force when the plans change after a save', () => {
  it('offers the default model on a plan created since, and forgets a plan deleted since', () => {
    const saved = settingsInForce(undefined, [free, basic]);
    saved.models.cassetteai = { enabled: true, quotaCost: 1, plans: [free.id, 'plan-gone'] };
    const settings = settingsInForce(saved, plans);
    expect(settings.models['ace-step']?.plans).toEqual([free.id, basic.id, premium.id]);
    expect(settings.models.cassetteai?.plans).toEqual([free.id]);
    // What the admin page reads back can be saved as it is.
    expect(checkModelSettings(settings, plans)).toEqual(settings);
  });
});

describe('checking a settings document', () => {
  const valid = (): ModelSettings => structuredClone(settingsInForce(undefined, plans));

  it('accepts the defaults, storing each model’s plans once and in the plans’ order', () => {
    const doc = valid();
    doc.models.cassetteai = { enabled: false, quotaCost: 10, plans: [premium.id, free.id, premium.id] };
    expect(checkModelSettings(doc, plans).models.cassetteai).toEqual({
      enabled: false,
      quotaCost: 10,
      plans: [free.id, premium.id],
    });
  });

  it('refuses an unknown model, a missing one, an unknown plan and a quota cost outside 1 to 10', () => {
    const unknown = valid();
    unknown.models['no-such-model'] = { enabled: true, quotaCost: 1, plans: [] };
    expect(refusal(() => checkModelSettings(unknown, plans)).message).toBe(
      'There is no model "no-such-model".',
    );

    const missing = valid();
    delete missing.models.cassetteai;
    expect(refusal(() => checkModelSettings(missing, plans)).message).toBe(
      'The settings must name every model: cassetteai is missing.',
    );

    const plan = valid();
    plan.models.cassetteai = { enabled: true, quotaCost: 1, plans: ['plan-gold'] };
    expect(refusal(() => checkModelSettings(plan, plans)).message).toBe(
      'CassetteAI names a plan that does not exist: plan-gold.',
    );

    for (const quotaCost of [0, 11, 1.5]) {
      const cost = valid();
      cost.models.cassetteai = { enabled: true, quotaCost, plans: [] };
      expect(refusal(() => checkModelSettings(cost, plans)).kind).toBe('validation');
    }
  });

  it('refuses a default model that is off or not offered on every plan', () => {
    const off = valid();
    off.models['ace-step'] = { enabled: false, quotaCost: 1, plans: plans.map((p) => p.id) };
    expect(refusal(() => checkModelSettings(off, plans)).message).toBe(
      'The default model must be on: turn ACE-Step on or choose another default.',
    );

    const paidOnly = valid();
    paidOnly.defaultModel = 'stable-audio-2.5';
    expect(refusal(() => checkModelSettings(paidOnly, plans)).message).toBe(
      'The default model must be offered on every plan: Stable Audio 2.5 is not in Free.',
    );
  });
});

describe('the cached settings source', () => {
  it('reads the store again only after a minute, and sees its own writes at once', async () => {
    let now = 0;
    const store = inMemoryModelSettings();
    const source = modelSettingsSource(store, { now: () => now });
    expect(await source.read()).toBeUndefined();

    const elsewhere = settingsInForce(undefined, plans);
    elsewhere.defaultModel = 'cassetteai';
    await store.put(elsewhere);
    now = 59_000;
    expect(await source.read()).toBeUndefined();
    now = 60_000;
    expect((await source.read())?.defaultModel).toBe('cassetteai');

    const mine = { ...elsewhere, defaultModel: 'minimax-music-2' };
    await source.write(mine);
    expect((await source.read())?.defaultModel).toBe('minimax-music-2');
    expect(store.stored?.defaultModel).toBe('minimax-music-2');
  });
});
