import type { AuditEntry } from '@tunesmith/shared/audit';
import type { ModelSettings } from '@tunesmith/shared/model-settings';
import { describe, expect, it } from 'vitest';
import { aBasicPlan, aPlan } from '../../testing/fixtures';
import { inMemoryPlans } from '../../testing/in-memory';
import { fakeClock } from '../../testing/in-memory-accounts';
import { inMemoryModelSettings } from '../../testing/in-memory-models';
import { DomainError } from '../errors';
import { modelSettingsSource, settingsInForce } from './model-settings';
import {
  daysOfWeekSoFar,
  type ModelDayUsage,
  modelCountsOfStart,
  modelSpendOfCompletion,
  weekUsage,
} from './model-usage';
import { adminModels, listModels, updateModels } from './models-service';

const free = aPlan();
const basic = aBasicPlan();

function setup(days: Record<string, Record<string, ModelDayUsage>> = {}) {
  const store = inMemoryModelSettings();
  const entries: AuditEntry[] = [];
  let n = 0;
  const deps = {
    // A Wednesday: the week began on Monday 2026-11-16.
    clock: fakeClock('2026-11-18T12:00:00.000Z'),
    plans: inMemoryPlans([free, basic]),
    modelSettings: modelSettingsSource(store),
    modelUsage: { day: async (date: string) => days[date] ?? {} },
    audit: { record: async (entry: AuditEntry) => void entries.push(entry), recent: async () => entries },
    newId: () => `audit-${++n}`,
  };
  return { deps, store, entries };
}

describe('the admin Models calls', () => {
  it('saves a checked document, applies it at once and audits what changed', async () => {
    const { deps, store, entries } = setup();
    const doc: ModelSettings = settingsInForce(undefined, [free, basic]);
    doc.models['minimax-music-2.5'] = { enabled: true, quotaCost: 5, plans: [free.id, basic.id] };
    doc.models.cassetteai = { enabled: false, quotaCost: 1, plans: [free.id, basic.id] };

    await updateModels(deps, { username: 'root' }, doc);

    expect(store.stored?.models['minimax-music-2.5']?.quotaCost).toBe(5);
    expect((await adminModels(deps)).settings.models.cassetteai?.enabled).toBe(false);
    const onFree = await listModels(deps, { planStatus: 'free', planEndDate: null, plan: free });
    expect(onFree.models.find((m) => m.id === 'minimax-music-2.5')).toMatchObject({
      available: true,
      quotaCost: 5,
    });
    expect(onFree.models.map((m) => m.id)).not.toContain('cassetteai');
    expect(entries).toEqual([
      expect.objectContaining({
        actor: 'root',
        action: 'models.update',
        target: 'models',
        summary: `Updated models: minimax-music-2.5 costs 5; minimax-music-2.5 plans ${basic.id}, ${free.id}; cassetteai off`,
      }),
    ]);
  });

  it('stores nothing and audits nothing when the document is refused', async () => {
    const { deps, store, entries } = setup();
    const doc = settingsInForce(undefined, [free, basic]);
    doc.defaultModel = 'stable-audio-2.5';
    const error = await updateModels(deps, { username: 'root' }, doc).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DomainError);
    expect(store.stored).toBeUndefined();
    expect(entries).toEqual([]);
  });

  it("reads this week's generations and spend of each model from the day counters since Monday", async () => {
    const { deps } = setup({
      '2026-11-15': { 'ace-step': { generations: 50, spendMicroUsd: 600_000 } },
      '2026-11-16': { 'ace-step': { generations: 2, spendMicroUsd: 24_000 } },
      '2026-11-18': {
        'ace-step': { generations: 1, spendMicroUsd: 12_000 },
        'minimax-music-2.5': { generations: 3, spendMicroUsd: 450_000 },
      },
    });
    const models = await adminModels(deps);
    expect(models.weekStart).toBe('2026-11-16');
    expect(models.usage.find((u) => u.id === 'ace-step')).toEqual({
      id: 'ace-step',
      name: 'ACE-Step',
      generations: 3,
      spendUsd: 0.036,
    });
    expect(models.usage.find((u) => u.id === 'minimax-music-2.5')).toMatchObject({
      generations: 3,
      spendUsd: 0.45,
    });
    expect(models.usage.find((u) => u.id === 'cassetteai')).toMatchObject({ generations: 0, spendUsd: 0 });
    expect((await weekUsage(deps)).usage).toEqual(models.usage);
  });
});

describe('the model counters', () => {
  it('count a start on its model (a track from before the choice on ACE-Step)', () => {
    expect(modelCountsOfStart({ model: 'cassetteai' })).toEqual({ 'model#cassetteai#generations': 1 });
    expect(modelCountsOfStart({})).toEqual({ 'model#ace-step#generations': 1 });
  });

  it("add a completion's provider spend from its length and the registry's price, once", () => {
    const done = { status: 'completed' as const, duration: 60 };
    expect(modelSpendOfCompletion({ status: 'generating' }, { ...done, model: 'ace-step' })).toEqual({
      'model#ace-step#spendMicroUsd': 12_000,
    });
    // Per started minute, and per song whatever its length.
    expect(
      modelSpendOfCompletion({ status: 'generating' }, { ...done, duration: 61, model: 'cassetteai' }),
    ).toEqual({
      'model#cassetteai#spendMicroUsd': 40_000,
    });
    expect(
      modelSpendOfCompletion({ status: 'pending' }, { ...done, duration: 200, model: 'minimax-music-2.5' }),
    ).toEqual({ 'model#minimax-music-2.5#spendMicroUsd': 150_000 });
    expect(modelSpendOfCompletion({ status: 'completed' }, { ...done, model: 'ace-step' })).toEqual({});
    expect(modelSpendOfCompletion({ status: 'generating' }, { status: 'failed', duration: null })).toEqual(
      {},
    );
  });

  it('cover the week from Monday to today', () => {
    expect(daysOfWeekSoFar(new Date('2026-11-18T12:00:00.000Z'))).toEqual([
      '2026-11-16',
      '2026-11-17',
      '2026-11-18',
    ]);
    expect(daysOfWeekSoFar(new Date('2026-11-16T00:00:00.000Z'))).toEqual(['2026-11-16']);
  });
});
