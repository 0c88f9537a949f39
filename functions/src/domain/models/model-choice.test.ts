import { type MusicModel, musicModel } from '@tunesmith/shared/models';
import { describe, expect, it } from 'vitest';
import { aBasicPlan, aPlan } from '../../testing/fixtures';
import { DomainError } from '../errors';
import {
  checkModelFields,
  chooseModel,
  type ModelContext,
  type ModelFields,
  modelPlanInForce,
  quotaCostOf,
  studioChoice,
} from './model-choice';
import { settingsInForce } from './model-settings';

const free = aPlan();
const basic = aBasicPlan();
const premium = aBasicPlan({ id: 'plan-premium', name: 'Premium', monthlyPrice: 19 });
const plans = [free, basic, premium];

const context = (planId: string | undefined, signedIn = true): ModelContext => ({
  settings: settingsInForce(undefined, plans),
  plans,
  planId,
  signedIn,
});

const model = (id: string): MusicModel => {
  const found = musicModel(id);
  if (!found) throw new Error(`no ${id}`);
  return found;
};

const refusal = (run: () => unknown): DomainError => {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    return error as DomainError;
  }
  throw new Error('expected a refusal');
};

const text = (fields: Partial<ModelFields> = {}): ModelFields => ({
  kind: 'text',
  tags: 'lo-fi piano, rain',
  lyrics: '',
  instrumental: false,
  ...fields,
});

describe('choosing a model', () => {
  it('runs the site default when none is asked for, and the one asked for when the plan offers it', () => {
    expect(chooseModel(context(free.id), undefined).id).toBe('ace-step');
    expect(chooseModel(context(free.id), 'cassetteai').id).toBe('cassetteai');
    expect(chooseModel(context(basic.id), 'stable-audio-2.5').id).toBe('stable-audio-2.5');
  });

  it('refuses an unknown model and one turned off, naming it', () => {
    expect(refusal(() => chooseModel(context(free.id), 'suno')).message).toBe(
      'There is no model "suno". Choose one of the models offered.',
    );
    const off = context(free.id);
    off.settings.models.cassetteai = { enabled: false, quotaCost: 1, plans: plans.map((p) => p.id) };
    expect(refusal(() => chooseModel(off, 'cassetteai')).message).toBe(
      'CassetteAI is turned off. Choose another model.',
    );
  });

  it('refuses a model the plan does not offer, naming the plans that do', () => {
    expect(refusal(() => chooseModel(context(free.id), 'minimax-music-2.5')).message).toBe(
      'MiniMax Music 2.5 is in Basic and Premium. Upgrade to use it.',
    );
    const inactive = context(free.id);
    inactive.plans = [free, basic, { ...premium, isActive: false }];
    expect(refusal(() => chooseModel(inactive, 'stable-audio-2.5')).message).toBe(
      'Stable Audio 2.5 is in Basic. Upgrade to use it.',
    );
  });

  it('gives a signed-in user with no plan in force the default model only', () => {
    expect(chooseModel(context(undefined), undefined).id).toBe('ace-step');
    expect(refusal(() => chooseModel(context(undefined), 'cassetteai')).kind).toBe('validation');
  });

  it('takes the plan in force: a lapsed paid plan falls back to Free', () => {
    const lapsed = { planStatus: 'cancelled' as const, planEndDate: '2026-01-01T00:00:00.000Z' };
    const now = new Date('2026-11-18T12:00:00.000Z');
    expect(modelPlanInForce(lapsed, basic, plans, now)).toBe(free.id);
    expect(modelPlanInForce({ planStatus: 'active', planEndDate: null }, basic, plans, now)).toBe(basic.id);
  });

  it('costs the quota units set for the model', () => {
    const costly = context(basic.id);
    costly.settings.models['minimax-music-2.5'] = { enabled: true, quotaCost: 7, plans: [basic.id] };
    expect(quotaCostOf(costly, model('minimax-music-2.5'))).toBe(7);
    expect(quotaCostOf(context(basic.id), model('stable-audio-2.5'))).toBe(4);
  });
});

describe('what a model is asked', () => {
  const ctx = context(premium.id);

  it('refuses lyrics for an instrumental-only model', () => {
    expect(
      refusal(() => checkModelFields(ctx, model('cassetteai'), text({ lyrics: 'la la la' }))).message,
    ).toBe('CassetteAI makes instrumentals only: leave the lyrics empty.');
  });

  it('refuses a song without lyrics, or an instrumental, from a model that always sings', () => {
    const expected = 'MiniMax Music 2.0 always sings: write lyrics of 10 to 3000 characters.';
    expect(refusal(() => checkModelFields(ctx, model('minimax-music-2'), text())).message).toBe(expected);
    expect(
      refusal(() => checkModelFields(ctx, model('minimax-music-2'), text({ instrumental: true }))).message,
    ).toBe(expected);
    expect(
      refusal(() => checkModelFields(ctx, model('minimax-music-2'), text({ lyrics: 'too short' }))).message,
    ).toBe('MiniMax Music 2.0 takes lyrics of 10 to 3000 characters.');
  });

  it("refuses lyrics and descriptions outside the model's lengths", () => {
    expect(
      refusal(() => checkModelFields(ctx, model('minimax-music-2.5'), text({ lyrics: 'x'.repeat(3501) })))
        .message,
    ).toBe('MiniMax Music 2.5 takes lyrics of 1 to 3500 characters.');
    expect(
      refusal(() =>
        checkModelFields(ctx, model('minimax-music-2'), text({ tags: 'pop', lyrics: '[verse] hello there' })),
      ).message,
    ).toBe('MiniMax Music 2.0 takes a description (tags) of 10 to 300 characters.');
  });

  it("takes a duration within the model's range, the default brought into it when none is given", () => {
    expect(checkModelFields(ctx, model('cassetteai'), text({ duration: 180 }))).toBe(180);
    expect(checkModelFields(ctx, model('stable-audio-2.5'), text({ duration: 1 }))).toBe(1);
    expect(checkModelFields(ctx, model('ace-step'), text())).toBe(60);
    expect(refusal(() => checkModelFields(ctx, model('cassetteai'), text({ duration: 181 }))).message).toBe(
      'CassetteAI makes 10 to 180 seconds: the duration must be a whole number of seconds in that range.',
    );
    expect(refusal(() => checkModelFields(ctx, model('ace-step'), text({ duration: 4 }))).kind).toBe(
      'validation',
    );
  });

  it('refuses a duration for a model that decides the length itself, and records none', () => {
    const song = text({ lyrics: '[verse] a song of my own words' });
    expect(checkModelFields(ctx, model('minimax-music-2.5'), song)).toBeNull();
    expect(
      refusal(() => checkModelFields(ctx, model('minimax-music-2.5'), { ...song, duration: 60 })).message,
    ).toBe('MiniMax Music 2.5 decides the length of its songs itself: leave the duration out.');
  });

  it('restyles only with a model that runs audio, naming the ones that can', () => {
    expect(checkModelFields(ctx, model('ace-step'), text({ kind: 'audio' }))).toBeNull();
    expect(
      refusal(() => checkModelFields(ctx, model('stable-audio-2.5'), text({ kind: 'audio' }))).message,
    ).toBe('Stable Audio 2.5 cannot restyle an upload. ACE-Step can.');
  });
});

describe('the model of a studio action', () => {
  it("runs extend and repaint on the track's own model where it runs them, else the first usable one that does", () => {
    expect(studioChoice(context(free.id), { model: null, type: 'text-to-music' }, 'extend').id).toBe(
      'ace-step',
    );
    expect(studioChoice(context(free.id), { model: 'cassetteai', type: 'text-to-music' }, 'repaint').id).toBe(
      'ace-step',
    );
  });

  it("varies a track with its own model while usable, else with the site's default", () => {
    expect(
      studioChoice(context(free.id), { model: 'cassetteai', type: 'text-to-music' }, 'variation').id,
    ).toBe('cassetteai');
    expect(
      studioChoice(context(free.id), { model: 'minimax-music-2.5', type: 'text-to-music' }, 'variation').id,
    ).toBe('ace-step');
    expect(
      studioChoice(context(free.id), { model: 'ace-step', type: 'audio-to-music' }, 'variation').id,
    ).toBe('ace-step');
  });

  it('refuses when no model the user may use runs the action', () => {
    const noAce = context(free.id);
    noAce.settings.models['ace-step'] = { enabled: false, quotaCost: 1, plans: [] };
    expect(
      refusal(() => studioChoice(noAce, { model: 'ace-step', type: 'text-to-music' }, 'extend')).message,
    ).toBe('No model you can use can extend a track.');
  });
});
