import { describe, expect, it } from 'vitest';
import { type ClientSettings, isGuarded, type PoolSettings, refusalOf } from './cognito-side-doors';

// The settings infra/lib/auth.ts and local/src/provision.ts give both pools and clients.
const ourPool: PoolSettings = {
  AdminCreateUserConfig: { AllowAdminCreateUserOnly: true },
  AccountRecoverySetting: { RecoveryMechanisms: [{ Name: 'admin_only' }] },
};
const ourClient: ClientSettings = {
  ExplicitAuthFlows: ['ALLOW_ADMIN_USER_PASSWORD_AUTH', 'ALLOW_REFRESH_TOKEN_AUTH'],
  WriteAttributes: ['locale'],
};
// Cognito's defaults: self sign-up, recovery by email, every flow's default, every attribute writable.
const openPool: PoolSettings = {
  AdminCreateUserConfig: { AllowAdminCreateUserOnly: false },
  AccountRecoverySetting: { RecoveryMechanisms: [{ Name: 'verified_email' }] },
};
const openClient: ClientSettings = {};

const signUp = { ClientId: 'c', Username: 'victim@example.com', Password: 'password-1' };
const auth = (AuthFlow: string) => ({ ClientId: 'c', AuthFlow, AuthParameters: {} });
const update = (...names: string[]) => ({
  AccessToken: 't',
  UserAttributes: names.map((Name) => ({ Name, Value: 'x' })),
});

describe('refusalOf: what Cognito refuses to a client id or a user token', () => {
  it('refuses SignUp in an admin-create-only pool with Cognito’s error, and allows it otherwise', () => {
    expect(refusalOf('SignUp', signUp, ourPool, ourClient)).toEqual({
      type: 'NotAuthorizedException',
      message: 'SignUp is not permitted for this user pool',
    });
    expect(refusalOf('SignUp', signUp, openPool, openClient)).toBeUndefined();
  });

  it('allows only the auth flows the client names: admin password sign-in and refresh', () => {
    expect(refusalOf('InitiateAuth', auth('USER_PASSWORD_AUTH'), ourPool, ourClient)).toEqual({
      type: 'InvalidParameterException',
      message: 'USER_PASSWORD_AUTH flow not enabled for this client',
    });
    expect(refusalOf('InitiateAuth', auth('USER_SRP_AUTH'), ourPool, ourClient)).toMatchObject({
      message: 'USER_SRP_AUTH flow not enabled for this client',
    });
    expect(refusalOf('InitiateAuth', auth('CUSTOM_AUTH'), ourPool, ourClient)).toMatchObject({
      type: 'InvalidParameterException',
    });
    expect(refusalOf('InitiateAuth', auth('REFRESH_TOKEN_AUTH'), ourPool, ourClient)).toBeUndefined();
    expect(
      refusalOf('AdminInitiateAuth', auth('ADMIN_USER_PASSWORD_AUTH'), ourPool, ourClient),
    ).toBeUndefined();
    expect(refusalOf('AdminInitiateAuth', auth('REFRESH_TOKEN_AUTH'), ourPool, ourClient)).toBeUndefined();
    // The admin flow is not an InitiateAuth flow at all.
    expect(refusalOf('InitiateAuth', auth('ADMIN_USER_PASSWORD_AUTH'), ourPool, ourClient)).toMatchObject({
      type: 'InvalidParameterException',
    });
  });

  it("uses Cognito's default flows for a client that names none", () => {
    expect(refusalOf('InitiateAuth', auth('USER_SRP_AUTH'), openPool, openClient)).toBeUndefined();
    expect(refusalOf('InitiateAuth', auth('USER_PASSWORD_AUTH'), openPool, openClient)).toMatchObject({
      type: 'InvalidParameterException',
    });
    expect(
      refusalOf('InitiateAuth', auth('USER_PASSWORD_AUTH'), openPool, {
        ExplicitAuthFlows: ['ALLOW_USER_PASSWORD_AUTH'],
      }),
    ).toBeUndefined();
  });

  it('refuses ForgotPassword when recovery is admin-only', () => {
    const input = { ClientId: 'c', Username: 'someone@example.com' };
    expect(refusalOf('ForgotPassword', input, ourPool, ourClient)).toMatchObject({
      type: 'NotAuthorizedException',
    });
    expect(refusalOf('ForgotPassword', input, openPool, openClient)).toBeUndefined();
  });

  it('refuses writing an attribute the client may not write, such as email', () => {
    expect(refusalOf('UpdateUserAttributes', update('email'), ourPool, ourClient)).toEqual({
      type: 'NotAuthorizedException',
      message: 'A client attempted to write unauthorized attribute',
    });
    // One unauthorized attribute spoils the whole call.
    expect(refusalOf('UpdateUserAttributes', update('locale', 'name'), ourPool, ourClient)).toMatchObject({
      type: 'NotAuthorizedException',
    });
    expect(refusalOf('UpdateUserAttributes', update('locale'), ourPool, ourClient)).toBeUndefined();
    // A client with no list may write every standard attribute.
    expect(refusalOf('UpdateUserAttributes', update('email'), openPool, openClient)).toBeUndefined();
    expect(
      refusalOf('UpdateUserAttributes', update('email'), openPool, { WriteAttributes: [] }),
    ).toBeUndefined();
  });

  it('guards only the calls whose answer depends on these settings', () => {
    for (const operation of ['SignUp', 'InitiateAuth', 'UpdateUserAttributes', 'ForgotPassword'])
      expect(isGuarded(operation)).toBe(true);
    for (const operation of ['AdminCreateUser', 'AdminUpdateUserAttributes', 'RevokeToken', 'GetUser'])
      expect(isGuarded(operation)).toBe(false);
  });
});
