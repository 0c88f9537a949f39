import type { CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import { SimpleJwksCache } from 'aws-jwt-verify/jwk';
import { JwtVerifier } from 'aws-jwt-verify/jwt-verifier';
import type { IdentityProvider } from '../../domain/accounts/ports';
import { lazyPort } from '../lazy-sdk';
import { rememberVerified } from './verified-tokens';

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

/**
 * A Cognito user pool as an {@link IdentityProvider}. Access tokens are
 * checked here, against the pool's JWKS, which is all most requests ask of
 * it; every other call (sign-in, refresh, account changes) loads
 * ./operations.ts and Cognito's SDK with the first of them (decision 042).
 */
export function cognitoIdentityProvider(config: CognitoPoolConfig): IdentityProvider {
  const { clientId } = config;
  const verifier = JwtVerifier.create(
    { issuer: config.issuer, audience: null, jwksUri: `${config.issuer}/.well-known/jwks.json` },
    { jwksCache },
  );
  const verifyAccessToken = rememberVerified(async (accessToken: string) => {
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
  });

  return {
    ...lazyPort(
      async () => (await import('./operations')).cognitoOperations(config),
      [
        'createUser',
        'confirmUser',
        'signIn',
        'startAuthenticatorSetup',
        'finishAuthenticatorSetup',
        'answerSecondFactor',
        'refresh',
        'revokeRefreshToken',
        'setPassword',
        'updateEmail',
        'signOutEverywhere',
        'deleteUser',
      ],
    ),
    verifyAccessToken,
  };
}
