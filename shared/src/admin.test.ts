import { describe, expect, it } from 'vitest';
import {
  adminAssignPlanSchema,
  adminMessages,
  adminUpdateSettingSchema,
  adminUpdateUserSchema,
  planInputSchema,
} from './admin';

const firstMessage = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
  result.success ? undefined : result.error?.issues[0]?.message;

describe('plan form rules', () => {
  it('applies the defaults to empty fields and splits features into lines', () => {
    const plan = planInputSchema.parse({
      name: ' Pro ',
      features: 'A\n\n B \n',
      weeklyPrice: '',
      monthlyPrice: '9.99',
      maxGenerations: '',
      generationsNumber: null,
      sortOrder: '',
      weeklyPriceId: ' ',
    });
    expect(plan).toMatchObject({
      name: 'Pro',
      features: ['A', 'B'],
      weeklyPrice: 0,
      monthlyPrice: 9.99,
      yearlyPrice: 0,
      maxGenerations: 5,
      generationsNumber: 5,
      sortOrder: 0,
      weeklyPriceId: null,
      isActive: true,
      description: null,
      apiAccess: true,
    });
    expect(planInputSchema.parse({ name: 'Pro', apiAccess: false }).apiAccess).toBe(false);
  });

  it('refuses what the form refuses', () => {
    expect(firstMessage(planInputSchema.safeParse({ name: '' }))).toBe('Name is required');
    expect(firstMessage(planInputSchema.safeParse({ name: 'A', maxGenerations: 0 }))).toBe(
      'Max generations must be at least 1',
    );
    expect(firstMessage(planInputSchema.safeParse({ name: 'A', maxGenerations: 1.5 }))).toBe(
      'Must be a whole number',
    );
    expect(planInputSchema.safeParse({ name: 'A', monthlyPrice: 0.1 + 0.2 }).success).toBe(true);
    expect(planInputSchema.safeParse({ name: 'A', monthlyPrice: 99_999_999.99 }).success).toBe(true);
    expect(firstMessage(planInputSchema.safeParse({ name: 'A', monthlyPrice: 100_000_000 }))).toBe(
      'Prices must be numbers of at most 10 digits with 2 decimals.',
    );
    expect(firstMessage(planInputSchema.safeParse({ name: 'A', yearlyPrice: -1 }))).toBe(
      'Prices must be numbers of at most 10 digits with 2 decimals.',
    );
  });
});

describe('admin user and plan assignment input', () => {
  it('takes any subset of the editable fields and nothing else', () => {
    expect(adminUpdateUserSchema.parse({ email: ' A@B.CO ' })).toEqual({ email: 'a@b.co' });
    expect(adminUpdateUserSchema.safeParse({ planStatus: 'active' }).success).toBe(false);
  });

  it('pairs Free with status free and a plan with another status', () => {
    expect(adminAssignPlanSchema.safeParse({ planId: null, status: 'free' }).success).toBe(true);
    expect(adminAssignPlanSchema.safeParse({ planId: null, status: 'active' }).success).toBe(false);
    expect(adminAssignPlanSchema.safeParse({ planId: 'basic', status: 'free' }).success).toBe(false);
    expect(adminAssignPlanSchema.safeParse({ planId: 'basic', status: 'cancelled' }).success).toBe(true);
  });
});

describe('settings input', () => {
  it('checks emails and key formats, and lets secrets be cleared', () => {
    expect(firstMessage(adminUpdateSettingSchema.safeParse({ key: 'contact_email', value: 'x' }))).toBe(
      'Invalid email address',
    );
    expect(
      firstMessage(adminUpdateSettingSchema.safeParse({ key: 'stripe_webhook_secret', value: 'abc' })),
    ).toBe(adminMessages.webhookSecretFormat);
    expect(adminUpdateSettingSchema.safeParse({ key: 'stripe_secret_key', value: '' }).success).toBe(true);
    expect(firstMessage(adminUpdateSettingSchema.safeParse({ key: 'other', value: 'x' }))).toBe(
      'Unknown setting',
    );
  });
});

describe('Stripe key forms', () => {
  const check = (key: string, value: string) => adminUpdateSettingSchema.safeParse({ key, value });

  it('takes test and live keys of each kind, and restricted secret keys', () => {
    for (const [key, value] of [
      ['stripe_publishable_key', 'pk_test_51Habc09XYZ'],
      ['stripe_publishable_key', 'pk_live_51Habc09XYZ'],
      ['stripe_secret_key', 'sk_test_51Habc09XYZ'],
      ['stripe_secret_key', 'sk_live_51Habc09XYZ'],
      ['stripe_secret_key', 'rk_test_51Habc09XYZ'],
      ['stripe_secret_key', 'rk_live_51Habc09XYZ'],
      ['stripe_webhook_secret', 'whsec_abc123DEF456'],
      ['stripe_webhook_secret', 'whsec_Zm9v-YmFy_cXV4'],
    ] as const) {
      expect([key, value, check(key, value).success]).toEqual([key, value, true]);
    }
  });

  it('refuses each kind of key in the wrong field, or cut short, with what the field expects', () => {
    const cases = [
      ['stripe_publishable_key', 'sk_test_abc', adminMessages.publishableKeyFormat],
      ['stripe_publishable_key', 'pk_abc', adminMessages.publishableKeyFormat],
      ['stripe_publishable_key', 'pk_test_', adminMessages.publishableKeyFormat],
      ['stripe_secret_key', 'pk_live_abc', adminMessages.secretKeyFormat],
      ['stripe_secret_key', 'sk_abc', adminMessages.secretKeyFormat],
      ['stripe_secret_key', 'sk_test_abc def', adminMessages.secretKeyFormat],
      ['stripe_webhook_secret', 'sk_test_abc', adminMessages.webhookSecretFormat],
      ['stripe_webhook_secret', 'whsec_', adminMessages.webhookSecretFormat],
    ] as const;
    for (const [key, value, message] of cases) {
      expect([key, value, firstMessage(check(key, value))]).toEqual([key, value, message]);
    }
  });

  it('lets every key be cleared', () => {
    for (const key of ['stripe_publishable_key', 'stripe_secret_key', 'stripe_webhook_secret']) {
      expect(check(key, '  ').success).toBe(true);
    }
  });
});

describe('site name', () => {
  it('is one line of at most 60 characters', () => {
    const check = (value: string) => adminUpdateSettingSchema.safeParse({ key: 'site_name', value });
    expect(check('Harbour Radio').success).toBe(true);
    expect(check('x'.repeat(60)).success).toBe(true);
    expect(firstMessage(check('x'.repeat(61)))).toBe(adminMessages.siteNameFormat);
    expect(firstMessage(check('Harbour\nRadio'))).toBe(adminMessages.siteNameFormat);
  });
});
