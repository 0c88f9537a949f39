import { createPublicKey, type JsonWebKey, verify } from 'node:crypto';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  authenticatorStep,
  challengeAfterPassword,
  challengeCodeMismatch,
  codeUsedOnce,
  MfaError,
  MfaSessions,
  type MfaSignIn,
  MfaStore,
  newAuthenticatorKey,
  softwareTokenNotEnabled,
  verifyCodeMismatch,
} from './cognito-mfa';
import {
  type ClientSettings,
  isGuarded,
  type PoolSettings,
  refusalOf,
  takesAccessToken,
  webAclBlock,
  webAclBlocked,
} from './cognito-side-doors';

/**
 * A small HTTP proxy in front of cognito-local that fills the gaps the app
 * relies on, so the handlers can talk to "Cognito" locally exactly as on AWS:
 *
 * - `AdminUserGlobalSignOut` and `GlobalSignOut` (cognito-local answers them
 *   as unsupported): the proxy remembers every refresh token it sees issued
 *   and, on a global sign-out, revokes each of the identity's tokens with
 *   cognito-local's `RevokeToken`, then answers `{}` as Cognito does.
 * - A wrong password on `InitiateAuth`/`AdminInitiateAuth` is
 *   `NotAuthorizedException` ("Incorrect username or password."), as on
 *   Cognito; cognito-local says `InvalidPasswordException`.
 * - `AdminSetUserPassword` and `AdminCreateUser` enforce the pool's minimum
 *   password length (cognito-local stores any password).
 * - `/<pool>/.well-known/openid-configuration` names this proxy's issuer and
 *   JWKS (cognito-local hard-codes localhost:9229).
 * - The pool and app client settings cognito-local stores but ignores are
 *   enforced on the calls a client id or a user's own token can make
 *   (cognito-side-doors.ts, decision 014): SignUp in an admin-create-only
 *   pool, auth flows the client does not allow, ForgotPassword with
 *   admin-only recovery, and attributes the client may not write. The user
 *   APIs the stack's web ACL blocks (DeleteUser and the like) are answered
 *   with Cognito's ForbiddenException, as behind that web ACL.
 * - Authenticator (software-token) MFA, for pools that ask for it
 *   (cognito-mfa.ts, decision 036): after cognito-local checks a password,
 *   AdminInitiateAuth answers the MFA_SETUP or SOFTWARE_TOKEN_MFA challenge
 *   and holds the tokens back; AssociateSoftwareToken, VerifySoftwareToken,
 *   AdminRespondToAuthChallenge and AdminSetUserMFAPreference work as on
 *   Cognito, with real RFC 6238 codes and the keys kept in the data directory.
 *
 * Everything else is forwarded unchanged. cognito-local is configured with
 * this proxy's URL as its issuer domain (`TokenConfig.IssuerDomain`), so
 * tokens say `iss: <proxy URL>/<pool id>` and their JWKS is reachable at
 * `<proxy URL>/<pool id>/.well-known/jwks.json`: `COGNITO_ENDPOINT` is the
 * proxy for SDK clients and token verification alike.
 */

const TARGET_PREFIX = 'AWSCognitoIdentityProviderService.';
const JSON_TYPE = 'application/x-amz-json-1.1';
const MAX_BODY_BYTES = 1024 * 1024;

/** One remembered refresh token. */
interface Session {
  clientId: string;
  token: string;
  /** Epoch seconds the token expires (from its own `exp`), when known. */
  expiresAt?: number;
}

interface Identity {
  username: string;
  sessions: Session[];
}

interface RegistryFile {
  version: 1;
  /** pool id -> sub -> identity. */
  pools: Record<string, Record<string, Identity>>;
}

/**
 * The refresh tokens issued through the proxy, per pool and identity (`sub`),
 * each with its app client. Kept in a JSON file (owner-only) so that a
 * restarted local cloud can still sign everyone out.
 */
export class RefreshTokenRegistry {
  private data: RegistryFile = { version: 1, pools: {} };

  constructor(private readonly file: string) {
    if (existsSync(file)) {
      try {
        const parsed = JSON.parse(readFileSync(file, 'utf8')) as Partial<RegistryFile>;
        if (parsed.version === 1 && parsed.pools && typeof parsed.pools === 'object') {
          this.data = { version: 1, pools: parsed.pools };
        }
      } catch {
        // An unreadable file only means older sessions cannot be signed out globally.
      }
    }
  }

  /** Remembers a token issued to `sub` (signed in as `username`) of `poolId` through `clientId`. */
  add(entry: { poolId: string; sub: string; username: string; clientId: string; token: string }): void {
    const pool = this.data.pools[entry.poolId] ?? {};
    this.data.pools[entry.poolId] = pool;
    const identity = pool[entry.sub] ?? { username: entry.username, sessions: [] };
    pool[entry.sub] = identity;
    identity.username = entry.username;
    const now = Math.floor(Date.now() / 1000);
    // Expired tokens are dead anyway; dropping them keeps the file small.
    identity.sessions = identity.sessions.filter(
      (session) => session.token !== entry.token && (session.expiresAt ?? Infinity) > now,
    );
    const expiresAt = jwtPayload(entry.token)?.exp;
    identity.sessions.push({
      clientId: entry.clientId,
      token: entry.token,
      ...(typeof expiresAt === 'number' ? { expiresAt } : {}),
    });
    this.save();
  }

  /** Forgets one token (after it was revoked). */
  remove(token: string): void {
    let changed = false;
    for (const pool of Object.values(this.data.pools)) {
      for (const identity of Object.values(pool)) {
        const before = identity.sessions.length;
        identity.sessions = identity.sessions.filter((session) => session.token !== token);
        changed ||= identity.sessions.length !== before;
      }
    }
    if (changed) this.save();
  }

  /** The tokens remembered for an identity. */
  sessionsOf(poolId: string, sub: string): Session[] {
    return [...(this.data.pools[poolId]?.[sub]?.sessions ?? [])];
  }

  /** Forgets these tokens of an identity (after a global sign-out). */
  forget(poolId: string, sub: string, tokens: string[]): void {
    const identity = this.data.pools[poolId]?.[sub];
    if (!identity) return;
    const gone = new Set(tokens);
    identity.sessions = identity.sessions.filter((session) => !gone.has(session.token));
    if (identity.sessions.length === 0) delete this.data.pools[poolId]?.[sub];
    this.save();
  }

  private save(): void {
    // Written whole and renamed into place, so a crash never leaves half a file.
    const temporary = `${this.file}.tmp`;
    writeFileSync(temporary, `${JSON.stringify(this.data)}\n`, { mode: 0o600 });
    renameSync(temporary, this.file);
  }
}

/** The payload of a JWT, unverified; undefined if it is not one. */
export function jwtPayload(token: unknown): Record<string, unknown> | undefined {
  return typeof token === 'string' ? decodeSegment(token.split('.')[1]) : undefined;
}

/** One base64url JSON segment of a JWT. */
function decodeSegment(part: string | undefined): Record<string, unknown> | undefined {
  if (!part) return undefined;
  try {
    const payload: unknown = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
    return payload && typeof payload === 'object' ? (payload as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** The pool id at the end of a token issuer `<endpoint>/<pool id>`. */
const poolOfIssuer = (issuer: unknown): string | undefined =>
  typeof issuer === 'string' ? issuer.slice(issuer.lastIndexOf('/') + 1) || undefined : undefined;

interface Answer {
  status: number;
  headers: Record<string, string | string[]>;
  body: Buffer;
}

class CognitoError extends Error {
  constructor(
    readonly type: string,
    message: string,
    readonly status = 400,
  ) {
    super(message);
  }
}

const jsonAnswer = (status: number, value: unknown): Answer => ({
  status,
  headers: { 'content-type': JSON_TYPE },
  body: Buffer.from(JSON.stringify(value)),
});

const errorAnswer = (error: CognitoError): Answer =>
  jsonAnswer(error.status, { __type: error.type, message: error.message });

function parseJson(body: Buffer): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(body.toString('utf8') || '{}');
    return value && typeof value === 'object' ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

async function readBody(req: http.IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > MAX_BODY_BYTES) throw new CognitoError('InvalidParameterException', 'Request too large');
    chunks.push(buffer);
  }
  return Buffer.concat(chunks);
}

export interface CognitoProxy {
  /** `http://127.0.0.1:<port>`: the endpoint for SDK clients and the token issuer domain. */
  readonly url: string;
  readonly registry: RefreshTokenRegistry;
  close(): Promise<void>;
}

export interface CognitoProxyOptions {
  /** Port on 127.0.0.1; 0 picks a free one. */
  port: number;
  /**
   * cognito-local's own endpoint, or a promise of it for one that starts after the proxy:
   * requests wait for it, and fail as cognito-local's would if it never answers.
   */
  upstream: string | Promise<string>;
  /** Where issued refresh tokens are remembered. */
  registryFile: string;
  /** Where authenticator keys are kept (cognito-mfa.ts). */
  mfaFile: string;
}

/** Starts the proxy (see the module comment) on 127.0.0.1. */
export async function startCognitoProxy(options: CognitoProxyOptions): Promise<CognitoProxy> {
  const registry = new RefreshTokenRegistry(options.registryFile);
  const mfaStore = new MfaStore(options.mfaFile);
  const upstream = Promise.resolve(options.upstream).then((address) => new URL(address));
  // Awaited per request: a start that fails is reported there.
  upstream.catch(() => {});
  const agent = new http.Agent({ keepAlive: true });
  let publicUrl = '';

  /**
   * cognito-local rewrites a whole JSON file per change with an unsynchronised
   * fs.writeFile, so two changes at once (two pools' clients, two sign-ins)
   * can interleave and leave a file it cannot read on the next start. Calls
   * that may write (every POST) therefore reach it one at a time.
   */
  let queue: Promise<unknown> = Promise.resolve();
  const oneAtATime = <T>(task: () => Promise<T>): Promise<T> => {
    const run = queue.then(task, task);
    queue = run.catch(() => {});
    return run;
  };

  /** Sends a request to cognito-local as is. */
  const forward = (method: string, path: string, headers: http.IncomingHttpHeaders, body: Buffer) =>
    method === 'GET' || method === 'HEAD' || method === 'OPTIONS'
      ? send(method, path, headers, body)
      : oneAtATime(() => send(method, path, headers, body));

  const send = async (method: string, path: string, headers: http.IncomingHttpHeaders, body: Buffer) => {
    const target = await upstream.catch((error: unknown) => {
      throw new CognitoError(
        'ServiceUnavailableException',
        `cognito-local did not start: ${error instanceof Error ? error.message : String(error)}`,
        502,
      );
    });
    return new Promise<Answer>((resolve, reject) => {
      const outgoing = { ...headers, host: target.host, 'content-length': String(body.length) };
      delete outgoing['transfer-encoding'];
      delete outgoing.connection;
      const request = http.request(
        { host: target.hostname, port: target.port, method, path, headers: outgoing, agent },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('error', reject);
          response.on('end', () => {
            const responseHeaders: Record<string, string | string[]> = {};
            for (const [name, value] of Object.entries(response.headers)) {
              if (value === undefined || ['content-length', 'transfer-encoding', 'connection'].includes(name))
                continue;
              responseHeaders[name] = value;
            }
            resolve({
              status: response.statusCode ?? 502,
              headers: responseHeaders,
              body: Buffer.concat(chunks),
            });
          });
        },
      );
      request.on('error', reject);
      request.end(body);
    });
  };

  /** Calls a Cognito operation on cognito-local; its errors become {@link CognitoError}s. */
  const call = async (
    operation: string,
    input: Record<string, unknown>,
  ): Promise<Record<string, unknown>> => {
    const answer = await forward(
      'POST',
      '/',
      {
        'content-type': JSON_TYPE,
        'x-amz-target': `${TARGET_PREFIX}${operation}`,
      },
      Buffer.from(JSON.stringify(input)),
    );
    const body = parseJson(answer.body);
    if (answer.status !== 200) {
      throw new CognitoError(
        String(body.__type ?? 'InternalErrorException'),
        String(body.message ?? ''),
        answer.status,
      );
    }
    return body;
  };

  const minimumLengths = new Map<string, number>();
  const minimumLength = async (poolId: string): Promise<number> => {
    let length = minimumLengths.get(poolId);
    if (length === undefined) {
      const out = (await call('DescribeUserPool', { UserPoolId: poolId })) as {
        UserPool?: { Policies?: { PasswordPolicy?: { MinimumLength?: number } } };
      };
      length = out.UserPool?.Policies?.PasswordPolicy?.MinimumLength ?? 8;
      minimumLengths.set(poolId, length);
    }
    return length;
  };

  const checkPassword = async (poolId: unknown, password: unknown): Promise<void> => {
    if (typeof poolId !== 'string' || typeof password !== 'string') return;
    if (password.length < (await minimumLength(poolId))) {
      throw new CognitoError(
        'InvalidPasswordException',
        'Password did not conform with policy: Password not long enough',
      );
    }
  };

  /** Revokes every remembered refresh token of the identity `sub` of `poolId`. */
  const signOutEverywhere = async (poolId: string, sub: string): Promise<void> => {
    const sessions = registry.sessionsOf(poolId, sub);
    for (const session of sessions) {
      try {
        await call('RevokeToken', { ClientId: session.clientId, Token: session.token });
      } catch (error) {
        // Already revoked, expired, or its client deleted: nothing left to end.
        if (!(error instanceof CognitoError) || error.status >= 500) throw error;
      }
    }
    registry.forget(
      poolId,
      sub,
      sessions.map((session) => session.token),
    );
  };

  /**
   * Pool and client settings, read from cognito-local and kept until a call
   * through the proxy changes a pool or a client.
   */
  const poolSettings = new Map<string, PoolSettings>();
  const clientSettings = new Map<string, { poolId: string; client: ClientSettings }>();
  const settingsOfPool = async (poolId: string): Promise<PoolSettings> => {
    let settings = poolSettings.get(poolId);
    if (!settings) {
      const out = (await call('DescribeUserPool', { UserPoolId: poolId })) as { UserPool?: PoolSettings };
      settings = out.UserPool ?? {};
      poolSettings.set(poolId, settings);
    }
    return settings;
  };
  /** The client and its pool, or undefined for a client id cognito-local does not know (it answers that itself). */
  const settingsOfClient = async (clientId: unknown) => {
    if (typeof clientId !== 'string') return undefined;
    if (!clientSettings.has(clientId)) {
      const pools = (await call('ListUserPools', { MaxResults: 60 })) as { UserPools?: { Id?: string }[] };
      for (const pool of pools.UserPools ?? []) {
        if (!pool.Id) continue;
        const clients = (await call('ListUserPoolClients', { UserPoolId: pool.Id, MaxResults: 60 })) as {
          UserPoolClients?: { ClientId?: string }[];
        };
        if (!clients.UserPoolClients?.some((c) => c.ClientId === clientId)) continue;
        const out = (await call('DescribeUserPoolClient', { UserPoolId: pool.Id, ClientId: clientId })) as {
          UserPoolClient?: ClientSettings;
        };
        clientSettings.set(clientId, { poolId: pool.Id, client: out.UserPoolClient ?? {} });
      }
    }
    return clientSettings.get(clientId);
  };

  /** Cognito's refusal of a call that only needs a client id or a user's token, if it would refuse it. */
  const checkSideDoor = async (operation: string, input: Record<string, unknown>): Promise<void> => {
    if (!isGuarded(operation)) return;
    const clientId = takesAccessToken(operation)
      ? (await verifyAccessToken(input.AccessToken)).client_id
      : input.ClientId;
    const found = await settingsOfClient(clientId);
    if (!found) return;
    const refusal = refusalOf(operation, input, await settingsOfPool(found.poolId), found.client);
    if (refusal) throw new CognitoError(refusal.type, refusal.message);
  };

  const jwks = new Map<string, JsonWebKey[]>();
  /** The claims of an access token cognito-local signed and that has not expired, else a NotAuthorized error. */
  const verifyAccessToken = async (token: unknown): Promise<Record<string, unknown>> => {
    const invalid = new CognitoError('NotAuthorizedException', 'Invalid Access Token');
    if (typeof token !== 'string') throw invalid;
    const [header, payload, signature] = token.split('.');
    const claims = jwtPayload(token);
    const poolId = poolOfIssuer(claims?.iss);
    if (!header || !payload || !signature || !claims || !poolId) throw invalid;
    let keys = jwks.get(poolId);
    if (!keys) {
      const answer = await forward(
        'GET',
        `/${encodeURIComponent(poolId)}/.well-known/jwks.json`,
        {},
        Buffer.alloc(0),
      );
      keys = (parseJson(answer.body).keys as JsonWebKey[] | undefined) ?? [];
      jwks.set(poolId, keys);
    }
    const kid = decodeSegment(header)?.kid;
    const key = keys.find((candidate) => candidate.kid === kid) ?? keys[0];
    if (!key) throw invalid;
    const valid = verify(
      'RSA-SHA256',
      Buffer.from(`${header}.${payload}`),
      createPublicKey({ key, format: 'jwk' }),
      Buffer.from(signature, 'base64url'),
    );
    const now = Math.floor(Date.now() / 1000);
    if (!valid || claims.token_use !== 'access' || typeof claims.exp !== 'number' || claims.exp <= now) {
      throw new CognitoError(
        'NotAuthorizedException',
        valid ? 'Access Token has expired' : 'Invalid Access Token',
      );
    }
    return claims;
  };

  /** Whether a pool asks for a second factor and offers authenticators (read from cognito-local, kept like the settings). */
  const poolMfa = new Map<string, { configuration?: string; softwareToken: boolean }>();
  const mfaOfPool = async (poolId: string) => {
    let mfa = poolMfa.get(poolId);
    if (!mfa) {
      const out = (await call('GetUserPoolMfaConfig', { UserPoolId: poolId })) as {
        MfaConfiguration?: string;
        SoftwareTokenMfaConfiguration?: { Enabled?: boolean };
      };
      mfa = {
        ...(out.MfaConfiguration ? { configuration: out.MfaConfiguration } : {}),
        softwareToken: out.SoftwareTokenMfaConfiguration?.Enabled === true,
      };
      poolMfa.set(poolId, mfa);
    }
    return mfa;
  };

  /** A sign-in that ended unanswered: the refresh token of its password check will never be handed out. */
  const revokeHeldBack = (signIn: MfaSignIn) => {
    call('RevokeToken', { ClientId: signIn.clientId, Token: signIn.refreshToken }).catch(() => {});
  };
  const mfaSessions = new MfaSessions(Date.now, revokeHeldBack);

  /** The identity `Username` names in a pool: its sub and username, or cognito-local's UserNotFoundException. */
  const identityOf = async (poolId: unknown, username: unknown) => {
    const user = (await call('AdminGetUser', { UserPoolId: poolId, Username: username })) as {
      Username?: string;
      UserAttributes?: { Name: string; Value?: string }[];
    };
    const sub = user.UserAttributes?.find((attribute) => attribute.Name === 'sub')?.Value ?? '';
    return { sub, username: user.Username ?? String(username) };
  };

  /**
   * A right password in a pool that asks for a second factor: the challenge
   * instead of the tokens cognito-local issued, which wait with the session.
   */
  const challengeInstead = async (
    input: Record<string, unknown>,
    output: Record<string, unknown>,
  ): Promise<Record<string, unknown> | undefined> => {
    const result = output.AuthenticationResult as { AccessToken?: string; RefreshToken?: string } | undefined;
    const claims = jwtPayload(result?.AccessToken);
    const poolId = poolOfIssuer(claims?.iss);
    if (
      !result?.AccessToken ||
      !result.RefreshToken ||
      !claims ||
      !poolId ||
      typeof claims.sub !== 'string'
    ) {
      return undefined;
    }
    const mfa = await mfaOfPool(poolId);
    const user = mfaStore.user(poolId, claims.sub);
    const challenge = challengeAfterPassword(mfa.configuration, mfa.softwareToken, user);
    if (!challenge) return undefined;
    const clientId = String(input.ClientId);
    const username = typeof claims.username === 'string' ? claims.username : claims.sub;
    const session = mfaSessions.start(
      {
        poolId,
        clientId,
        sub: claims.sub,
        username,
        challenge,
        refreshToken: result.RefreshToken,
        accessToken: result.AccessToken,
      },
      mfaStore.sessionMinutes(clientId),
    );
    const parameters: Record<string, string> =
      challenge === 'MFA_SETUP'
        ? { MFAS_CAN_SETUP: '["SOFTWARE_TOKEN_MFA"]', USER_ID_FOR_SRP: username }
        : {
            USER_ID_FOR_SRP: username,
            ...(user.friendlyDeviceName ? { FRIENDLY_DEVICE_NAME: user.friendlyDeviceName } : {}),
          };
    return { ChallengeName: challenge, Session: session, ChallengeParameters: parameters };
  };

  /** The identity behind an access token that may set up an authenticator, with its pool. */
  const tokenOwner = async (accessToken: unknown) => {
    const claims = await verifyAccessToken(accessToken);
    const poolId = poolOfIssuer(claims.iss) as string;
    if (!(await mfaOfPool(poolId)).softwareToken) throw softwareTokenNotEnabled();
    // The identity must still exist.
    await call('GetUser', { AccessToken: accessToken });
    return { poolId, sub: String(claims.sub) };
  };

  /** Answers an MFA challenge of a sign-in the proxy holds: the held-back refresh token and a fresh access token. */
  const respondToChallenge = async (operation: string, input: Record<string, unknown>): Promise<Answer> => {
    const signIn = mfaSessions.get(input.Session);
    const responses = (input.ChallengeResponses ?? {}) as Record<string, unknown>;
    const named = String(responses.USERNAME ?? '').toLowerCase();
    if (
      input.ClientId !== signIn.clientId ||
      (operation === 'AdminRespondToAuthChallenge' && input.UserPoolId !== signIn.poolId) ||
      input.ChallengeName !== signIn.challenge ||
      (named !== signIn.username.toLowerCase() && named !== signIn.sub)
    ) {
      throw new MfaError('NotAuthorizedException', 'Invalid session for the user.');
    }
    if (signIn.challenge === 'MFA_SETUP' && !signIn.verified) {
      throw new MfaError('InvalidParameterException', 'The software token has not been verified.');
    }
    if (signIn.challenge === 'SOFTWARE_TOKEN_MFA') {
      const user = mfaStore.user(signIn.poolId, signIn.sub);
      const step = user.secret
        ? authenticatorStep(user.secret, responses.SOFTWARE_TOKEN_MFA_CODE)
        : undefined;
      if (step === undefined) throw challengeCodeMismatch();
      if (step <= (user.lastStep ?? -1)) throw codeUsedOnce();
      mfaStore.setUser(signIn.poolId, signIn.sub, { ...user, lastStep: step });
    }
    mfaSessions.end(String(input.Session));
    const fresh = (await call('InitiateAuth', {
      ClientId: signIn.clientId,
      AuthFlow: 'REFRESH_TOKEN_AUTH',
      AuthParameters: { REFRESH_TOKEN: signIn.refreshToken },
    })) as { AuthenticationResult?: { AccessToken?: string; IdToken?: string } };
    const accessToken = fresh.AuthenticationResult?.AccessToken;
    const claims = jwtPayload(accessToken);
    const output = {
      ChallengeParameters: {},
      AuthenticationResult: {
        AccessToken: accessToken,
        ExpiresIn: Number(claims?.exp) - Number(claims?.iat),
        TokenType: 'Bearer',
        RefreshToken: signIn.refreshToken,
        IdToken: fresh.AuthenticationResult?.IdToken,
      },
    };
    observe(operation, input, output);
    return jsonAnswer(200, output);
  };

  /** Operations the proxy answers itself. */
  const own: Record<string, (input: Record<string, unknown>) => Promise<Answer>> = {
    async AssociateSoftwareToken(input) {
      if (input.Session !== undefined && input.AccessToken !== undefined) {
        throw new MfaError(
          'InvalidParameterException',
          'Provide either an access token or a session, not both.',
        );
      }
      if (input.Session !== undefined) {
        const signIn = mfaSessions.get(input.Session);
        if (signIn.challenge !== 'MFA_SETUP')
          throw new MfaError('NotAuthorizedException', 'Invalid session for the user.');
        if (!(await mfaOfPool(signIn.poolId)).softwareToken) throw softwareTokenNotEnabled();
        signIn.secret = newAuthenticatorKey();
        signIn.verified = false;
        return jsonAnswer(200, {
          SecretCode: signIn.secret,
          Session: mfaSessions.next(String(input.Session), signIn),
        });
      }
      const { poolId, sub } = await tokenOwner(input.AccessToken);
      const secret = newAuthenticatorKey();
      mfaStore.setUser(poolId, sub, { ...mfaStore.user(poolId, sub), pendingSecret: secret });
      return jsonAnswer(200, { SecretCode: secret });
    },

    async VerifySoftwareToken(input) {
      const device =
        typeof input.FriendlyDeviceName === 'string' ? { friendlyDeviceName: input.FriendlyDeviceName } : {};
      if (input.Session !== undefined) {
        const signIn = mfaSessions.get(input.Session);
        if (signIn.challenge !== 'MFA_SETUP' || !signIn.secret) {
          throw new MfaError('NotAuthorizedException', 'Invalid session for the user.');
        }
        const step = authenticatorStep(signIn.secret, input.UserCode);
        if (step === undefined) throw verifyCodeMismatch();
        signIn.verified = true;
        // The key is the identity's from now on, as in a pool that requires MFA; this code is spent.
        const user = mfaStore.user(signIn.poolId, signIn.sub);
        mfaStore.setUser(signIn.poolId, signIn.sub, {
          ...user,
          ...device,
          secret: signIn.secret,
          enabled: true,
          lastStep: step,
        });
        return jsonAnswer(200, {
          Status: 'SUCCESS',
          Session: mfaSessions.next(String(input.Session), signIn),
        });
      }
      const { poolId, sub } = await tokenOwner(input.AccessToken);
      const user = mfaStore.user(poolId, sub);
      if (!user.pendingSecret) {
        throw new MfaError('InvalidParameterException', 'The user has not associated a software token.');
      }
      const step = authenticatorStep(user.pendingSecret, input.UserCode);
      if (step === undefined) throw verifyCodeMismatch();
      const required = (await mfaOfPool(poolId)).configuration === 'ON';
      const { pendingSecret, ...rest } = user;
      mfaStore.setUser(poolId, sub, {
        ...rest,
        ...device,
        secret: pendingSecret,
        enabled: user.enabled || required,
        lastStep: step,
      });
      return jsonAnswer(200, { Status: 'SUCCESS' });
    },

    async AdminSetUserMFAPreference(input) {
      const { sub } = await identityOf(input.UserPoolId, input.Username);
      const poolId = String(input.UserPoolId);
      const sms = input.SMSMfaSettings as { Enabled?: boolean } | undefined;
      if (sms?.Enabled) {
        throw new MfaError(
          'InvalidParameterException',
          'User does not have delivery config set to turn on SMS_MFA',
        );
      }
      const settings = input.SoftwareTokenMfaSettings as
        | { Enabled?: boolean; PreferredMfa?: boolean }
        | undefined;
      if (settings) {
        const user = mfaStore.user(poolId, sub);
        const enabled = settings.Enabled ?? user.enabled;
        if (enabled && !user.secret) {
          throw new MfaError('InvalidParameterException', 'User has not verified software token mfa');
        }
        mfaStore.setUser(poolId, sub, {
          ...user,
          enabled,
          preferred: enabled && settings.PreferredMfa === true,
        });
      }
      return jsonAnswer(200, {});
    },

    async AdminUserGlobalSignOut(input) {
      if (typeof input.UserPoolId !== 'string' || typeof input.Username !== 'string') {
        throw new CognitoError('InvalidParameterException', 'UserPoolId and Username are required');
      }
      // Resolves a username, alias or sub to the identity, and fails as Cognito does for an unknown user.
      const user = (await call('AdminGetUser', {
        UserPoolId: input.UserPoolId,
        Username: input.Username,
      })) as {
        UserAttributes?: { Name: string; Value?: string }[];
      };
      const sub = user.UserAttributes?.find((attribute) => attribute.Name === 'sub')?.Value;
      if (sub) await signOutEverywhere(input.UserPoolId, sub);
      return jsonAnswer(200, {});
    },
    async GlobalSignOut(input) {
      const claims = await verifyAccessToken(input.AccessToken);
      const poolId = poolOfIssuer(claims.iss) as string;
      // The identity must still exist.
      await call('GetUser', { AccessToken: input.AccessToken });
      await signOutEverywhere(poolId, String(claims.sub));
      return jsonAnswer(200, {});
    },
  };

  /** Remembers the refresh token of a successful authentication. */
  const observe = (
    operation: string,
    input: Record<string, unknown>,
    output: Record<string, unknown>,
  ): void => {
    if (operation === 'RevokeToken' && typeof input.Token === 'string') {
      registry.remove(input.Token);
      return;
    }
    const result = output.AuthenticationResult as { AccessToken?: string; RefreshToken?: string } | undefined;
    if (!result?.RefreshToken) return;
    const claims = jwtPayload(result.AccessToken);
    const poolId = poolOfIssuer(claims?.iss);
    if (!claims || !poolId || typeof claims.sub !== 'string') return;
    registry.add({
      poolId,
      sub: claims.sub,
      username: typeof claims.username === 'string' ? claims.username : claims.sub,
      clientId: typeof claims.client_id === 'string' ? claims.client_id : String(input.ClientId ?? ''),
      token: result.RefreshToken,
    });
  };

  /** AdminGetUser as Cognito answers it: with the identity's MFA settings. */
  const withMfaSettings = (input: Record<string, unknown>, output: Record<string, unknown>): Answer => {
    const attributes = (output.UserAttributes ?? []) as { Name: string; Value?: string }[];
    const sub = attributes.find((attribute) => attribute.Name === 'sub')?.Value ?? '';
    const { enabled, preferred } = mfaStore.user(String(input.UserPoolId), sub);
    const {
      UserMFASettingList: _list,
      PreferredMfaSetting: _preferred,
      MFAOptions: _options,
      ...rest
    } = output;
    return jsonAnswer(200, {
      ...rest,
      ...(enabled ? { UserMFASettingList: ['SOFTWARE_TOKEN_MFA'] } : {}),
      ...(preferred ? { PreferredMfaSetting: 'SOFTWARE_TOKEN_MFA' } : {}),
    });
  };

  const handle = async (req: http.IncomingMessage): Promise<Answer> => {
    const body = await readBody(req);
    const method = req.method ?? 'GET';
    const path = req.url ?? '/';
    const target = req.headers['x-amz-target'];
    // cognito-local runs the name after the target's first dot, whatever precedes it: the proxy judges that name.
    const operation = typeof target === 'string' ? (target.split('.')[1] ?? '') : '';

    const discovery = /^\/([^/?]+)\/\.well-known\/openid-configuration(?:\?.*)?$/.exec(path);
    if (method === 'GET' && discovery) {
      const issuer = `${publicUrl}/${discovery[1]}`;
      return {
        status: 200,
        headers: { 'content-type': 'application/json; charset=utf-8' },
        body: Buffer.from(
          JSON.stringify({
            issuer,
            jwks_uri: `${issuer}/.well-known/jwks.json`,
            id_token_signing_alg_values_supported: ['RS256'],
          }),
        ),
      };
    }
    if (method !== 'POST' || !operation) return forward(method, path, req.headers, body);

    const input = parseJson(body);
    const ownHandler = Object.hasOwn(own, operation) ? own[operation] : undefined;
    if (ownHandler) return ownHandler(input);
    if (
      (operation === 'AdminRespondToAuthChallenge' || operation === 'RespondToAuthChallenge') &&
      (input.ChallengeName === 'MFA_SETUP' || input.ChallengeName === 'SOFTWARE_TOKEN_MFA')
    ) {
      return respondToChallenge(operation, input);
    }
    // A pool or client changed through the proxy: read its settings again when next needed.
    if (/^(Create|Update|Delete)UserPool|^SetUserPoolMfaConfig$/.test(operation)) {
      poolSettings.clear();
      clientSettings.clear();
      minimumLengths.clear();
      poolMfa.clear();
    }
    // The pools' web ACL on AWS blocks these before Cognito looks at them, in any case (decision 014).
    if (webAclBlocked.some((name) => name.toLowerCase() === operation.toLowerCase()))
      throw new CognitoError(webAclBlock.type, webAclBlock.message);
    await checkSideDoor(operation, input);
    if (operation === 'AdminSetUserPassword') await checkPassword(input.UserPoolId, input.Password);
    if (operation === 'AdminCreateUser') await checkPassword(input.UserPoolId, input.TemporaryPassword);

    // An identity about to be deleted: its authenticator and sign-ins go with it.
    const deleting =
      operation === 'AdminDeleteUser'
        ? await identityOf(input.UserPoolId, input.Username).catch(() => undefined)
        : undefined;

    const answer = await forward(method, path, req.headers, body);
    if (answer.status === 200) {
      const output = parseJson(answer.body);
      if (
        operation === 'AdminInitiateAuth' &&
        (input.AuthFlow === 'ADMIN_USER_PASSWORD_AUTH' || input.AuthFlow === 'ADMIN_NO_SRP_AUTH')
      ) {
        const challenge = await challengeInstead(input, output);
        if (challenge) return jsonAnswer(200, challenge);
      }
      if (deleting) {
        mfaStore.forgetUser(String(input.UserPoolId), deleting.sub);
        mfaSessions.endAllOf(String(input.UserPoolId), deleting.sub);
      }
      // cognito-local does not keep a client's AuthSessionValidity: the proxy does, for its sessions.
      if (operation === 'CreateUserPoolClient' || operation === 'UpdateUserPoolClient') {
        const clientId =
          (output.UserPoolClient as { ClientId?: string } | undefined)?.ClientId ?? input.ClientId;
        const minutes = typeof input.AuthSessionValidity === 'number' ? input.AuthSessionValidity : undefined;
        if (typeof clientId === 'string') mfaStore.setSessionMinutes(clientId, minutes);
      }
      if (operation === 'AdminGetUser') return withMfaSettings(input, output);
      observe(operation, input, output);
      return answer;
    }
    if (
      (operation === 'InitiateAuth' || operation === 'AdminInitiateAuth') &&
      parseJson(answer.body).__type === 'InvalidPasswordException'
    ) {
      return errorAnswer(new CognitoError('NotAuthorizedException', 'Incorrect username or password.'));
    }
    return answer;
  };

  const server = http.createServer((req, res) => {
    handle(req)
      .catch((error: unknown) => {
        if (error instanceof CognitoError) return errorAnswer(error);
        if (error instanceof MfaError) return errorAnswer(new CognitoError(error.type, error.message));
        // cognito-local not up yet (startup probes) or gone (shutdown): a gateway error, nothing to log.
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'ECONNREFUSED' || code === 'ECONNRESET') {
          return errorAnswer(
            new CognitoError('ServiceUnavailableException', 'cognito-local is not reachable', 502),
          );
        }
        console.error('[cognito-proxy]', error);
        return errorAnswer(
          new CognitoError(
            'InternalErrorException',
            error instanceof Error ? error.message : String(error),
            500,
          ),
        );
      })
      .then((answer) => {
        res.writeHead(answer.status, { ...answer.headers, 'content-length': String(answer.body.length) });
        res.end(answer.body);
      })
      .catch(() => res.destroy());
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'EADDRINUSE'
          ? new Error(
              `Port ${options.port} for cognito-local is in use (is another local cloud running?). Stop it or set COGNITO_PORT.`,
            )
          : error,
      ),
    );
    server.listen(options.port, '127.0.0.1', () => resolve());
  });
  publicUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  let closing: Promise<void> | undefined;
  return {
    url: publicUrl,
    registry,
    /** Stops taking requests and waits for the call in progress, so cognito-local can stop between writes. */
    close() {
      closing ??= (async () => {
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeAllConnections();
        await closed;
        // A cognito-local that hangs must not hold the shutdown.
        await Promise.race([queue, new Promise((resolve) => setTimeout(resolve, 5000).unref())]);
        agent.destroy();
      })();
      return closing;
    },
  };
}
