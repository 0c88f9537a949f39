import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { STRIPE_WEBHOOK_EVENTS } from './billing';

/** The events README's Connect Stripe step 2 tells an operator to send to the webhook endpoint. */
function readmeWebhookEvents(): string[] {
  const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
  const start = readme.indexOf('**Webhook endpoint.**');
  const end = readme.indexOf('signing secret', start);
  expect(start, 'README has a **Webhook endpoint.** step').toBeGreaterThan(-1);
  expect(end, 'the step ends at the signing secret').toBeGreaterThan(start);
  const step = readme.slice(start, end);
  return [...step.matchAll(/`([a-z_]+(?:\.[a-z_]+)+)`/g)].map((match) => match[1] ?? '');
}

describe('the webhook events', () => {
  it('are the same in the README as in the list the webhook handles and the Webhooks tab shows', () => {
    const inReadme = readmeWebhookEvents();
    expect(new Set(inReadme).size).toBe(inReadme.length);
    expect([...inReadme].sort()).toEqual([...STRIPE_WEBHOOK_EVENTS].sort());
  });
});
