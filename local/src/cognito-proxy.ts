import { createPublicKey, type JsonWebKey, verify } from 'node:crypto';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
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
}

/** Starts the proxy (see the module comment) on 127.0.0.1. */
export async function startCognitoProxy(options: CognitoProxyOptions): Promise<CognitoProxy> {
  const registry = new RefreshTokenRegistry(options.registryFile);
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

  /** Operations the proxy answers itself. */
  const own: Record<string, (input: Record<string, unknown>) => Promise<Answer>> = {
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
    // A pool or client changed through the proxy: read its settings again when next needed.
    if (/^(Create|Update|Delete)UserPool/.test(operation)) {
      poolSettings.clear();
      clientSettings.clear();
      minimumLengths.clear();
    }
    // The pools' web ACL on AWS blocks these before Cognito looks at them, in any case (decision 014).
    if (webAclBlocked.some((name) => name.toLowerCase() === operation.toLowerCase()))
      throw new CognitoError(webAclBlock.type, webAclBlock.message);
    await checkSideDoor(operation, input);
    if (operation === 'AdminSetUserPassword') await checkPassword(input.UserPoolId, input.Password);
    if (operation === 'AdminCreateUser') await checkPassword(input.UserPoolId, input.TemporaryPassword);

    const answer = await forward(method, path, req.headers, body);
    if (answer.status === 200) {
      observe(operation, input, parseJson(answer.body));
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
