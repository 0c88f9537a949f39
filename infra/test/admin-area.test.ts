import { routeGroups } from '@tunesmith/shared/routes';
import { describe, expect, it } from 'vitest';
import { groupAccess } from '../lib/api';
import { SETTINGS_KMS_KEY_ID } from '../lib/settings-key';
import {
  actionsOf,
  flatten,
  functionsByEntry,
  logicalId,
  propsOf,
  type Resource,
  resourcesOf,
  statementsOfFunction,
  synthBeforeAll,
} from './helpers';

// The admin area on AWS (decision 006): the KMS key that seals secret settings and who may use it,
// the admin function's grants, and the daily usage analytics job.

const synthesized = synthBeforeAll();
const { resources, functionOf } = synthesized;

const keyId = () => logicalId(synthesized.stack, synthesized.stack.settingsKey.key.node.defaultChild);
const variablesOf = (resource: Resource | undefined): Record<string, unknown> =>
  (resource?.Properties?.Environment as { Variables?: Record<string, unknown> } | undefined)?.Variables ?? {};
const kmsActionsOf = (functionId: string): string[] =>
  statementsOfFunction(resources, functionId)
    .filter((s) => s.Effect === 'Allow')
    .flatMap((s) =>
      actionsOf(s)
        .filter((a) => a.startsWith('kms:'))
        .map((a) => `${a} on ${resourcesOf(s).map(flatten).join(',')}`),
    );

describe('settings key', () => {
  it('is one customer key with rotation, kept when the stack is deleted', () => {
    // Beside the alarm topic's own key (monitoring.test.ts), the settings key is the only one.
    const alarmsKey = logicalId(synthesized.stack, synthesized.stack.monitoring.key.node.defaultChild);
    const keys = Object.entries(resources).filter(
      ([id, r]) => r.Type === 'AWS::KMS::Key' && id !== alarmsKey,
    );
    expect(keys.map(([id]) => id)).toEqual([keyId()]);
    const key = resources[keyId()] as Resource & { DeletionPolicy?: string };
    expect(propsOf(key).EnableKeyRotation).toBe(true);
    expect(key.DeletionPolicy).toBe('Retain');
  });

  it('lets the admin function seal and open, the readers only open, and nobody else touch it', () => {
    const arn = `{${keyId()}.Arn}`;
    const admin = kmsActionsOf(functionOf('admin'));
    expect(admin).toEqual(expect.arrayContaining([`kms:Encrypt on ${arn}`, `kms:Decrypt on ${arn}`]));
    const openers = routeGroups.filter((g) => groupAccess[g].settings === 'open');
    // auth cancels a subscription when an account is deleted (Stripe's keys may be sealed site settings).
    expect(openers.sort()).toEqual(['auth', 'billing', 'generation', 'webhooks']);
    for (const group of openers) {
      const actions = kmsActionsOf(functionOf(group));
      expect(actions, group).toEqual([`kms:Decrypt on ${arn}`]);
      expect(flatten(variablesOf(resources[functionOf(group)])[SETTINGS_KMS_KEY_ID]), group).toBe(arn);
    }
    const workflowFunctions = functionsByEntry(resources).get('workflow') ?? [];
    expect(workflowFunctions.length).toBeGreaterThan(0);
    for (const id of workflowFunctions) expect(kmsActionsOf(id), id).toEqual([`kms:Decrypt on ${arn}`]);

    // The jobs function opens them too: the delete-account job ends a subscription that still charges.
    expect(kmsActionsOf(functionOf('jobs'))).toEqual([`kms:Decrypt on ${arn}`]);
    const allowed = new Set(
      [...openers, 'admin'].map((g) => functionOf(g)).concat(workflowFunctions, functionOf('jobs')),
    );
    for (const [id, resource] of Object.entries(resources)) {
      if (resource.Type !== 'AWS::Lambda::Function' || allowed.has(id)) continue;
      expect(kmsActionsOf(id), id).toEqual([]);
      expect(variablesOf(resource)[SETTINGS_KMS_KEY_ID], id).toBeUndefined();
    }
  });
});

describe('admin function', () => {
  it('deletes and updates identities in the user pool only, lists and deletes objects, and writes only share documents and the pricing page', () => {
    const statements = statementsOfFunction(resources, functionOf('admin')).filter(
      (s) => s.Effect === 'Allow',
    );
    const cognito = statements.filter((s) => actionsOf(s).some((a) => a.startsWith('cognito-idp:')));
    expect(cognito.flatMap(actionsOf).sort()).toEqual([
      'cognito-idp:AdminDeleteUser',
      'cognito-idp:AdminUpdateUserAttributes',
    ]);
    const userPool = logicalId(synthesized.stack, synthesized.stack.auth.userPool.node.defaultChild);
    for (const s of cognito) expect(resourcesOf(s).map(flatten)).toEqual([`{${userPool}.Arn}`]);
    const s3 = statements.flatMap(actionsOf).filter((a) => a.startsWith('s3:'));
    // Track files and export zips go with every version (decision 034).
    expect(new Set(s3)).toEqual(
      new Set([
        's3:GetObject',
        's3:DeleteObject',
        's3:DeleteObjectVersion',
        's3:ListBucket',
        's3:ListBucketVersions',
        's3:PutObject',
      ]),
    );
    // It writes only share documents (an admin's rename rewrites the track's share page; decision 024;
    // a restored profile's, decision 061) and the pricing page's document (a change to the plans; decision 038).
    const puts = statements.filter((s) => actionsOf(s).includes('s3:PutObject'));
    expect(puts.flatMap((s) => resourcesOf(s).map(flatten))).toEqual([
      expect.stringMatching(/^\{WebBucket[0-9A-F]{8}\.Arn\}\/share\/creator\/\*$/),
      expect.stringMatching(/^\{WebBucket[0-9A-F]{8}\.Arn\}\/share\/playlist\/\*$/),
      expect.stringMatching(/^\{WebBucket[0-9A-F]{8}\.Arn\}\/share\/track\/\*$/),
      expect.stringMatching(/^\{WebBucket[0-9A-F]{8}\.Arn\}\/pages\/pricing\.html$/),
    ]);
  });
});

describe('usage analytics job', () => {
  it('runs the analytics handler daily at 00:05 UTC with only GetItem and PutItem on the table', () => {
    const [fnId] = functionsByEntry(resources).get('analytics') ?? [];
    expect(fnId).toBeDefined();
    const rules = Object.values(resources).filter((r) => r.Type === 'AWS::Events::Rule');
    const daily = rules.find((r) => propsOf(r).ScheduleExpression === 'cron(5 0 * * ? *)');
    expect(daily).toBeDefined();
    expect(JSON.stringify(propsOf(daily).Targets)).toContain(fnId as string);
    const actions = statementsOfFunction(resources, fnId as string)
      .filter((s) => s.Effect === 'Allow')
      .flatMap(actionsOf)
      .filter((a) => a.startsWith('dynamodb:'));
    expect(actions.sort()).toEqual(['dynamodb:GetItem', 'dynamodb:PutItem']);
  });
});
