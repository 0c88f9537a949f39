import { describe, expect, it } from 'vitest';
import { isFreePlan, planFeatures, planPriceId, planSavingsPercent, planSchema, planTagline } from './plans';

const basic = { weeklyPrice: 2.08, monthlyPrice: 9, yearlyPrice: 90 };
const premium = { weeklyPrice: 4.39, monthlyPrice: 19, yearlyPrice: 190 };

describe('planSavingsPercent', () => {
  it('compares yearly with twelve months', () => {
    expect(planSavingsPercent(basic, 'yearly')).toBe(Math.round((1 - 90 / 108) * 100));
    expect(planSavingsPercent(basic, 'yearly')).toBe(17);
    expect(planSavingsPercent(premium, 'yearly')).toBe(17);
  });

  it('compares monthly with four weeks', () => {
    expect(planSavingsPercent({ weeklyPrice: 3, monthlyPrice: 9, yearlyPrice: 0 }, 'monthly')).toBe(25);
    // 4 weeks of Basic cost $8.32, less than a month at $9: nothing to save, so nothing shown.
    expect(planSavingsPercent(basic, 'monthly')).toBeNull();
  });

  it('shows nothing for weekly, free plans, or when the longer cycle costs more', () => {
    expect(planSavingsPercent(basic, 'weekly')).toBeNull();
    expect(planSavingsPercent({ weeklyPrice: 0, monthlyPrice: 0, yearlyPrice: 0 }, 'yearly')).toBeNull();
    expect(planSavingsPercent({ weeklyPrice: 1, monthlyPrice: 5, yearlyPrice: 70 }, 'yearly')).toBeNull();
  });
});

describe('planFeatures', () => {
  it('reads an array, a JSON list and a newline-separated string', () => {
    expect(planFeatures(['a', ' b ', ''])).toEqual(['a', 'b']);
    expect(planFeatures('["a","b"]')).toEqual(['a', 'b']);
    expect(planFeatures('a\n b\n\n')).toEqual(['a', 'b']);
    expect(planFeatures('[not json\nsecond')).toEqual(['[not json', 'second']);
    expect(planFeatures(null)).toEqual([]);
  });
});

describe('plan helpers', () => {
  it('takes the first description line as the tagline', () => {
    expect(planTagline('For creators.\nMore text')).toBe('For creators.');
    expect(planTagline(null)).toBe('');
  });

  it('picks the price id of a cycle and recognises the free plan', () => {
    const ids = { weeklyPriceId: 'w', monthlyPriceId: null, yearlyPriceId: 'y' };
    expect(planPriceId(ids, 'weekly')).toBe('w');
    expect(planPriceId(ids, 'monthly')).toBeNull();
    expect(isFreePlan({ name: 'Free', ...basic })).toBe(true);
    expect(isFreePlan({ name: 'Basic', ...basic })).toBe(false);
  });
});

describe('planSchema', () => {
  const stored = {
    id: 'basic',
    name: 'Basic',
    description: null,
    weeklyPrice: 2.08,
    monthlyPrice: 9,
    yearlyPrice: 90,
    weeklyPriceId: null,
    monthlyPriceId: null,
    yearlyPriceId: null,
    maxGenerations: 30,
    generationsNumber: 30,
    features: [],
    isActive: true,
    sortOrder: 1,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
  };

  it('reads a plan stored before API access was a setting as one that has it, and keeps a stored choice', () => {
    expect(planSchema.parse(stored).apiAccess).toBe(true);
    expect(planSchema.parse({ ...stored, apiAccess: false }).apiAccess).toBe(false);
  });
});
