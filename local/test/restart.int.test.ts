import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  CognitoIdentityProviderClient,
  DescribeUserPoolCommand,
  UpdateUserPoolCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { dynamoPlanRepository } from '@tunesmith/functions/adapters/dynamo/plan-repository';
import type { Plan } from '@tunesmith/functions/domain/plans/plan';
import { afterAll, describe, expect, it } from 'vitest';
import { type LocalCloud, startLocalCloud } from '../src/cloud';
import { type ProvisionMarker, readMarker } from '../src/local-state';

// A later start on kept data skips what the provisioned marker says is in
// place, and still applies what changed: pool settings, plan prices.

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'tunesmith-restart-test-'));
const markerFile = path.join(dataDir, 'provisioned.json');
let running: LocalCloud | undefined;

afterAll(async () => {
  await running?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

async function start(): Promise<LocalCloud> {
  running = await startLocalCloud({
    port: 0,
    dataDir,
    fresh: false,
    persist: true,
    web: 'none',
    quiet: true,
  });
  return running;
}

async function stop(): Promise<void> {
  await running?.stop();
  running = undefined;
}

function clients(cloud: LocalCloud) {
  const { env } = cloud;
  const credentials = { accessKeyId: env.AWS_ACCESS_KEY_ID, secretAccessKey: env.AWS_SECRET_ACCESS_KEY };
  const dynamo = new DynamoDBClient({ region: env.AWS_REGION, endpoint: env.DYNAMODB_ENDPOINT, credentials });
  const cognito = new CognitoIdentityProviderClient({
    region: env.AWS_REGION,
    endpoint: env.COGNITO_ENDPOINT,
    credentials,
  });
  return {
    plans: dynamoPlanRepository(DynamoDBDocumentClient.from(dynamo), env.TABLE_NAME),
    minimumLength: async () =>
      (await cognito.send(new DescribeUserPoolCommand({ UserPoolId: env.USER_POOL_ID }))).UserPool?.Policies
        ?.PasswordPolicy?.MinimumLength,
    /** The users pool's password policy as an older version of the code might have left it. */
    loosenPolicy: () =>
      cognito.send(
        new UpdateUserPoolCommand({
          UserPoolId: env.USER_POOL_ID,
          Policies: { PasswordPolicy: { MinimumLength: 6 } },
        }),
      ),
    destroy() {
      dynamo.destroy();
      cognito.destroy();
    },
  };
}

const byId = (plans: Plan[]) => Object.fromEntries(plans.map((plan) => [plan.id, plan]));

describe('a later start of the local cloud', () => {
  it('skips what is in place and applies what changed', { timeout: 300_000 }, async () => {
    // First start: everything provisioned, and the marker says so.
    let cloud = await start();
    const first = readMarker(markerFile);
    expect(first).toEqual({
      seed: expect.any(String),
      pools: expect.any(String),
      prices: expect.any(String),
    });
    let c = clients(cloud);
    const pricedAtFirst = byId(await c.plans.listBySortOrder());
    expect(pricedAtFirst.basic?.monthlyPriceId).toMatch(/^price_/);
    expect(await c.minimumLength()).toBe(8);
    // Changed behind the marker's back: a later start that trusts the marker leaves it so.
    await c.loosenPolicy();
    c.destroy();
    await stop();

    cloud = await start();
    c = clients(cloud);
    expect(await c.minimumLength()).toBe(6);
    expect(byId(await c.plans.listBySortOrder())).toEqual(pricedAtFirst);
    expect(readMarker(markerFile)).toEqual(first);
    // A new plan price (an edit made without a sync) on the kept data.
    const basic = pricedAtFirst.basic as Plan;
    await c.plans.put({ ...basic, monthlyPrice: basic.monthlyPrice + 1 });
    c.destroy();
    await stop();
    // The code's pool settings changed since this data was provisioned.
    const stale: ProvisionMarker = { ...first, pools: 'settings-of-an-older-version' };
    writeFileSync(markerFile, JSON.stringify(stale));

    cloud = await start();
    c = clients(cloud);
    expect(await c.minimumLength()).toBe(8);
    const repriced = byId(await c.plans.listBySortOrder());
    expect(repriced.basic?.monthlyPriceId).toMatch(/^price_/);
    expect(repriced.basic?.monthlyPriceId).not.toBe(basic.monthlyPriceId);
    expect(repriced.basic?.weeklyPriceId).toBe(basic.weeklyPriceId);
    expect(repriced.premium?.monthlyPriceId).toBe(pricedAtFirst.premium?.monthlyPriceId);
    const after = JSON.parse(readFileSync(markerFile, 'utf8')) as ProvisionMarker;
    expect(after.pools).toBe(first.pools);
    expect(after.prices).not.toBe(first.prices);
    c.destroy();
  });
});
