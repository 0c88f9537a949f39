import { describe, expect, it } from 'vitest';
import { webAclBlocked } from '../../local/src/cognito-side-doors';
import { blockedCognitoOperations } from '../lib/auth';
import { flatten, logicalId, synthBeforeAll } from './helpers';

const synthesized = synthBeforeAll();
const { resources } = synthesized;

const poolProps = (which: 'userPool' | 'adminPool') => {
  const { stack } = synthesized;
  return resources[logicalId(stack, stack.auth[which].node.defaultChild)]?.Properties ?? {};
};

const clientProps = (which: 'userPool' | 'adminPool') => {
  const { stack } = synthesized;
  const pool = logicalId(stack, stack.auth[which].node.defaultChild);
  const clients = Object.values(resources).filter(
    (r) => r.Type === 'AWS::Cognito::UserPoolClient' && flatten(r.Properties?.UserPoolId) === `{Ref:${pool}}`,
  );
  expect(clients).toHaveLength(1);
  return clients[0]?.Properties ?? {};
};

describe('user pool', () => {
  it('signs in by email, refuses Cognito SignUp (the API creates identities), no Cognito-side verification or recovery', () => {
    const pool = poolProps('userPool');
    expect(pool.UsernameAttributes).toEqual(['email']);
    expect(pool.AdminCreateUserConfig).toMatchObject({ AllowAdminCreateUserOnly: true });
    expect(pool.AutoVerifiedAttributes ?? []).toEqual([]);
    expect(pool.AccountRecoverySetting).toEqual({
      RecoveryMechanisms: [{ Name: 'admin_only', Priority: 1 }],
    });
    expect(pool.UsernameConfiguration).toEqual({ CaseSensitive: false });
    expect(pool.DeletionProtection).toBe('ACTIVE');
  });

  it('asks only for 8 characters, without composition rules', () => {
    expect(poolProps('userPool').Policies).toMatchObject({
      PasswordPolicy: {
        MinimumLength: 8,
        RequireLowercase: false,
        RequireUppercase: false,
        RequireNumbers: false,
        RequireSymbols: false,
      },
    });
  });
});

describe('admin pool', () => {
  it('signs in by username, without self sign-up', () => {
    const pool = poolProps('adminPool');
    expect(pool.UsernameAttributes).toBeUndefined();
    expect(pool.AliasAttributes).toBeUndefined();
    expect(pool.AdminCreateUserConfig).toMatchObject({ AllowAdminCreateUserOnly: true });
    expect(pool.Policies).toMatchObject({
      PasswordPolicy: {
        MinimumLength: 6,
        RequireUppercase: false,
        RequireNumbers: false,
        RequireSymbols: false,
      },
    });
  });
});

describe.each(['userPool', 'adminPool'] as const)('%s client', (which) => {
  it('is a server-side client: ADMIN_USER_PASSWORD_AUTH and refresh only, no secret, no OAuth', () => {
    const client = clientProps(which);
    // No USER_PASSWORD_AUTH or SRP: passwords are checked only by the API's admin call, behind its rate limits.
    expect((client.ExplicitAuthFlows as string[]).sort()).toEqual([
      'ALLOW_ADMIN_USER_PASSWORD_AUTH',
      'ALLOW_REFRESH_TOKEN_AUTH',
    ]);
    expect(client.GenerateSecret).toBe(false);
    expect(client.AllowedOAuthFlowsUserPoolClient).toBe(false);
    expect(client.AllowedOAuthFlows).toBeUndefined();
  });

  it("lets a user's own token write and read no attribute the app relies on", () => {
    const client = clientProps(which);
    // Unset or empty lists mean every standard attribute to Cognito, so each must be present and non-empty.
    for (const list of [client.WriteAttributes, client.ReadAttributes]) {
      expect(list).toEqual(['locale']);
    }
  });

  it('hides whether a user exists and can revoke tokens', () => {
    const client = clientProps(which);
    expect(client.PreventUserExistenceErrors).toBe('ENABLED');
    expect(client.EnableTokenRevocation).toBe(true);
  });

  it('issues 15-minute access tokens and 30-day refresh tokens', () => {
    const client = clientProps(which);
    expect(client.AccessTokenValidity).toBe(15);
    expect(client.RefreshTokenValidity).toBe(30 * 24 * 60);
    expect(client.TokenValidityUnits).toMatchObject({ AccessToken: 'minutes', RefreshToken: 'minutes' });
  });
});

describe('the pools’ web ACL', () => {
  const webAcls = () => Object.entries(resources).filter(([, r]) => r.Type === 'AWS::WAFv2::WebACL');

  it('is associated with both pools', () => {
    const { stack } = synthesized;
    const [[aclId] = ['']] = webAcls().filter(([, r]) => r.Properties?.Scope === 'REGIONAL');
    const associated = Object.values(resources)
      .filter(
        (r) =>
          r.Type === 'AWS::WAFv2::WebACLAssociation' && flatten(r.Properties?.WebACLArn) === `{${aclId}.Arn}`,
      )
      .map((r) => flatten(r.Properties?.ResourceArn))
      .sort();
    expect(associated).toEqual(
      [
        `{${logicalId(stack, stack.auth.userPool.node.defaultChild)}.Arn}`,
        `{${logicalId(stack, stack.auth.adminPool.node.defaultChild)}.Arn}`,
      ].sort(),
    );
  });

  it("blocks DeleteUser and the other user APIs the app never calls, by the call's X-Amz-Target, and allows the rest", () => {
    const [[, acl] = ['', undefined]] = webAcls().filter(([, r]) => r.Properties?.Scope === 'REGIONAL');
    const props = acl?.Properties ?? {};
    expect(props.DefaultAction).toEqual({ Allow: {} });
    const rules = props.Rules as {
      Action: unknown;
      Statement: { OrStatement: { Statements: { ByteMatchStatement: Record<string, unknown> }[] } };
    }[];
    expect(rules).toHaveLength(1);
    expect(rules[0]?.Action).toEqual({ Block: {} });
    const matches = rules[0]?.Statement.OrStatement.Statements.map((s) => s.ByteMatchStatement) ?? [];
    for (const match of matches) {
      expect(match.FieldToMatch).toEqual({ SingleHeader: { Name: 'x-amz-target' } });
      expect(match.PositionalConstraint).toBe('EXACTLY');
    }
    const blocked = matches.map((m) =>
      String(m.SearchString).replace('AWSCognitoIdentityProviderService.', ''),
    );
    expect(blocked.sort()).toEqual([...blockedCognitoOperations].sort());
    expect(blocked).toEqual(expect.arrayContaining(['DeleteUser', 'ChangePassword']));
    // The local Cognito proxy answers the same calls as blocked.
    expect([...webAclBlocked].sort()).toEqual(blocked.sort());
    // What the app itself calls with a client id or a token stays open; the settings refuse SignUp and the rest.
    for (const used of ['InitiateAuth', 'RevokeToken', 'AdminInitiateAuth', 'SignUp', 'UpdateUserAttributes'])
      expect(blocked).not.toContain(used);
  });
});
