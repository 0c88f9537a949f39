import {
  AssociateSoftwareTokenCommand,
  ChangePasswordCommand,
  CognitoIdentityProviderClient,
  ConfirmDeviceCommand,
  ConfirmForgotPasswordCommand,
  DeleteUserAttributesCommand,
  DeleteUserCommand,
  ForgotPasswordCommand,
  InitiateAuthCommand,
  SetUserMFAPreferenceCommand,
  SignUpCommand,
  StartWebAuthnRegistrationCommand,
  UpdateUserAttributesCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminUser } from '../../src/domain/accounts/admin';
import {
  adminSignIn,
  adminTestPassword,
  createTestAdmin,
  removeTestAdmin,
  signedInUser,
  testPassword,
} from '../support/accounts';
import { direct } from '../support/direct';
import { Browser, cookieName, uniqueEmail } from '../support/http';
import { clientConfig } from '../support/run';

// Someone signed in holds their own tokens (they are in their cookies) and
// reads the app client id from them; then they call Cognito directly, with
// no AWS credentials, instead of through the app (decision 014). Every call
// below must be refused and leave nothing changed.

/** An attacker's Cognito client: the public endpoint and no credentials of the app's. */
const attacker = new CognitoIdentityProviderClient({
  ...clientConfig('cognito'),
  credentials: { accessKeyId: 'none', secretAccessKey: 'none' },
});
const store = direct();
let admin: AdminUser | undefined;
const adminName = `door-${Date.now().toString(36)}`;
const adminPassword = adminTestPassword();

beforeAll(async () => {
  admin = await createTestAdmin(store, adminName, adminPassword);
});
afterAll(async () => {
  await removeTestAdmin(store, admin);
  attacker.destroy();
  store.close();
});

/** The claims of a JWT, read the way anyone can read their own token. */
const claimsOf = (token: string) =>
  JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as Record<string, unknown>;

/** A signed-in browser's access token and the client id inside it. */
function stolenFromOwnCookie(browser: Browser, cookie: string) {
  const accessToken = decodeURIComponent(browser.cookies.get(cookieName(cookie)) ?? '');
  expect(accessToken).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
  const clientId = String(claimsOf(accessToken).client_id);
  expect(clientId).not.toBe('undefined');
  return { accessToken, clientId };
}

/** The Cognito error name a call ends in, or 'ok' if Cognito did it. */
const outcome = (promise: Promise<unknown>) =>
  promise.then(
    () => 'ok',
    (error: Error) => error.name,
  );

const signsIn = async (email: string, password: string) =>
  (await new Browser().post('/api/auth/login', { email, password })).status;

describe('Cognito called around the app with a user’s own token and client id', () => {
  it("refuses SignUp of someone else's address, so their real registration still works", async () => {
    const { browser } = await signedInUser();
    const { clientId } = stolenFromOwnCookie(browser, 'ts_session');
    const victim = uniqueEmail('victim');

    const signUp = await attacker
      .send(new SignUpCommand({ ClientId: clientId, Username: victim, Password: 'attacker-pass-1' }))
      .then(
        () => undefined,
        (error: Error) => error,
      );
    expect(signUp).toMatchObject({
      name: 'NotAuthorizedException',
      message: 'SignUp is not permitted for this user pool',
    });

    // No identity was made: the address registers through the app as its owner would.
    const register = await new Browser().post('/api/auth/register', {
      firstName: 'Vic',
      lastName: 'Tim',
      email: victim,
      password: testPassword,
      confirmPassword: testPassword,
    });
    expect(register.status).toBe(201);
    expect(await signsIn(victim, 'attacker-pass-1')).toBe(401);
  });

  it('refuses changing or deleting the email without the app’s proof; the account keeps its address', async () => {
    const { browser, email } = await signedInUser();
    const { accessToken } = stolenFromOwnCookie(browser, 'ts_session');
    const other = uniqueEmail('unproven');

    expect(
      await outcome(
        attacker.send(
          new UpdateUserAttributesCommand({
            AccessToken: accessToken,
            UserAttributes: [{ Name: 'email', Value: other }],
          }),
        ),
      ),
    ).toBe('NotAuthorizedException');
    // Blocked by the pools' web ACL, whatever the client's write attributes would say.
    for (const names of [['email'], ['email_verified'], ['name'], ['locale']]) {
      expect(
        await outcome(
          attacker.send(
            new DeleteUserAttributesCommand({ AccessToken: accessToken, UserAttributeNames: names }),
          ),
        ),
        names.join(),
      ).toBe('ForbiddenException');
    }

    // Nothing changed: the app still shows and signs in with the old address, never the new one.
    const me = await browser.get('/api/auth/user');
    expect(me.status).toBe(200);
    expect(me.body.email).toBe(email);
    expect(await signsIn(email, testPassword)).toBe(200);
    expect(await signsIn(other, testPassword)).toBe(401);
  });

  it("refuses password sign-in and recovery at Cognito, around the app's rate limits and reset mail", async () => {
    const { browser, email } = await signedInUser();
    const { clientId } = stolenFromOwnCookie(browser, 'ts_session');

    expect(
      await outcome(
        attacker.send(
          new InitiateAuthCommand({
            ClientId: clientId,
            AuthFlow: 'USER_PASSWORD_AUTH',
            AuthParameters: { USERNAME: email, PASSWORD: testPassword },
          }),
        ),
      ),
    ).toBe('InvalidParameterException');
    expect(
      await outcome(attacker.send(new ForgotPasswordCommand({ ClientId: clientId, Username: email }))),
    ).not.toBe('ok');
    expect(
      await outcome(
        attacker.send(
          new ConfirmForgotPasswordCommand({
            ClientId: clientId,
            Username: email,
            ConfirmationCode: '123456',
            Password: 'attacker-pass-1',
          }),
        ),
      ),
    ).not.toBe('ok');

    expect(await signsIn(email, testPassword)).toBe(200);
    expect(await signsIn(email, 'attacker-pass-1')).toBe(401);
  });

  it('refuses deleting the identity, changing the password or adding factors around the app (the pools’ web ACL)', async () => {
    const { browser, email } = await signedInUser();
    const { accessToken } = stolenFromOwnCookie(browser, 'ts_session');

    expect(
      await outcome(
        attacker.send(
          new ChangePasswordCommand({
            AccessToken: accessToken,
            PreviousPassword: testPassword,
            ProposedPassword: 'attacker-pass-1',
          }),
        ),
      ),
    ).toBe('ForbiddenException');
    expect(await outcome(attacker.send(new DeleteUserCommand({ AccessToken: accessToken })))).toBe(
      'ForbiddenException',
    );
    // Second factors, devices and passkeys the account never had stay that way (the pool's own settings refuse
    // an authenticator: below).
    for (const command of [
      new SetUserMFAPreferenceCommand({
        AccessToken: accessToken,
        SoftwareTokenMfaSettings: { Enabled: true, PreferredMfa: true },
      }),
      new ConfirmDeviceCommand({ AccessToken: accessToken, DeviceKey: 'eu-west-1_device', DeviceName: 'x' }),
      new StartWebAuthnRegistrationCommand({ AccessToken: accessToken }),
    ])
      expect(await outcome(attacker.send(command as never)), command.constructor.name).toBe(
        'ForbiddenException',
      );

    // The identity and its password are as they were: the account signs in with its own password only.
    expect(await signsIn(email, testPassword)).toBe(200);
    expect(await signsIn(email, 'attacker-pass-1')).toBe(401);
  });

  it('refuses authenticator MFA to a user’s own token: the user pool has none', async () => {
    const { browser } = await signedInUser();
    const { accessToken } = stolenFromOwnCookie(browser, 'ts_session');

    expect(
      await outcome(attacker.send(new AssociateSoftwareTokenCommand({ AccessToken: accessToken }))),
    ).toBe('SoftwareTokenMFANotFoundException');
    expect(
      await outcome(
        attacker.send(
          new SetUserMFAPreferenceCommand({
            AccessToken: accessToken,
            SoftwareTokenMfaSettings: { Enabled: true, PreferredMfa: true },
          }),
        ),
      ),
    ).toBe('ForbiddenException');
  });

  it("refuses the same to an administrator's own token and the admin client id", async () => {
    const browser = new Browser();
    expect((await adminSignIn(browser, adminName, adminPassword)).status).toBe(200);
    const { accessToken, clientId } = stolenFromOwnCookie(browser, 'ts_admin_session');

    expect(
      await outcome(
        attacker.send(
          new SignUpCommand({ ClientId: clientId, Username: `${adminName}-2`, Password: 'attacker-pass-1' }),
        ),
      ),
    ).toBe('NotAuthorizedException');
    expect(
      await outcome(
        attacker.send(
          new UpdateUserAttributesCommand({
            AccessToken: accessToken,
            UserAttributes: [{ Name: 'email', Value: uniqueEmail('admin-unproven') }],
          }),
        ),
      ),
    ).toBe('NotAuthorizedException');
    expect(
      await outcome(
        attacker.send(
          new InitiateAuthCommand({
            ClientId: clientId,
            AuthFlow: 'USER_PASSWORD_AUTH',
            AuthParameters: { USERNAME: adminName, PASSWORD: adminPassword },
          }),
        ),
      ),
    ).toBe('InvalidParameterException');
    // Nor can the token turn the second factor off, or drop it by starting a new authenticator it never verifies.
    expect(
      await outcome(
        attacker.send(
          new SetUserMFAPreferenceCommand({
            AccessToken: accessToken,
            SoftwareTokenMfaSettings: { Enabled: false, PreferredMfa: false },
          }),
        ),
      ),
    ).toBe('ForbiddenException');
    expect(
      await outcome(attacker.send(new AssociateSoftwareTokenCommand({ AccessToken: accessToken }))),
    ).toBe('ok');
    // The administrator still signs in through the app, with the authenticator set up there.
    const again = new Browser();
    expect(
      (await again.post('/api/admin/login', { username: adminName, password: adminPassword })).body,
    ).toEqual({
      secondFactor: 'code',
    });
    expect((await adminSignIn(again, adminName, adminPassword)).status).toBe(200);
  });
});
