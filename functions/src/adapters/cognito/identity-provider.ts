import type { CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import { JwtRsaVerifier } from 'aws-jwt-verify';
import { SimpleJwksCache } from 'aws-jwt-verify/jwk';
import type { IdentityProvider, SignInResult, Tokens } from '../../domain/accounts/ports';
import { conflict, validationError } from '../../domain/errors';

type CognitoSdk = typeof import('./sdk');

export interface CognitoPoolConfig {
  /**
   * The client, or how to make it once the SDK is loaded: access tokens are
   * verified without Cognito (JWKS), so most requests never load its SDK.
   */
  client: CognitoIdentityProviderClient | ((sdk: CognitoSdk) => CognitoIdentityProviderClient);
  userPoolId: string;
  clientId: string;
  /** `https://cognito-idp.<region>.amazonaws.com/<pool>` on AWS; `<endpoint>/<pool>` locally. */
  issuer: string;
}

const errorName = (error: unknown) => (error as { name?: string })?.name ?? '';

/**
 * The JWKS is fetched with the global fetch so that the local emulator's
 * `http:` issuer works as well as Cognito's `https:` one.
 */
const jwksCache = new SimpleJwksCache({
  fetcher: {
    async fetch(uri: string) {
      const response = await fetch(uri);
      if (!response.ok) throw new Error(`JWKS fetch failed: ${response.status}`);
      return response.arrayBuffer();
    },
  },
});

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
 * A Cognito user pool as an {@link IdentityProvider}. Identities are created
 * with the admin API and a permanent password; whether an account may sign in
 * before verifying its email is decided by the domain, not by Cognito.
 */
export function cognitoIdentityProvider(config: CognitoPoolConfig): IdentityProvider {
  const { userPoolId, clientId } = config;
  let made: CognitoIdentityProviderClient | undefined;
  const cognito = async () => {
    const sdk = await import('./sdk');
    made ??= typeof config.client === 'function' ? config.client(sdk) : config.client;
    return { sdk, client: made };
  };
  const verifier = JwtRsaVerifier.create(
    { issuer: config.issuer, audience: null, jwksUri: `${config.issuer}/.well-known/jwks.json` },
    { jwksCache },
  );

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

    async verifyAccessToken(accessToken) {
      try {
        const payload = await verifier.verify(accessToken);
        if (payload.token_use !== 'access' || payload.client_id !== clientId) return undefined;
        const username = typeof payload.username === 'string' ? payload.username : String(payload.sub);
        return {
          subject: String(payload.sub),
          username,
          issuedAt: Number(payload.iat),
          expiresAt: Number(payload.exp),
        };
      } catch {
        return undefined;
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
      await client.send(new sdk.AdminUserGlobalSignOutCommand({ UserPoolId: userPoolId, Username: subject }));
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
