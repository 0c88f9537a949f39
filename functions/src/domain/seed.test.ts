import { describe, expect, it } from 'vitest';
import { inMemoryPlans, inMemorySettings } from '../testing/in-memory';
import { listActivePlans } from './plans/plan-service';
import { seedDefaults } from './seed';

describe('seedDefaults', () => {
  it('creates the three plans at the Terms prices and quotas, in order', async () => {
    const plans = inMemoryPlans();
    const settings = inMemorySettings();

    const result = await seedDefaults({ plans, settings }, new Date('2026-01-01T00:00:00Z'));

    expect(result.plansCreated).toBe(3);
    const listed = await listActivePlans(plans);
    expect(
      listed.map((p) => [p.name, p.weeklyPrice, p.monthlyPrice, p.yearlyPrice, p.maxGenerations]),
    ).toEqual([
      ['Free', 0, 0, 0, 5],
      ['Basic', 2.08, 9, 90, 30],
      ['Premium', 4.39, 19, 190, 100],
    ]);
    expect(listed.every((p) => Array.isArray(p.features) && p.features.length > 0)).toBe(true);
    expect(listed.find((p) => p.name === 'Premium')?.features).toEqual(
      expect.arrayContaining(['Priority generation', 'Commercial license']),
    );
    expect(listed.find((p) => p.name === 'Free')?.features).toContain('Public sharing only');
  });

  it('creates every default setting, site_name first among them', async () => {
    const settings = inMemorySettings();
    await seedDefaults({ plans: inMemoryPlans(), settings });
    expect([...settings.all.keys()]).toEqual([
      'site_name',
      'site_description',
      'support_email',
      'contact_email',
      'stripe_publishable_key',
      'stripe_secret_key',
      'stripe_webhook_secret',
      'fal_api_key',
    ]);
    expect(settings.all.get('site_name')?.value).toBe('Tunesmith');
  });

  it('never overwrites what an admin changed when run again', async () => {
    const plans = inMemoryPlans();
    const settings = inMemorySettings();
    await seedDefaults({ plans, settings });
    const basic = await plans.get('basic');
    await plans.put({ ...(basic as NonNullable<typeof basic>), monthlyPrice: 11 });
    const siteName = settings.all.get('site_name');
    await settings.put({ ...(siteName as NonNullable<typeof siteName>), value: 'My Music' });

    const again = await seedDefaults({ plans, settings });

    expect(again).toEqual({ plansCreated: 0, settingsCreated: 0 });
    expect((await plans.get('basic'))?.monthlyPrice).toBe(11);
    expect(settings.all.get('site_name')?.value).toBe('My Music');
  });
});
