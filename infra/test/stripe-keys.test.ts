import { routeGroups } from '@tunesmith/shared/routes';
import { describe, expect, it } from 'vitest';
import { groupAccess } from '../lib/api';
import { STRIPE_SECRET_ARN } from '../lib/stripe-keys';
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

// Stripe's keys on AWS (DESIGN.md, Billing; decision 005): one secret, created empty, read only by the
// billing, webhooks, admin and auth functions and the jobs function, never a key in a Lambda environment
// or in the template.

const synthesized = synthBeforeAll();
const { resources, functionOf } = synthesized;

/**
 * The groups that talk to Stripe: Checkout, portal and cancel (billing), Stripe's webhook (webhooks),
 * the admin area (a deleted user's subscription ends at once) and auth (deleting one's own account
 * cancels the subscription before it answers; decision 022).
 */
const STRIPE_GROUPS = ['admin', 'auth', 'billing', 'webhooks'];
/** Every function that reads the secret: those groups', and the jobs function's (the account deletion job). */
const stripeFunctionIds = () => [...STRIPE_GROUPS.map((group) => functionOf(group)), functionOf('jobs')];

const secretId = () => logicalId(synthesized.stack, synthesized.stack.stripeKeys.secret.node.defaultChild);
/** The origin lock's secret (origin-lock.test.ts), which every route group reads. */
const originSecretId = () =>
  logicalId(synthesized.stack, synthesized.stack.originSecret.secret.node.defaultChild);
/** The origin lock's and the audio signing keys' secrets (audio-signing.test.ts): not this test's concern. */
const otherSecretIds = () => [
  originSecretId(),
  // The content credentials' signing key: the workflow's Finish alone reads and writes it (infra/test/workflow.test.ts).
  logicalId(synthesized.stack, synthesized.stack.workflow.contentCredentials.node.defaultChild),
  ...synthesized.stack.audioSigning.keys.map((key) =>
    logicalId(synthesized.stack, key.secret.node.defaultChild),
  ),
];

const lambdaFunctions = () => Object.entries(resources).filter(([, r]) => r.Type === 'AWS::Lambda::Function');

const variablesOf = (resource: Resource): Record<string, unknown> =>
  (resource.Properties?.Environment as { Variables?: Record<string, unknown> } | undefined)?.Variables ?? {};

/** `action on resource` for every Secrets Manager action in a function's role policies, the other secrets aside. */
const secretsGrantsOf = (functionId: string): string[] =>
  statementsOfFunction(resources, functionId)
    .filter((s) => s.Effect === 'Allow')
    .flatMap((s) =>
      actionsOf(s)
        .filter((action) => action.startsWith('secretsmanager:'))
        .flatMap((action) => resourcesOf(s).map((resource) => `${action} on ${flatten(resource)}`)),
    )
    .filter((grant) => !otherSecretIds().some((id) => grant.endsWith(`{Ref:${id}}`)));

describe('Stripe keys secret', () => {
  it('is one secret, kept when the stack is deleted', () => {
    const secrets = Object.entries(resources).filter(
      ([id, r]) => r.Type === 'AWS::SecretsManager::Secret' && !otherSecretIds().includes(id),
    );
    expect(secrets.map(([id]) => id)).toEqual([secretId()]);
    const secret = resources[secretId()] as Resource & {
      DeletionPolicy?: string;
      UpdateReplacePolicy?: string;
    };
    expect(secret.DeletionPolicy).toBe('Retain');
    expect(secret.UpdateReplacePolicy).toBe('Retain');
  });

  it('holds only the empty placeholder in the shape the functions read', () => {
    const props = propsOf(resources[secretId()]);
    expect(props.GenerateSecretString).toBeUndefined();
    expect(JSON.parse(props.SecretString as string)).toEqual({ secretKey: '', webhookSecret: '' });
  });

  it('says in its description how to fill it', () => {
    const description = propsOf(resources[secretId()]).Description as string;
    expect(description).toContain('aws secretsmanager put-secret-value --secret-id <arn>');
    expect(description).toContain('\'{"secretKey":"sk_test_...","webhookSecret":"whsec_..."}\'');
  });

  it('has no rotation, with a reason for cdk-nag on the secret only', () => {
    expect(
      Object.values(resources).filter((r) => r.Type === 'AWS::SecretsManager::RotationSchedule'),
    ).toEqual([]);
    const suppressed = Object.entries(resources).filter(
      ([id, r]) =>
        !otherSecretIds().includes(id) &&
        JSON.stringify(r.Metadata?.cdk_nag ?? {}).includes('AwsSolutions-SMG4'),
    );
    expect(suppressed.map(([id]) => id)).toEqual([secretId()]);
  });

  it('is a stack output', () => {
    const output = synthesized.template.toJSON().Outputs?.StripeSecretArn as { Value: unknown };
    expect(flatten(output?.Value)).toBe(`{Ref:${secretId()}}`);
  });
});

describe('Stripe keys access', () => {
  it('is declared for the billing, webhooks, admin and auth groups only', () => {
    expect(routeGroups.filter((group) => groupAccess[group].stripe).sort()).toEqual(STRIPE_GROUPS);
  });

  it('gives those groups and the jobs function STRIPE_SECRET_ARN and read access to that one secret', () => {
    for (const id of stripeFunctionIds()) {
      const group = id;
      const variables = propsOf(resources[id]).Environment as { Variables: Record<string, unknown> };
      expect(flatten(variables.Variables[STRIPE_SECRET_ARN]), group).toBe(`{Ref:${secretId()}}`);
      const grants = secretsGrantsOf(id);
      expect(grants, group).toContain(`secretsmanager:GetSecretValue on {Ref:${secretId()}}`);
      // Nothing beyond reading this secret.
      expect(
        grants.filter(
          (grant) =>
            grant !== `secretsmanager:GetSecretValue on {Ref:${secretId()}}` &&
            grant !== `secretsmanager:DescribeSecret on {Ref:${secretId()}}`,
        ),
        group,
      ).toEqual([]);
    }
  });

  it('gives no other function the ARN or any Secrets Manager access', () => {
    const stripeFunctions = new Set(stripeFunctionIds());
    const others = lambdaFunctions().filter(([id]) => !stripeFunctions.has(id));
    // The other route groups, the seed, the workflow tasks and CDK's own handlers.
    expect(others.length).toBeGreaterThanOrEqual(routeGroups.length - STRIPE_GROUPS.length + 1);
    for (const [id, resource] of others) {
      expect(variablesOf(resource)[STRIPE_SECRET_ARN], id).toBeUndefined();
      expect(secretsGrantsOf(id), id).toEqual([]);
    }
  });

  it('lets no role or policy other than those functions touch the secret', () => {
    const secret = `{Ref:${secretId()}}`;
    const allowedRoles = new Set(
      stripeFunctionIds().map(
        (id) => (propsOf(resources[id]).Role as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0],
      ),
    );
    for (const [id, resource] of Object.entries(resources)) {
      if (resource.Type !== 'AWS::IAM::Policy') continue;
      const mentionsSecret = JSON.stringify(resource.Properties?.PolicyDocument).includes(
        `"Ref":"${secretId()}"`,
      );
      if (!mentionsSecret) continue;
      const roles = (propsOf(resource).Roles as { Ref: string }[]).map((role) => role.Ref);
      expect(
        roles.every((role) => allowedRoles.has(role)),
        `${id} on ${secret}`,
      ).toBe(true);
    }
  });

  it('puts no Stripe key in any Lambda environment', () => {
    for (const [id, resource] of lambdaFunctions()) {
      const variables = variablesOf(resource);
      expect(variables.STRIPE_SECRET_KEY, id).toBeUndefined();
      expect(variables.STRIPE_WEBHOOK_SECRET, id).toBeUndefined();
      // Emulator only.
      expect(variables.STRIPE_API_BASE, id).toBeUndefined();
      expect(JSON.stringify(variables), id).not.toMatch(/sk_(test|live)_|rk_(test|live)_|whsec_/);
    }
  });

  it('keeps the billing and webhooks table access as the other writing groups have it', () => {
    const writes = ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:Query'];
    for (const group of STRIPE_GROUPS) {
      expect(groupAccess[group as keyof typeof groupAccess].table, group).toBe('readWrite');
      const actions = statementsOfFunction(resources, functionOf(group)).flatMap(actionsOf);
      expect(actions, group).toEqual(expect.arrayContaining(writes));
    }
    // Billing touches no bucket, Cognito or mail; only the workflow callback is added for webhooks.
    expect(functionsByEntry(resources).get('billing')).toHaveLength(1);
    const billing = statementsOfFunction(resources, functionOf('billing')).flatMap(actionsOf);
    expect(billing.filter((action) => /^(s3|cognito-idp|ses|states):/.test(action))).toEqual([]);
  });
});
