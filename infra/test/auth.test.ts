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
  });

  it('asks for 12 characters, without composition rules', () => {
    expect(poolProps('adminPool').Policies).toEqual({
      PasswordPolicy: {
        MinimumLength: 12,
        RequireLowercase: false,
        RequireUppercase: false,
        RequireNumbers: false,
        RequireSymbols: false,
      },
    });
  });

  it("requires a second factor on every sign-in, an authenticator's code only (no SMS)", () => {
    const pool = poolProps('adminPool');
    expect(pool.MfaConfiguration).toBe('ON');
    expect(pool.EnabledMfas).toEqual(['SOFTWARE_TOKEN_MFA']);
    expect(pool.SmsConfiguration).toBeUndefined();
  });

  it('gives a sign-in 10 minutes between the password and the code (setting an authenticator up)', () => {
    expect(clientProps('adminPool').AuthSessionValidity).toBe(10);
  });
});

describe('user pool MFA', () => {
  it('is off: users have no second factor', () => {
    const pool = poolProps('userPool');
    expect(pool.MfaConfiguration).toBe('OFF');
    expect(pool.EnabledMfas).toBeUndefined();
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

  it('blocks DeleteUser, DeleteUserAttributes and the other user APIs the app never calls, by the operation name Cognito passes on, in any case', () => {
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
    const byHeader = new Map<string, string[]>();
    for (const match of matches) {
      expect(match.PositionalConstraint).toBe('EXACTLY');
      // Lowercased before it is compared, against a lowercase name: no spelling of the name gets past.
      expect(match.TextTransformations).toEqual([{ Priority: 0, Type: 'LOWERCASE' }]);
      const searched = String(match.SearchString);
      expect(searched).toBe(searched.toLowerCase());
      const header = (match.FieldToMatch as { SingleHeader: { Name: string } }).SingleHeader.Name;
      byHeader.set(header, [...(byHeader.get(header) ?? []), searched]);
    }
    const lower = [...blockedCognitoOperations].map((operation) => operation.toLowerCase()).sort();
    // What Cognito documents it passes to the web ACL: the operation's name.
    expect([...(byHeader.get('x-amzn-cognito-operation-name') ?? [])].sort()).toEqual(lower);
    // And the caller's own X-Amz-Target, in case Cognito passes that on too.
    expect(
      [...(byHeader.get('x-amz-target') ?? [])]
        .map((t) => t.replace('awscognitoidentityproviderservice.', ''))
        .sort(),
    ).toEqual(lower);
    expect([...byHeader.keys()].sort()).toEqual(['x-amz-target', 'x-amzn-cognito-operation-name']);
    // An exact string match costs 2 WCUs and each transformation 10; past 1,500 a web ACL costs more.
    expect(matches.length * (2 + 10)).toBeLessThanOrEqual(1500);

    expect(blockedCognitoOperations).toEqual(
      expect.arrayContaining([
        'DeleteUser',
        'DeleteUserAttributes',
        'ChangePassword',
        'SetUserMFAPreference',
      ]),
    );
    // The local Cognito proxy answers the same calls as blocked.
    expect([...webAclBlocked].sort()).toEqual([...blockedCognitoOperations].sort());
    // What the app itself calls with a client id, a token or a sign-in's session stays open; the settings refuse
    // SignUp and the rest (the user pool's MFA is off, so it refuses the authenticator calls too).
    for (const used of [
      'InitiateAuth',
      'RevokeToken',
      'AdminInitiateAuth',
      'SignUp',
      'UpdateUserAttributes',
      'AssociateSoftwareToken',
      'VerifySoftwareToken',
    ])
      expect(blockedCognitoOperations as readonly string[]).not.toContain(used);
  });
});
