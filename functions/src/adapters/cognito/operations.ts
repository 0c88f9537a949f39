import type { CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import type { IdentityProvider, SecondFactorResult, SignInResult, Tokens } from '../../domain/accounts/ports';
import { conflict, validationError } from '../../domain/errors';
import type { CognitoPoolConfig } from './identity-provider';

/** What the pool does through Cognito's API: everything an {@link IdentityProvider} does but check an access token. */
export type CognitoOperations = Omit<IdentityProvider, 'verifyAccessToken'>;

const errorName = (error: unknown) => (error as { name?: string })?.name ?? '';

function tokensOf(
  result: { AccessToken?: string; RefreshToken?: string; ExpiresIn?: number } | undefined,
): Tokens {
  if (!result?.AccessToken) throw new Error('Cognito answered without an access token');
  return {
    accessToken: result.AccessToken,
    ...(result.RefreshToken ? { refreshToken: result.RefreshToken } : {}),
    expiresIn: result.ExpiresIn ?? 900,
  };
}

/**
 * The errors Cognito answers a wrong authenticator code with: VerifySoftwareToken
 * says EnableSoftwareTokenMFAException (or CodeMismatchException), the
 * SOFTWARE_TOKEN_MFA challenge CodeMismatchException.
 */
const wrongCode = new Set(['CodeMismatchException', 'EnableSoftwareTokenMFAException']);

/** A spent, expired or unknown sign-in session (NotAuthorizedException "Invalid session for the user..."). */
const expiredSession = new Set(['NotAuthorizedException']);

/** A wrong code or an ended session as the domain's answer; anything else is thrown on. */
function secondFactorFailure(error: unknown): SecondFactorResult {
  const name = errorName(error);
  if (wrongCode.has(name)) return { ok: false, reason: 'wrong-code' };
  // "Your software token has already been used once.": Cognito takes each code once.
  if (name === 'ExpiredCodeException') return { ok: false, reason: 'used-code' };
  if (expiredSession.has(name)) return { ok: false, reason: 'expired' };
  throw error;
}

/** The step a pool's challenge after a right password asks for, if it is one the app answers. */
const secondFactorSteps: Record<string, 'setup' | 'code'> = {
  MFA_SETUP: 'setup',
  SOFTWARE_TOKEN_MFA: 'code',
};

/**
 * A Cognito user pool's calls, all but the access token's check (./identity-provider.ts):
 * loaded with the first of them, beside Cognito's SDK. Identities are created
 * with the admin API and a permanent password; whether an account may sign in
 * before verifying its email is decided by the domain, not by Cognito.
 */
export function cognitoOperations(config: CognitoPoolConfig): CognitoOperations {
  const { userPoolId, clientId } = config;
  let made: CognitoIdentityProviderClient | undefined;
  const cognito = async () => {
    const sdk = await import('./sdk');
    made ??= typeof config.client === 'function' ? config.client(sdk) : config.client;
    return { sdk, client: made };
  };
  return {
    async createUser(input) {
      const { sdk, client } = await cognito();
      try {
        const out = await client.send(
          new sdk.AdminCreateUserCommand({
            UserPoolId: userPoolId,
            Username: input.username,
            MessageAction: 'SUPPRESS',
            UserAttributes: input.email
              ? [
                  { Name: 'email', Value: input.email },
                  { Name: 'email_verified', Value: 'false' },
                ]
              : [],
          }),
        );
        const subject = out.User?.Attributes?.find((a) => a.Name === 'sub')?.Value ?? out.User?.Username;
        if (!subject) throw new Error('Cognito answered without a subject');
        await client.send(
          new sdk.AdminSetUserPasswordCommand({
            UserPoolId: userPoolId,
            Username: subject,
            Password: input.password,
            Permanent: true,
          }),
        );
        return { subject };
      } catch (error) {
        const name = errorName(error);
        if (name === 'UsernameExistsException' || name === 'AliasExistsException') {
          throw conflict('An account with this email already exists.');
        }
        if (name === 'InvalidPasswordException')
          throw validationError('Password must be at least 8 characters');
        throw error;
      }
    },

    async confirmUser(subject, email) {
      const { sdk, client } = await cognito();
      // The local emulator refuses email_verified without email in the same call; Cognito accepts both.
      await client.send(
        new sdk.AdminUpdateUserAttributesCommand({
          UserPoolId: userPoolId,
          Username: subject,
          UserAttributes: [
            { Name: 'email', Value: email },
            { Name: 'email_verified', Value: 'true' },
          ],
        }),
      );
    },

    async signIn(username, password): Promise<SignInResult> {
      const { sdk, client } = await cognito();
      try {
        // An admin call (IAM credentials): the client allows no password sign-in without them (decision 014).
        const out = await client.send(
          new sdk.AdminInitiateAuthCommand({
            UserPoolId: userPoolId,
            ClientId: clientId,
            AuthFlow: 'ADMIN_USER_PASSWORD_AUTH',
            AuthParameters: { USERNAME: username, PASSWORD: password },
          }),
        );
        if (out.ChallengeName) {
          const step = secondFactorSteps[out.ChallengeName];
          if (!step || !out.Session)
            throw new Error(`Cognito asked for ${out.ChallengeName}, which the app does not answer`);
          const poolUsername = out.ChallengeParameters?.USER_ID_FOR_SRP ?? username;
          return { ok: true, secondFactor: { step, session: out.Session, username: poolUsername } };
        }
        return { ok: true, tokens: tokensOf(out.AuthenticationResult) };
      } catch (error) {
        const name = errorName(error);
        if (name === 'UserNotConfirmedException') return { ok: false, reason: 'not-confirmed' };
        if (
          name === 'NotAuthorizedException' ||
          name === 'UserNotFoundException' ||
          name === 'PasswordResetRequiredException' ||
          name === 'InvalidParameterException'
        ) {
          return { ok: false, reason: 'invalid-credentials' };
        }
        throw error;
      }
    },

    async startAuthenticatorSetup(session) {
      const { sdk, client } = await cognito();
      // A public call: the session (never a browser's) is what authorises it.
      const out = await client.send(new sdk.AssociateSoftwareTokenCommand({ Session: session }));
      if (!out.SecretCode || !out.Session) throw new Error('Cognito answered without a key or a session');
      return { secret: out.SecretCode, session: out.Session };
    },

    async finishAuthenticatorSetup({ session, username, code }) {
      const { sdk, client } = await cognito();
      let verified: string;
      try {
        const out = await client.send(
          new sdk.VerifySoftwareTokenCommand({ Session: session, UserCode: code }),
        );
        if (out.Status !== 'SUCCESS' || !out.Session) return { ok: false, reason: 'wrong-code' };
        verified = out.Session;
      } catch (error) {
        return secondFactorFailure(error);
      }
      // The authenticator is now the identity's; naming it the preferred factor is what every sign-in asks for.
      await client.send(
        new sdk.AdminSetUserMFAPreferenceCommand({
          UserPoolId: userPoolId,
          Username: username,
          SoftwareTokenMfaSettings: { Enabled: true, PreferredMfa: true },
        }),
      );
      try {
        const out = await client.send(
          new sdk.AdminRespondToAuthChallengeCommand({
            UserPoolId: userPoolId,
            ClientId: clientId,
            ChallengeName: 'MFA_SETUP',
            Session: verified,
            ChallengeResponses: { USERNAME: username },
          }),
        );
        return { ok: true, tokens: tokensOf(out.AuthenticationResult) };
      } catch (error) {
        return secondFactorFailure(error);
      }
    },

    async answerSecondFactor({ session, username, code }) {
      const { sdk, client } = await cognito();
      try {
        const out = await client.send(
          new sdk.AdminRespondToAuthChallengeCommand({
            UserPoolId: userPoolId,
            ClientId: clientId,
            ChallengeName: 'SOFTWARE_TOKEN_MFA',
            Session: session,
            ChallengeResponses: { USERNAME: username, SOFTWARE_TOKEN_MFA_CODE: code },
          }),
        );
        return { ok: true, tokens: tokensOf(out.AuthenticationResult) };
      } catch (error) {
        return secondFactorFailure(error);
      }
    },

    async refresh(refreshToken) {
      const { sdk, client } = await cognito();
      try {
        const out = await client.send(
          new sdk.InitiateAuthCommand({
            ClientId: clientId,
            AuthFlow: 'REFRESH_TOKEN_AUTH',
            AuthParameters: { REFRESH_TOKEN: refreshToken },
          }),
        );
        return tokensOf(out.AuthenticationResult);
      } catch (error) {
        const name = errorName(error);
        if (
          name === 'NotAuthorizedException' ||
          name === 'UserNotFoundException' ||
          name === 'InvalidParameterException'
        ) {
          return undefined;
        }
        throw error;
      }
    },

    async revokeRefreshToken(refreshToken) {
      const { sdk, client } = await cognito();
      try {
        await client.send(new sdk.RevokeTokenCommand({ ClientId: clientId, Token: refreshToken }));
      } catch (error) {
        // A token that is already invalid needs no revoking.
        if (
          errorName(error) !== 'UnsupportedTokenTypeException' &&
          errorName(error) !== 'NotAuthorizedException'
        ) {
          throw error;
        }
      }
    },

    async setPassword(subject, password) {
      const { sdk, client } = await cognito();
      try {
        await client.send(
          new sdk.AdminSetUserPasswordCommand({
            UserPoolId: userPoolId,
            Username: subject,
            Password: password,
            Permanent: true,
          }),
        );
      } catch (error) {
        if (errorName(error) === 'InvalidPasswordException') throw validationError('Password too short');
        throw error;
      }
    },

    async updateEmail(subject, email) {
      const { sdk, client } = await cognito();
      try {
        await client.send(
          new sdk.AdminUpdateUserAttributesCommand({
            UserPoolId: userPoolId,
            Username: subject,
            UserAttributes: [
              { Name: 'email', Value: email },
              { Name: 'email_verified', Value: 'true' },
            ],
          }),
        );
      } catch (error) {
        if (errorName(error) === 'AliasExistsException')
          throw conflict('An account with this email already exists.');
        throw error;
      }
    },

    async signOutEverywhere(subject) {
      const { sdk, client } = await cognito();
      try {
        await client.send(
          new sdk.AdminUserGlobalSignOutCommand({ UserPoolId: userPoolId, Username: subject }),
        );
      } catch (error) {
        // An identity that is gone has no session left.
        if (errorName(error) !== 'UserNotFoundException') throw error;
      }
    },

    async deleteUser(subject) {
      const { sdk, client } = await cognito();
      try {
        await client.send(new sdk.AdminDeleteUserCommand({ UserPoolId: userPoolId, Username: subject }));
      } catch (error) {
        if (errorName(error) !== 'UserNotFoundException') throw error;
      }
    },
  };
}
