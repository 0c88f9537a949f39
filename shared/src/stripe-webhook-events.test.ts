import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { STRIPE_WEBHOOK_EVENTS } from './billing';

/** The events docs/deploy.md's Connect Stripe step 2 tells an operator to send to the webhook endpoint. */
function documentedWebhookEvents(): string[] {
  const doc = readFileSync(new URL('../../docs/deploy.md', import.meta.url), 'utf8');
  const start = doc.indexOf('**Webhook endpoint.**');
  const end = doc.indexOf('signing secret', start);
  expect(start, 'docs/deploy.md has a **Webhook endpoint.** step').toBeGreaterThan(-1);
  expect(end, 'the step ends at the signing secret').toBeGreaterThan(start);
  const step = doc.slice(start, end);
  return [...step.matchAll(/`([a-z_]+(?:\.[a-z_]+)+)`/g)].map((match) => match[1] ?? '');
}

describe('the webhook events', () => {
  it('are the same in docs/deploy.md as in the list the webhook handles and the Webhooks tab shows', () => {
    const documented = documentedWebhookEvents();
    expect(new Set(documented).size).toBe(documented.length);
    expect([...documented].sort()).toEqual([...STRIPE_WEBHOOK_EVENTS].sort());
  });
});
