import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  AdminCreateUserCommand,
  AdminDeleteUserCommand,
  AdminGetUserCommand,
  AdminInitiateAuthCommand,
  AdminRespondToAuthChallengeCommand,
  AdminSetUserMFAPreferenceCommand,
  AdminSetUserPasswordCommand,
  AdminUpdateUserAttributesCommand,
  AdminUserGlobalSignOutCommand,
  AssociateSoftwareTokenCommand,
  CognitoIdentityProviderClient,
  GlobalSignOutCommand,
  InitiateAuthCommand,
  RevokeTokenCommand,
  SignUpCommand,
  UpdateUserAttributesCommand,
  VerifySoftwareTokenCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { cognitoIdentityProvider } from '@tunesmith/functions/adapters/cognito/identity-provider';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authenticatorCode } from '../../functions/test/support/authenticator';
import { authenticatorCodeAt } from '../src/cognito-mfa';
import { jwtPayload } from '../src/cognito-proxy';
import { type Emulator, startCognito } from '../src/emulators';
import { ensurePools } from '../src/provision';

// cognito-local behind the proxy, as the local cloud runs it: the Cognito
// calls the account adapters make, for both pools, including the global
// sign-out and the admin pool's authenticator MFA cognito-local lacks, and a
// restart in between.

const dir = mkdtempSync(path.join(os.tmpdir(), 'tunesmith-cognito-'));
let cognito: Emulator;
let client: CognitoIdentityProviderClient;
let pools: Awaited<ReturnType<typeof ensurePools>>;

const connect = (endpoint: string) =>
  new CognitoIdentityProviderClient({
    region: 'us-east-1',
    endpoint,
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });

async function start(): Promise<void> {
  cognito = await startCognito({ port: 0, dir, logDir: dir });
  client = connect(cognito.endpoint);
}

async function restart(): Promise<void> {
  client.destroy();
  await cognito.stop();
  await start();
}

beforeAll(async () => {
  await start();
  pools = await ensurePools(client, undefined);
});

afterAll(async () => {
  client?.destroy();
  await cognito?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const which = {
  users: () => ({ poolId: pools.userPoolId, clientId: pools.userPoolClientId }),
  admins: () => ({ poolId: pools.adminPoolId, clientId: pools.adminPoolClientId }),
};

let counter = 0;
/** Creates a confirmed identity the way the adapters do; returns its sign-in name and admin-API name (the sub for users). */
async function createIdentity(kind: keyof typeof which, password = 'long-password-1') {
  counter++;
  const { poolId } = which[kind]();
  const signInName = kind === 'users' ? `user-${counter}-${Date.now()}@example.com` : `admin-${counter}`;
  const created = await client.send(
    new AdminCreateUserCommand({
      UserPoolId: poolId,
      Username: signInName,
      MessageAction: 'SUPPRESS',
      UserAttributes:
        kind === 'users'
          ? [
              { Name: 'email', Value: signInName },
              { Name: 'email_verified', Value: 'false' },
            ]
          : [],
    }),
  );
  const sub = created.User?.Attributes?.find((a) => a.Name === 'sub')?.Value as string;
  const username = created.User?.Username as string;
  // User pool: the username is the sub (email is the sign-in attribute); admin pool: the name given.
  expect(username).toBe(kind === 'users' ? sub : signInName);
  await client.send(
    new AdminSetUserPasswordCommand({
      UserPoolId: poolId,
      Username: username,
      Password: password,
      Permanent: true,
    }),
  );
  return { signInName, username, sub, password };
}

/** The authenticator key each admin set up, by sign-in name (the admin pool asks for one). */
const authenticators = new Map<string, string>();

const passwordStep = (kind: keyof typeof which, name: string, password: string) =>
  client.send(
    new AdminInitiateAuthCommand({
      UserPoolId: which[kind]().poolId,
      ClientId: which[kind]().clientId,
      AuthFlow: 'ADMIN_USER_PASSWORD_AUTH',
      AuthParameters: { USERNAME: name, PASSWORD: password },
    }),
  );

const respond = (
  challenge: 'MFA_SETUP' | 'SOFTWARE_TOKEN_MFA',
  session: string,
  responses: Record<string, string>,
) =>
  client.send(
    new AdminRespondToAuthChallengeCommand({
      UserPoolId: pools.adminPoolId,
      ClientId: pools.adminPoolClientId,
      ChallengeName: challenge,
      Session: session,
      ChallengeResponses: responses,
    }),
  );

/** Signs in as the API does; in the admin pool with the authenticator (set up on the first sign-in). */
async function signIn(kind: keyof typeof which, name: string, password: string) {
  let out = await passwordStep(kind, name, password);
  if (out.ChallengeName === 'MFA_SETUP') {
    const associated = await client.send(new AssociateSoftwareTokenCommand({ Session: out.Session }));
    const secret = associated.SecretCode as string;
    const verified = await client.send(
      new VerifySoftwareTokenCommand({
        Session: associated.Session,
        UserCode: await authenticatorCode(secret),
      }),
    );
    authenticators.set(name, secret);
    out = await respond('MFA_SETUP', verified.Session as string, { USERNAME: name });
  } else if (out.ChallengeName === 'SOFTWARE_TOKEN_MFA') {
    const code = await authenticatorCode(authenticators.get(name) as string);
    out = await respond('SOFTWARE_TOKEN_MFA', out.Session as string, {
      USERNAME: name,
      SOFTWARE_TOKEN_MFA_CODE: code,
    });
  }
  const result = out.AuthenticationResult;
  if (!result?.AccessToken || !result.RefreshToken) throw new Error('no tokens');
  return { accessToken: result.AccessToken, refreshToken: result.RefreshToken };
}

/** The error name of REFRESH_TOKEN_AUTH with this token, or 'ok'. */
const refresh = (kind: keyof typeof which, refreshToken: string) =>
  client
    .send(
      new InitiateAuthCommand({
        ClientId: which[kind]().clientId,
        AuthFlow: 'REFRESH_TOKEN_AUTH',
        AuthParameters: { REFRESH_TOKEN: refreshToken },
      }),
    )
    .then(
      (out) => (out.AuthenticationResult?.AccessToken ? 'ok' : 'no token'),
      (error: Error) => error.name,
    );

describe.each(['users', 'admins'] as const)('Cognito through the proxy: %s pool', (kind) => {
  it('issues tokens whose issuer is <endpoint>/<pool>, verifiable with the JWKS there, and short-lived', async () => {
    const who = await createIdentity(kind);
    const tokens = await signIn(kind, who.signInName, who.password);
    const claims = jwtPayload(tokens.accessToken) ?? {};
    const { poolId, clientId } = which[kind]();
    expect(claims.iss).toBe(`${cognito.endpoint}/${poolId}`);
    expect(Number(claims.exp) - Number(claims.iat)).toBe(15 * 60);

    // What the handlers do: the adapter verifies with issuer `${COGNITO_ENDPOINT}/${poolId}`.
    const identity = cognitoIdentityProvider({
      client,
      userPoolId: poolId,
      clientId,
      issuer: `${cognito.endpoint}/${poolId}`,
    });
    expect(await identity.verifyAccessToken(tokens.accessToken)).toEqual({
      subject: who.sub,
      username: who.username,
      issuedAt: claims.iat,
      expiresAt: claims.exp,
    });
    const discovery = (await (
      await fetch(`${cognito.endpoint}/${poolId}/.well-known/openid-configuration`)
    ).json()) as {
      issuer: string;
      jwks_uri: string;
    };
    expect(discovery).toMatchObject({
      issuer: `${cognito.endpoint}/${poolId}`,
      jwks_uri: `${cognito.endpoint}/${poolId}/.well-known/jwks.json`,
    });
  });

  it('refreshes, revokes one token, updates attributes and deletes', async () => {
    const who = await createIdentity(kind);
    const first = await signIn(kind, who.signInName, who.password);
    const second = await signIn(kind, who.signInName, who.password);
    expect(await refresh(kind, first.refreshToken)).toBe('ok');

    await client.send(
      new RevokeTokenCommand({ ClientId: which[kind]().clientId, Token: first.refreshToken }),
    );
    expect(await refresh(kind, first.refreshToken)).toBe('NotAuthorizedException');
    expect(await refresh(kind, second.refreshToken)).toBe('ok');

    const { poolId } = which[kind]();
    const email = `changed-${counter}-${Date.now()}@example.com`;
    await client.send(
      new AdminUpdateUserAttributesCommand({
        UserPoolId: poolId,
        Username: who.username,
        UserAttributes: [
          { Name: 'email', Value: email },
          { Name: 'email_verified', Value: 'true' },
        ],
      }),
    );
    const user = await client.send(new AdminGetUserCommand({ UserPoolId: poolId, Username: who.username }));
    expect(user.UserAttributes).toEqual(
      expect.arrayContaining([
        { Name: 'email', Value: email },
        { Name: 'email_verified', Value: 'true' },
      ]),
    );

    await client.send(new AdminDeleteUserCommand({ UserPoolId: poolId, Username: who.username }));
    await expect(
      client.send(new AdminGetUserCommand({ UserPoolId: poolId, Username: who.username })),
    ).rejects.toMatchObject({ name: 'UserNotFoundException' });
  });

  it('AdminUserGlobalSignOut revokes every refresh token of the identity, and only of that identity', async () => {
    const who = await createIdentity(kind);
    const other = await createIdentity(kind);
    const sessions = [
      await signIn(kind, who.signInName, who.password),
      await signIn(kind, who.signInName, who.password),
    ];
    const bystander = await signIn(kind, other.signInName, other.password);

    const out = await client.send(
      new AdminUserGlobalSignOutCommand({ UserPoolId: which[kind]().poolId, Username: who.username }),
    );

    expect(out.$metadata.httpStatusCode).toBe(200);
    for (const session of sessions)
      expect(await refresh(kind, session.refreshToken)).toBe('NotAuthorizedException');
    expect(await refresh(kind, bystander.refreshToken)).toBe('ok');
    // A new sign-in works again.
    const again = await signIn(kind, who.signInName, who.password);
    expect(await refresh(kind, again.refreshToken)).toBe('ok');
  });

  it('GlobalSignOut with an access token does the same for its owner', async () => {
    const who = await createIdentity(kind);
    const a = await signIn(kind, who.signInName, who.password);
    const b = await signIn(kind, who.signInName, who.password);

    await client.send(new GlobalSignOutCommand({ AccessToken: a.accessToken }));

    expect(await refresh(kind, a.refreshToken)).toBe('NotAuthorizedException');
    expect(await refresh(kind, b.refreshToken)).toBe('NotAuthorizedException');
    const forged = `${a.accessToken.slice(0, a.accessToken.lastIndexOf('.'))}.${'A'.repeat(342)}`;
    await expect(client.send(new GlobalSignOutCommand({ AccessToken: forged }))).rejects.toMatchObject({
      name: 'NotAuthorizedException',
    });
  });
});

describe('Cognito through the proxy: as on AWS', () => {
  it('answers a wrong password with NotAuthorizedException and an unknown user for global sign-out with UserNotFoundException', async () => {
    const who = await createIdentity('admins');
    await expect(signIn('admins', who.signInName, 'wrong-password')).rejects.toMatchObject({
      name: 'NotAuthorizedException',
      message: 'Incorrect username or password.',
    });
    await expect(
      client.send(
        new AdminUserGlobalSignOutCommand({ UserPoolId: pools.adminPoolId, Username: 'nobody-here' }),
      ),
    ).rejects.toMatchObject({ name: 'UserNotFoundException' });
  });

  it("enforces each pool's minimum password length (users 8, admins 12)", async () => {
    const user = await createIdentity('users');
    const admin = await createIdentity('admins');
    const set = (poolId: string, username: string, password: string) =>
      client
        .send(
          new AdminSetUserPasswordCommand({
            UserPoolId: poolId,
            Username: username,
            Password: password,
            Permanent: true,
          }),
        )
        .then(
          () => 'ok',
          (error: Error) => error.name,
        );
    expect(await set(pools.userPoolId, user.username, '1234567')).toBe('InvalidPasswordException');
    expect(await set(pools.userPoolId, user.username, '12345678')).toBe('ok');
    expect(await set(pools.adminPoolId, admin.username, '12345678901')).toBe('InvalidPasswordException');
    expect(await set(pools.adminPoolId, admin.username, '123456789012')).toBe('ok');
  });

  it('keeps concurrent changes readable across a restart (cognito-local rewrites whole files)', async () => {
    const names = Array.from({ length: 12 }, (_, i) => `concurrent-${i}-${Date.now()}`);
    await Promise.all(
      names.map((name) =>
        client.send(
          new AdminCreateUserCommand({
            UserPoolId: pools.adminPoolId,
            Username: name,
            MessageAction: 'SUPPRESS',
          }),
        ),
      ),
    );

    await restart();

    for (const name of names) {
      const user = await client.send(
        new AdminGetUserCommand({ UserPoolId: pools.adminPoolId, Username: name }),
      );
      expect(user.Username).toBe(name);
    }
  });

  it('still signs everyone out after a restart (issued tokens are kept in the data directory)', async () => {
    const user = await createIdentity('users');
    const admin = await createIdentity('admins');
    const userSession = await signIn('users', user.signInName, user.password);
    const adminSession = await signIn('admins', admin.signInName, admin.password);

    await restart();
    expect(await refresh('users', userSession.refreshToken)).toBe('ok');
    await client.send(
      new AdminUserGlobalSignOutCommand({ UserPoolId: pools.userPoolId, Username: user.username }),
    );
    await client.send(
      new AdminUserGlobalSignOutCommand({ UserPoolId: pools.adminPoolId, Username: admin.username }),
    );

    expect(await refresh('users', userSession.refreshToken)).toBe('NotAuthorizedException');
    expect(await refresh('admins', adminSession.refreshToken)).toBe('NotAuthorizedException');
  });
});

describe.each(['users', 'admins'] as const)(
  'Cognito through the proxy: the %s pool refuses what AWS refuses',
  (kind) => {
    const outcome = (promise: Promise<unknown>) =>
      promise.then(
        () => 'ok',
        (error: Error) => `${error.name}: ${error.message}`,
      );

    it('refuses SignUp with the client id and creates nobody', async () => {
      const email = `side-door-${kind}-${Date.now()}@example.com`;
      expect(
        await outcome(
          client.send(
            new SignUpCommand({ ClientId: which[kind]().clientId, Username: email, Password: 'password-1' }),
          ),
        ),
      ).toBe('NotAuthorizedException: SignUp is not permitted for this user pool');
      await expect(
        client.send(new AdminGetUserCommand({ UserPoolId: which[kind]().poolId, Username: email })),
      ).rejects.toMatchObject({ name: 'UserNotFoundException' });
    });

    it('refuses password sign-in without admin credentials (USER_PASSWORD_AUTH)', async () => {
      const who = await createIdentity(kind);
      expect(
        await outcome(
          client.send(
            new InitiateAuthCommand({
              ClientId: which[kind]().clientId,
              AuthFlow: 'USER_PASSWORD_AUTH',
              AuthParameters: { USERNAME: who.signInName, PASSWORD: who.password },
            }),
          ),
        ),
      ).toBe('InvalidParameterException: USER_PASSWORD_AUTH flow not enabled for this client');
    });

    it("blocks the web ACL's calls whatever the target's prefix or case, and the identity stays", async () => {
      const who = await createIdentity(kind);
      const { accessToken } = await signIn(kind, who.signInName, who.password);
      for (const target of [
        'AWSCognitoIdentityProviderService.DeleteUser',
        'awscognitoidentityproviderservice.deleteuser',
        'Anything.DeleteUser',
        'AWSCognitoIdentityProviderService.DeleteUserAttributes',
      ]) {
        const answer = await fetch(cognito.endpoint, {
          method: 'POST',
          headers: { 'content-type': 'application/x-amz-json-1.1', 'x-amz-target': target },
          body: JSON.stringify({ AccessToken: accessToken, UserAttributeNames: ['locale'] }),
        });
        expect([answer.status, await answer.json()], target).toEqual([
          400,
          { __type: 'ForbiddenException', message: 'Request not allowed due to WAF block.' },
        ]);
      }
      const user = await client.send(
        new AdminGetUserCommand({ UserPoolId: which[kind]().poolId, Username: who.username }),
      );
      expect(user.Username).toBe(who.username);
    });

    it("refuses a user's own token writing email, and lets it write only locale", async () => {
      const who = await createIdentity(kind);
      const { accessToken } = await signIn(kind, who.signInName, who.password);
      expect(
        await outcome(
          client.send(
            new UpdateUserAttributesCommand({
              AccessToken: accessToken,
              UserAttributes: [{ Name: 'email', Value: `taken-${Date.now()}@example.com` }],
            }),
          ),
        ),
      ).toBe('NotAuthorizedException: A client attempted to write unauthorized attribute');
      await client.send(
        new UpdateUserAttributesCommand({
          AccessToken: accessToken,
          UserAttributes: [{ Name: 'locale', Value: 'en' }],
        }),
      );
      const user = await client.send(
        new AdminGetUserCommand({ UserPoolId: which[kind]().poolId, Username: who.username }),
      );
      const email = user.UserAttributes?.find((a) => a.Name === 'email')?.Value;
      expect(email).toBe(kind === 'users' ? who.signInName : undefined);
      expect(user.UserAttributes).toContainEqual({ Name: 'locale', Value: 'en' });
    });
  },
);

describe('Cognito through the proxy: the admin pool asks for an authenticator, as on AWS', () => {
  const outcome = (promise: Promise<unknown>) =>
    promise.then(
      () => 'ok',
      (error: Error) => `${error.name}: ${error.message}`,
    );

  it('sets one up at the first sign-in (MFA_SETUP), then asks for its code (SOFTWARE_TOKEN_MFA)', async () => {
    const who = await createIdentity('admins');
    const first = await passwordStep('admins', who.signInName, who.password);
    expect(first.AuthenticationResult).toBeUndefined();
    expect(first.ChallengeName).toBe('MFA_SETUP');
    expect(first.ChallengeParameters).toEqual({
      MFAS_CAN_SETUP: '["SOFTWARE_TOKEN_MFA"]',
      USER_ID_FOR_SRP: who.username,
    });
    // Nothing answers for the sign-in yet.
    expect(await outcome(respond('MFA_SETUP', first.Session as string, { USERNAME: who.signInName }))).toBe(
      'InvalidParameterException: The software token has not been verified.',
    );

    const associated = await client.send(new AssociateSoftwareTokenCommand({ Session: first.Session }));
    const secret = associated.SecretCode as string;
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(associated.Session).not.toBe(first.Session);
    expect(
      await outcome(
        client.send(new VerifySoftwareTokenCommand({ Session: associated.Session, UserCode: '000000' })),
      ),
    ).toBe('EnableSoftwareTokenMFAException: Code mismatch and fail enable Software Token MFA');
    const verified = await client.send(
      new VerifySoftwareTokenCommand({
        Session: associated.Session,
        UserCode: await authenticatorCode(secret),
      }),
    );
    expect(verified.Status).toBe('SUCCESS');
    await client.send(
      new AdminSetUserMFAPreferenceCommand({
        UserPoolId: pools.adminPoolId,
        Username: who.username,
        SoftwareTokenMfaSettings: { Enabled: true, PreferredMfa: true },
      }),
    );
    const done = await respond('MFA_SETUP', verified.Session as string, { USERNAME: who.signInName });
    const tokens = done.AuthenticationResult;
    expect(jwtPayload(tokens?.AccessToken)).toMatchObject({ username: who.username });
    expect(await refresh('admins', tokens?.RefreshToken as string)).toBe('ok');
    // A session is spent once answered.
    expect(
      await outcome(respond('MFA_SETUP', verified.Session as string, { USERNAME: who.signInName })),
    ).toBe('NotAuthorizedException: Invalid session for the user.');
    const user = await client.send(
      new AdminGetUserCommand({ UserPoolId: pools.adminPoolId, Username: who.username }),
    );
    expect(user.UserMFASettingList).toEqual(['SOFTWARE_TOKEN_MFA']);
    expect(user.PreferredMfaSetting).toBe('SOFTWARE_TOKEN_MFA');

    const next = await passwordStep('admins', who.signInName, who.password);
    expect(next.ChallengeName).toBe('SOFTWARE_TOKEN_MFA');
    expect(next.ChallengeParameters).toEqual({ USER_ID_FOR_SRP: who.username });
    const wrong = respond('SOFTWARE_TOKEN_MFA', next.Session as string, {
      USERNAME: who.signInName,
      SOFTWARE_TOKEN_MFA_CODE: authenticatorCodeAt(secret, Date.now() - 5 * 60_000),
    });
    expect(await outcome(wrong)).toBe('CodeMismatchException: Invalid code received for user');
    // The challenge stands after a wrong code; the right one finishes it.
    const code = await authenticatorCode(secret);
    const signedIn = await respond('SOFTWARE_TOKEN_MFA', next.Session as string, {
      USERNAME: who.signInName,
      SOFTWARE_TOKEN_MFA_CODE: code,
    });
    expect(await refresh('admins', signedIn.AuthenticationResult?.RefreshToken as string)).toBe('ok');
    // Each code is taken once, as Cognito takes it.
    const again = await passwordStep('admins', who.signInName, who.password);
    expect(
      await outcome(
        respond('SOFTWARE_TOKEN_MFA', again.Session as string, {
          USERNAME: who.signInName,
          SOFTWARE_TOKEN_MFA_CODE: code,
        }),
      ),
    ).toBe('ExpiredCodeException: Your software token has already been used once.');
    // A wrong password is still refused before any challenge.
    expect(await outcome(passwordStep('admins', who.signInName, 'not-the-password'))).toBe(
      'NotAuthorizedException: Incorrect username or password.',
    );
  });

  it('keeps the key across a restart, and a deleted identity made anew sets one up again', async () => {
    const who = await createIdentity('admins');
    await signIn('admins', who.signInName, who.password);

    await restart();
    const after = await passwordStep('admins', who.signInName, who.password);
    expect(after.ChallengeName).toBe('SOFTWARE_TOKEN_MFA');
    const signedIn = await respond('SOFTWARE_TOKEN_MFA', after.Session as string, {
      USERNAME: who.signInName,
      SOFTWARE_TOKEN_MFA_CODE: await authenticatorCode(authenticators.get(who.signInName) as string),
    });
    expect(signedIn.AuthenticationResult?.AccessToken).toEqual(expect.any(String));

    await client.send(new AdminDeleteUserCommand({ UserPoolId: pools.adminPoolId, Username: who.username }));
    await client.send(
      new AdminCreateUserCommand({
        UserPoolId: pools.adminPoolId,
        Username: who.username,
        MessageAction: 'SUPPRESS',
      }),
    );
    await client.send(
      new AdminSetUserPasswordCommand({
        UserPoolId: pools.adminPoolId,
        Username: who.username,
        Password: who.password,
        Permanent: true,
      }),
    );
    expect((await passwordStep('admins', who.signInName, who.password)).ChallengeName).toBe('MFA_SETUP');
  });

  it("lets an admin's own token replace their authenticator only with a right code of the new key", async () => {
    const who = await createIdentity('admins');
    const { accessToken } = await signIn('admins', who.signInName, who.password);
    const old = authenticators.get(who.signInName) as string;

    const associated = await client.send(new AssociateSoftwareTokenCommand({ AccessToken: accessToken }));
    expect(associated.Session).toBeUndefined();
    expect(
      await outcome(
        client.send(
          new VerifySoftwareTokenCommand({
            AccessToken: accessToken,
            UserCode: authenticatorCodeAt(old, Date.now()),
          }),
        ),
      ),
    ).toBe('EnableSoftwareTokenMFAException: Code mismatch and fail enable Software Token MFA');
    // Until the new key is verified, the old one is what sign-in asks for.
    authenticators.set(who.signInName, old);
    await signIn('admins', who.signInName, who.password);

    await client.send(
      new VerifySoftwareTokenCommand({
        AccessToken: accessToken,
        UserCode: await authenticatorCode(associated.SecretCode as string),
      }),
    );
    const next = await passwordStep('admins', who.signInName, who.password);
    expect(
      await outcome(
        respond('SOFTWARE_TOKEN_MFA', next.Session as string, {
          USERNAME: who.signInName,
          SOFTWARE_TOKEN_MFA_CODE: authenticatorCodeAt(old, Date.now()),
        }),
      ),
    ).toBe('CodeMismatchException: Invalid code received for user');
    const withNew = await respond('SOFTWARE_TOKEN_MFA', next.Session as string, {
      USERNAME: who.signInName,
      SOFTWARE_TOKEN_MFA_CODE: await authenticatorCode(associated.SecretCode as string),
    });
    expect(withNew.AuthenticationResult?.AccessToken).toEqual(expect.any(String));
  });

  it('refuses authenticators in the user pool, whose MFA is off, and signs users in with the password alone', async () => {
    const who = await createIdentity('users');
    const first = await passwordStep('users', who.signInName, who.password);
    expect(first.ChallengeName).toBeUndefined();
    expect(
      await outcome(
        client.send(
          new AssociateSoftwareTokenCommand({
            AccessToken: first.AuthenticationResult?.AccessToken as string,
          }),
        ),
      ),
    ).toBe('SoftwareTokenMFANotFoundException: Software Token MFA has not been enabled by the userPool.');
  });

  it('refuses a made-up session and an answer for another challenge', async () => {
    expect(
      await outcome(client.send(new AssociateSoftwareTokenCommand({ Session: `AYAB${'x'.repeat(40)}` }))),
    ).toBe('NotAuthorizedException: Invalid session for the user.');
    const who = await createIdentity('admins');
    const first = await passwordStep('admins', who.signInName, who.password);
    expect(
      await outcome(
        respond('SOFTWARE_TOKEN_MFA', first.Session as string, {
          USERNAME: who.signInName,
          SOFTWARE_TOKEN_MFA_CODE: '123456',
        }),
      ),
    ).toBe('NotAuthorizedException: Invalid session for the user.');
  });
});
