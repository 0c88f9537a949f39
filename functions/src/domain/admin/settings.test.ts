import type { AuditEntry } from '@tunesmith/shared/admin';
import { describe, expect, it } from 'vitest';
import { inMemorySettings } from '../../testing/in-memory';
import { fakeClock } from '../../testing/in-memory-accounts';
import { DomainError } from '../errors';
import type { StripeKeyVerdict } from './ports';
import { updateSetting } from './settings';

const admin = { username: 'ops' };

function setup(verdict: StripeKeyVerdict) {
  const settings = inMemorySettings();
  const audit: AuditEntry[] = [];
  const checked: string[] = [];
  const deps = {
    settings,
    audit: { record: async (entry: AuditEntry) => void audit.push(entry), recent: async () => audit },
    clock: fakeClock('2026-11-25T10:00:00.000Z'),
    newId: () => 'a1',
    stripeKeyCheck: {
      checkSecretKey: async (key: string) => {
        checked.push(key);
        return verdict;
      },
    },
  };
  return { deps, settings, audit, checked };
}

async function refusal(promise: Promise<unknown>): Promise<DomainError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof DomainError)) throw new Error(`expected a refusal, got ${String(error)}`);
  return error;
}

describe('updateSetting with a Stripe secret key', () => {
  it('stores a key Stripe accepts, after asking Stripe with it', async () => {
    const { deps, settings, checked, audit } = setup('ok');

    const saved = await updateSetting(deps, admin, { key: 'stripe_secret_key', value: 'sk_test_abc123' });

    expect(checked).toEqual(['sk_test_abc123']);
    expect(saved).toMatchObject({ key: 'stripe_secret_key', value: '', isSet: true });
    expect(settings.all.get('stripe_secret_key')?.value).toBe('sk_test_abc123');
    expect(audit.map((e) => e.summary)).toEqual(['Set stripe_secret_key']);
  });

  it('refuses a key Stripe refuses with a 400 and its reason, storing and recording nothing', async () => {
    const { deps, settings, audit } = setup('refused');

    const error = await refusal(
      updateSetting(deps, admin, { key: 'stripe_secret_key', value: 'sk_test_x1' }),
    );

    expect(error.kind).toBe('validation');
    expect(error.message).toBe(
      'Stripe refused this secret key: it is not a key of any Stripe account, or it was revoked. Nothing was saved.',
    );
    expect(settings.all.has('stripe_secret_key')).toBe(false);
    expect(audit).toEqual([]);
  });

  it('refuses to store a key it could not check while Stripe is out of reach (503)', async () => {
    const { deps, settings } = setup('unreachable');

    const error = await refusal(
      updateSetting(deps, admin, { key: 'stripe_secret_key', value: 'sk_live_x1' }),
    );

    expect(error.kind).toBe('unavailable');
    expect(error.message).toMatch(/could not be reached.*not saved/);
    expect(settings.all.has('stripe_secret_key')).toBe(false);
  });

  it('clears the key without asking Stripe, and checks no other setting with Stripe', async () => {
    const { deps, settings, checked } = setup('refused');

    await updateSetting(deps, admin, { key: 'stripe_secret_key', value: '' });
    await updateSetting(deps, admin, { key: 'stripe_publishable_key', value: 'pk_test_abc' });

    expect(checked).toEqual([]);
    expect(settings.all.get('stripe_secret_key')?.value).toBe('');
    expect(settings.all.get('stripe_publishable_key')?.value).toBe('pk_test_abc');
  });
});
