import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Duplex } from 'node:stream';
import { fileURLToPath } from 'node:url';
import type { CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { S3Client } from '@aws-sdk/client-s3';
import { makeSigningKeyPair, publicKeyOf } from '@tunesmith/functions/adapters/cloudfront/signing-key-pair';
import { messages } from '@tunesmith/shared/messages';
import { PRICING_PAGE_KEY, TRACK_FRAME_TEMPLATE } from '@tunesmith/shared/pages';
import { createDevMailHandler, isDevMailPath } from './dev-mail';
import {
  type Emulator,
  keptInCognito,
  launchCognito,
  launchS3,
  startDynamoDbLocal,
  startSes,
} from './emulators';
import type { LocalEnvName } from './env';
import { type Forwarder, startForwarder } from './forwarder';
import { answerClientError, answerOnSocket, createFrontDoor, type Route } from './front-door';
import { type LambdaEndpoint, startLambdaEndpoint } from './jobs/lambda-endpoint';
import { type LocalState, readMarker, readState, writeMarker, writeState } from './local-state';
import { withoutModuleHooks } from './module-hooks.mjs';
import type { MusicProvider } from './music/provider-server';
import { pageFirst } from './page-first';
import { choosePort, onPort } from './processes';
import { startStep, timed } from './start-timings';
import { createStaticHandler, securityHeaders } from './static';
import type { EmbeddedStripe } from './stripe/embedded-stripe';
import type { WorkflowRunner } from './workflow/runner';
import {
  type EndpointRunner,
  localStateMachineArn,
  type StepFunctionsEndpoint,
  startStepFunctionsEndpoint,
} from './workflow/sfn-endpoint';

export interface LocalCloudOptions {
  /** Port of the app server on 127.0.0.1; 0 picks a free one. */
  port: number;
  /** Where data persists between starts (`.data` for `npm start`). Unused when `persist` is false. */
  dataDir: string;
  /** Wipe `dataDir` before starting. */
  fresh: boolean;
  /** False: DynamoDB in memory and everything else in a temporary directory removed on stop (tests). */
  persist: boolean;
  /** The SPA through Vite's dev middleware, the built `web/dist`, or the API alone. */
  web: 'dev' | 'static' | 'none';
  /** Emulator ports; 0 or absent picks a free one. */
  ports?: Partial<{
    dynamodb: number;
    s3: number;
    cognito: number;
    ses: number;
    music: number;
    stepfunctions: number;
    stripe: number;
    lambda: number;
  }>;
  /** Mute emulator, Vite and handler logs (handler crashes are still reported). */
  quiet?: boolean;
  /** Called with the app's URL once its page is served, while the emulators may still be starting. */
  onPageServed?: (url: string) => void;
}

export interface LocalCloud {
  /** The one origin that serves the SPA and `/api`. */
  url: string;
  /** Every variable the functions read, as set in `process.env`. */
  env: Record<LocalEnvName, string>;
  /** The local admin account (admin pool). */
  admin: { username: string; password: string };
  /**
   * Process ids of the emulators' child processes, as they are now: SES's (and on a later
   * start cognito-local's) once it has started, after the routes open.
   */
  readonly pids: number[];
  /** Stops the server and every emulator; safe to call more than once. */
  stop(): Promise<void>;
}

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const webRoot = path.join(repoRoot, 'web');

/** Shared by every copy of this module in the process (test runners load their own copies). */
const runningCloud = Symbol.for('tunesmith.local-cloud.running');

const TABLE_NAME = 'tunesmith';
const REGION = 'us-east-1';
const UPLOADS_BUCKET = 'tunesmith-uploads';
const TRACKS_BUCKET = 'tunesmith-tracks';
/** Stands in for the site bucket: the share pages (decision 024). */
const SITE_BUCKET = 'tunesmith-site';
const STATE_MACHINE_ARN = localStateMachineArn(REGION, 'tunesmith-generation');
const JOBS_FUNCTION_NAME = 'tunesmith-jobs';
const WEBHOOKS_FUNCTION_NAME = 'tunesmith-webhook-delivery';
/** How often the local cloud sends the webhook deliveries that are due (EventBridge's rule on AWS). */
const WEBHOOK_SCHEDULE_MS = 60_000;
/**
 * How long the rest of the start-up waits, once the page's handler is ready, for a page
 * request to be answered first (a browser on the "starting" page reloads once a second).
 */
const PAGE_FIRST_MS = 250;
/** The route groups a first page asks: its session's and the plans'. */
const FIRST_PAGE_GROUPS = ['auth', 'catalog'] as const;

/**
 * What provisioning needs and the first page does not (the SDK clients and
 * the provisioning steps), loaded while the emulators boot.
 */
async function loadProvisioning() {
  const [dynamodb, documents, provision, plans, settings, interrupted] = await Promise.all([
    import('@aws-sdk/client-dynamodb'),
    import('@aws-sdk/lib-dynamodb'),
    import('./provision'),
    import('@tunesmith/functions/adapters/dynamo/plan-repository'),
    import('@tunesmith/functions/adapters/dynamo/settings-repository'),
    import('./workflow/interrupted'),
  ]);
  return {
    DynamoDBClient: dynamodb.DynamoDBClient,
    DynamoDBDocumentClient: documents.DynamoDBDocumentClient,
    ensureTable: provision.ensureTable,
    ensureSeed: provision.ensureSeed,
    ensurePools: provision.ensurePools,
    poolSettingsHash: provision.poolSettingsHash,
    ensureAdmin: provision.ensureAdmin,
    adminProfileExists: provision.adminProfileExists,
    ensurePlanPrices: provision.ensurePlanPrices,
    dynamoPlanRepository: plans.dynamoPlanRepository,
    dynamoSettingsRepository: settings.dynamoSettingsRepository,
    failInterruptedGenerations: interrupted.failInterruptedGenerations,
  };
}

/**
 * What the routes need beyond provisioning (the API adapter, the audio CDN),
 * loaded after it. The workflow runner's modules load once the routes are open.
 */
async function loadRouting() {
  const [s3, adapter, audio, share] = await Promise.all([
    import('@aws-sdk/client-s3'),
    import('./api-adapter'),
    import('./audio-cdn'),
    import('./share-pages'),
  ]);
  return {
    S3Client: s3.S3Client,
    claimHandlers: adapter.claimHandlers,
    createApiAdapter: adapter.createApiAdapter,
    lambdaLoader: adapter.lambdaLoader,
    createAudioHandler: audio.createAudioHandler,
    isAudioPath: audio.isAudioPath,
    createSharePageHandler: share.createSharePageHandler,
  };
}
type ApiModules = Awaited<ReturnType<typeof loadProvisioning>> & Awaited<ReturnType<typeof loadRouting>>;

/** A promise with its resolver at hand. */
function deferred<T>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve: (value: T) => void = () => {};
  const promise = new Promise<T>((settle) => {
    resolve = settle;
  });
  return { promise, resolve };
}

function assertWipeable(dir: string): void {
  const resolved = path.resolve(dir);
  const forbidden = [path.parse(resolved).root, os.homedir(), repoRoot.replace(/\/$/, ''), process.cwd()];
  if (forbidden.includes(resolved))
    throw new Error(`Refusing to wipe ${resolved}: choose a dedicated data directory`);
}

/**
 * Boots the local cloud on 127.0.0.1: the page's handler first (Vite or the
 * built files), served while the rest starts; then DynamoDB Local, cognito-local
 * (behind the proxy of cognito-proxy.ts), the embedded
 * music provider (music/provider-server.ts, fal's queue protocol) and the
 * embedded Stripe (stripe/embedded-stripe.ts) in parallel, each provisioned
 * as soon as it answers (table and seed data; pools; a product and prices for
 * every paid plan), then the first admin (identity and profile); then one HTTP
 * server that sends `/api/*` through the API Gateway adapter to the real
 * handlers, `/_dev/mail` to the local mailbox (dev-mail.ts), `/_dev/stripe` to
 * the Stripe test clock and everything else to the SPA, behind a front door
 * (front-door.ts) that checks the Host, keeps other sites out of `/_dev`, adds
 * nosniff to every answer and answers 503 until all of that is ready; and the
 * Step Functions endpoint (workflow/sfn-endpoint.ts, bound before the rest)
 * whose executions the local runner carries out with the workflow Lambdas' own
 * steps; and the Lambda endpoint (jobs/lambda-endpoint.ts, bound before the
 * rest too) that runs background jobs with the jobs function's handler in this
 * process, retried as Lambda retries. Then aws-ses-v2-local, whose address
 * (a forwarder's, bound with the rest) holds mail sent before it answers, and s3rver,
 * whose address (its signature-checking proxy's, s3-proxy.ts, bound first) does the same. With kept data, generations the last run left pending or generating
 * are failed first (workflow/interrupted.ts). While it runs,
 * `local-cloud.json` in the data directory says where (`running`).
 *
 * The handlers run in this process and read `process.env`, which this sets,
 * so one process runs one cloud at a time (and the handlers stay bound to the
 * first cloud that used them); `startLocalCloudProcess` runs more.
 */
export async function startLocalCloud(options: LocalCloudOptions): Promise<LocalCloud> {
  // The handlers read process.env, which this process has only one of.
  const registry = globalThis as { [runningCloud]?: boolean };
  if (registry[runningCloud]) {
    throw new Error(
      'A local cloud is already running in this process; stop it first or use startLocalCloudProcess.',
    );
  }
  const quiet = options.quiet ?? false;
  // The handlers' logger and metrics read their settings when their modules load, which may be
  // before the environment below is set: what a local cloud always or a quiet one sets is set first.
  if (quiet) process.env.LOG_LEVEL = 'silent';
  process.env.POWERTOOLS_METRICS_DISABLED = 'true';
  const temporary = !options.persist;
  const dataDir = temporary
    ? mkdtempSync(path.join(os.tmpdir(), 'tunesmith-local-'))
    : path.resolve(options.dataDir);
  if (options.fresh && !temporary) {
    assertWipeable(dataDir);
    rmSync(dataDir, { recursive: true, force: true });
  }
  const logDir = path.join(dataDir, 'logs');
  mkdirSync(logDir, { recursive: true });
  const stateFile = path.join(dataDir, 'local-cloud.json');

  registry[runningCloud] = true;
  const emulators: Emulator[] = [];
  let server: http.Server | undefined;
  let vite: DevWebHandler | undefined;
  let runner: WorkflowRunner | undefined;
  let runnerStarting: Promise<WorkflowRunner> | undefined;
  let analytics: (() => Promise<void>) | undefined;
  let webhookSchedule: (() => Promise<void>) | undefined;
  let stepFunctions: StepFunctionsEndpoint | undefined;
  let lambdaEndpoint: LambdaEndpoint | undefined;
  /** Set once the handlers are this cloud's (the app's URL), when jobs may run. */
  let jobsOwner: string | undefined;
  let audioStorage: S3Client | undefined;
  let settingsClient: DynamoDBClient | undefined;
  /** SES's start, asked for once the routes are open (or refused by a stop before that). */
  const sesLaunch = deferred<boolean>();
  let sesStarting: Promise<Emulator> | undefined;
  /** cognito-local's start, asked for at once, or on a later start once the routes are open (or refused by a stop). */
  const cognitoLaunch = deferred<boolean>();
  let cognitoStarting: Promise<Emulator> | undefined;
  let sesForwarder: Forwarder | undefined;
  /** s3rver's start (its proxy listens from the first), asked for once the routes are open (or refused by a stop). */
  const s3Launch = deferred<boolean>();
  let s3Starting: Promise<Emulator> | undefined;
  const exitHook = () => {
    for (const emulator of emulators) emulator.process?.signal();
  };
  process.once('exit', exitHook);

  /** Marks the state file as no longer running (set once the cloud runs). */
  let leaveState: (() => void) | undefined;
  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopping ??= (async () => {
      process.off('exit', exitHook);
      if (!temporary) {
        try {
          leaveState?.();
        } catch {
          // The data directory may be gone already; nothing to update then.
        }
      }
      if (server) {
        const closing = new Promise<void>((resolve) => server?.close(() => resolve()));
        server.closeAllConnections();
        await closing;
      }
      await vite?.close();
      // Executions still running would write to the emulators stopped below.
      (runner ?? (await runnerStarting?.catch(() => undefined)))?.stop();
      // A run still going would log the emulators stopped below as failures.
      await analytics?.();
      await webhookSchedule?.();
      await stepFunctions?.stop();
      // Retries still to come are dropped; a job under way fails against the emulators stopped below.
      await lambdaEndpoint?.stop();
      await sesForwarder?.close();
      // SES, cognito-local and s3rver may be booting still: each is stopped below with the rest once it is.
      sesLaunch.resolve(false);
      cognitoLaunch.resolve(false);
      s3Launch.resolve(false);
      await Promise.all([
        sesStarting?.catch(() => {}),
        cognitoStarting?.catch(() => {}),
        s3Starting?.catch(() => {}),
      ]);
      audioStorage?.destroy();
      settingsClient?.destroy();
      await Promise.all(emulators.map((emulator) => emulator.stop()));
      if (temporary) rmSync(dataDir, { recursive: true, force: true });
      registry[runningCloud] = false;
    })();
    return stopping;
  };

  try {
    const ports = options.ports ?? {};
    // Bound now, not probed: other clouds boot alongside (integration and e2e) and
    // would take a port left free until the emulators are up. Its executions
    // reach the runner, which needs the emulators, once that exists.
    stepFunctions = await startStepFunctionsEndpoint({
      port: ports.stepfunctions ?? 0,
      stateMachineArn: STATE_MACHINE_ARN,
      runner: runnerOnceStarted(
        () => runnerStarting,
        () => runner,
      ),
      onError: (error) => console.error('[stepfunctions] request failed', error),
    });
    // Bound now too, for the same reason; its jobs run the jobs handler once the environment is set.
    lambdaEndpoint = await startLambdaEndpoint({
      port: ports.lambda ?? 0,
      functions: {
        [JOBS_FUNCTION_NAME]: (event) => runJob(jobsOwner, event),
        [WEBHOOKS_FUNCTION_NAME]: (event) => runWebhookDelivery(jobsOwner, event),
      },
      onRetry: ({ attempt, error }) => {
        if (!quiet) console.error(`[jobs] attempt ${attempt} failed; retrying`, error);
      },
      // Where Lambda would send the event to the failed-events queue.
      onFailure: ({ event, attempts, error }) =>
        console.error(`[jobs] job failed ${attempts} times and is dropped`, describeJob(event), error),
      onError: (error) => console.error('[lambda] request failed', error),
    });
    const [dynamoPort, s3Port, cognitoPort, sesPort, musicPort, stripePort] = await Promise.all([
      choosePort(ports.dynamodb, 'DynamoDB Local', 'DYNAMODB_PORT'),
      choosePort(ports.s3, 's3rver', 'S3_PORT'),
      choosePort(ports.cognito, 'cognito-local', 'COGNITO_PORT'),
      choosePort(ports.ses, 'aws-ses-v2-local', 'SES_PORT'),
      choosePort(ports.music, 'the music provider', 'MUSIC_PORT'),
      choosePort(ports.stripe, 'the embedded Stripe', 'STRIPE_PORT'),
    ]);
    // Credentials the emulators accept; our own clients and the handlers' share them.
    const credentials = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };
    const client = { region: REGION, credentials };
    const saved = readState(stateFile);
    // What a later start may skip (local-state.ts); a temporary cloud starts empty and provisions everything.
    const markerFile = path.join(dataDir, 'provisioned.json');
    const marker = temporary ? {} : readMarker(markerFile);
    const track = <T extends Emulator>(emulator: T): T => {
      emulators.push(emulator);
      return emulator;
    };
    // The front door answers every request from the moment the server listens: until the
    // routes below are open, with a 503 the client may retry (never a request left waiting).
    const appServer = http.createServer();
    // Read once when the server listens rather than asked of the socket per request; 0 before
    // that and once closed, so a request still arriving then is refused rather than thrown on.
    let listeningPort = 0;
    appServer.on('listening', () => {
      listeningPort = (appServer.address() as AddressInfo).port;
    });
    appServer.on('close', () => {
      listeningPort = 0;
    });
    const frontDoor = createFrontDoor({ port: () => listeningPort });
    appServer.on('request', frontDoor.listener);
    appServer.on('clientError', answerClientError);
    server = appServer;
    const port = await listen(appServer, options.port);
    const url = `http://127.0.0.1:${port}`;
    startStep('app port listening');

    // The page first: its handler (Vite's is a large import and a config to load) gets this
    // process's thread to itself, then the emulators are launched and everything else loads.
    // Measured on two cores: started alongside the emulators' processes, Vite was ready only
    // after them. DynamoDB Local alone is launched before it: its JVM, the longest pole of the
    // API's start, boots on the other core meanwhile (a third of a second sooner answered, the
    // page a little later). The page's content security policy names the storage endpoint it
    // uploads to (the S3 proxy's): known up front on a set port; on a free one (tests), the
    // page waits for storage.
    const launched: Promise<unknown>[] = [];
    const launch = <T>(start: (onSpawn: () => void) => Promise<T>): Promise<T> => {
      let spawned: () => void = () => {};
      launched.push(new Promise<void>((resolve) => (spawned = resolve)));
      const started = start(spawned);
      // A start that fails before its process runs must not hold up the rest; its error is reported below.
      started.then(spawned, spawned);
      // Handled here, awaited below: a failure while this waits must not count as unhandled.
      started.catch(() => {});
      return started;
    };
    const launchDynamoDb = () =>
      timed(
        'dynamodb answers',
        launch((onSpawn) =>
          onPort(dynamoPort, (port) =>
            startDynamoDbLocal({
              port,
              logDir,
              onSpawn,
              ...(temporary ? {} : { dbDir: path.join(dataDir, 'dynamodb') }),
            }),
          ),
        ),
      ).then(track);
    const dynamoStarted = launchDynamoDb();
    // Stands in for the CloudFront key pair that signs play and download links (decision 008);
    // a new one (a first start, a temporary cloud) is made on the thread pool while the rest starts.
    const audioKeyMade = audioSigningKey(temporary ? undefined : path.join(dataDir, 'audio-signing.pem'));
    audioKeyMade.catch(() => {}); // awaited, and so reported, below
    // The storage endpoint is its proxy's, which listens from now on and holds what comes for
    // s3rver; s3rver itself (a large module graph, a sixth of a second of CPU measured) loads once
    // the routes are open and the first page's handlers loaded: nothing before that needs it.
    const s3Held = await launchS3({
      port: s3Port,
      dir: path.join(dataDir, 's3'),
      buckets: [UPLOADS_BUCKET, TRACKS_BUCKET, SITE_BUCKET],
      credentials,
      launch: s3Launch.promise,
    });
    s3Starting = timed('s3 ready', s3Held.started).then(track);
    const webStarted = createWebHandler(options.web, appServer, {
      quiet,
      connectSources: [s3Held.endpoint],
    });
    // A page that cannot be served (static mode before a build) fails the start before anything else runs.
    await webStarted;
    const webReady = webStarted.then((handler) => {
      startStep('web handler ready');
      if (handler) options.onPageServed?.(url);
      if (handler && 'warm' in handler) vite = handler;
      return handler;
    });
    // The page answers as soon as its handler is ready; what needs the rest waits for it (see pageFirst).
    const apiOpen = deferred<Route>();
    const pageServed = deferred<void>();
    webReady.then(
      (handler) => {
        if (handler)
          frontDoor.open(
            pageFirst(
              (req, res) => handler.handle(req, res).finally(() => pageServed.resolve()),
              apiOpen.promise,
              (res, error) => failRequest(res, error),
            ),
          );
      },
      () => {},
    );

    // cognito-local runs as a process of its own, launched now so that it boots while this
    // process loads the modules of everything else; unless this is a later start whose pools and
    // admin are in its files as the last start left them: then nothing needs it to open the
    // routes, and it boots once they are open, out of the way of the JVM's boot (half a second
    // of CPU, measured, on two cores). Its proxy listens from now on (COGNITO_PORT) and holds
    // what comes for it before it answers.
    const cognitoDir = path.join(dataDir, 'cognito');
    const kept = temporary ? undefined : keptInCognito(cognitoDir, saved);
    if (!kept) cognitoLaunch.resolve(true);
    let cognitoSpawned: () => void = () => {};
    if (!kept) launched.push(new Promise<void>((resolve) => (cognitoSpawned = resolve)));
    const cognitoHeld = launchCognito({
      port: cognitoPort,
      dir: cognitoDir,
      logDir,
      launch: cognitoLaunch.promise,
      onSpawn: () => cognitoSpawned(),
    });
    cognitoStarting = cognitoHeld.then((held) => timed('cognito answers', held.started)).then(track);
    const cognitoStarted = cognitoStarting;
    // A start that fails before its process runs must not hold up the rest; its error is reported below.
    cognitoStarted.then(
      () => cognitoSpawned(),
      () => cognitoSpawned(),
    );
    // Nothing needs SES to open the routes: its process (a third of a second of CPU, measured)
    // boots once they are open rather than beside the JVM's, and its clients
    // are given a forwarder's address (SES_PORT), which holds what comes for it before it answers.
    sesStarting = sesLaunch.promise.then((launched) => {
      if (!launched) throw new Error('the local cloud stopped before SES started');
      return timed(
        'ses answers',
        onPort(undefined, (port) => startSes({ port, logDir })),
      ).then(track);
    });
    const sesStarted = startForwarder({
      port: sesPort,
      upstream: sesStarting.then((ses) => ses.endpoint),
      name: 'aws-ses-v2-local',
    }).then((forwarder) => (sesForwarder = forwarder));
    await Promise.all(launched);
    startStep('emulator processes launched');
    // A page request that comes in now is answered before this thread loads the rest (seconds of
    // module loading on a busy machine, which Vite's many asynchronous steps would otherwise wait
    // behind in turn); the rest waits for that answer, or PAGE_FIRST_MS without one.
    if (options.web !== 'none') {
      await Promise.race([
        pageServed.promise,
        webReady.then(
          () => new Promise((resolve) => setTimeout(resolve, PAGE_FIRST_MS)),
          () => {},
        ),
      ]);
      startStep('page first');
    }
    const modules = timed('provisioning modules loaded', loadProvisioning());
    const routing = timed(
      'routing modules loaded',
      modules.then(
        () => loadRouting(),
        () => loadRouting(),
      ),
    );
    // The handlers a first page asks (the session's and the plans'), loaded while the emulators
    // boot, so that its first requests are answered as the routes open.
    const firstHandlers = timed(
      'first handlers loaded',
      routing.then((r) => Promise.all(FIRST_PAGE_GROUPS.map((group) => r.lambdaLoader(url)(group)))),
    );
    firstHandlers.catch(() => {});
    // Each emulator is provisioned as soon as it answers and the modules that do it are loaded.
    const dynamoReady = Promise.all([dynamoStarted, modules]).then(async ([dynamodb, m]) => {
      const dynamoClient = new m.DynamoDBClient({ ...client, endpoint: dynamodb.endpoint });
      try {
        const table = await m.ensureTable(dynamoClient, TABLE_NAME);
        startStep('table ready');
        if (table.indexesAdded.length && !quiet)
          console.log(`[local] added the index(es) ${table.indexesAdded.join(', ')} to the table`);
        const documents = m.DynamoDBDocumentClient.from(dynamoClient, {
          marshallOptions: { removeUndefinedValues: true },
        });
        const [seed] = await Promise.all([
          m.ensureSeed(
            {
              plans: m.dynamoPlanRepository(documents, TABLE_NAME),
              settings: m.dynamoSettingsRepository(documents, TABLE_NAME),
            },
            { tableCreated: table.created, appliedHash: marker.seed },
          ),
          // Kept data may hold generations whose executions ended with the last run.
          !temporary && !table.created
            ? m.failInterruptedGenerations(documents, TABLE_NAME).then((interrupted) => {
                if (interrupted.length && !quiet)
                  console.log(`[local] marked ${interrupted.length} interrupted generation(s) failed`);
              })
            : undefined,
        ]);
        startStep('dynamodb provisioned');
        return { dynamodb, seedHash: seed.hash };
      } finally {
        dynamoClient.destroy();
      }
    });
    /**
     * Runs `use` with a client of cognito-local, launched now if it was waiting for the routes.
     * The SDK's client is loaded here: a later start whose pools and admin are kept never asks.
     */
    const withCognito = async <T>(
      endpoint: string,
      use: (cognito: CognitoIdentityProviderClient) => Promise<T>,
    ): Promise<T> => {
      cognitoLaunch.resolve(true);
      const [{ CognitoIdentityProviderClient: Client }] = await Promise.all([
        import('@aws-sdk/client-cognito-identity-provider'),
        cognitoStarted,
      ]);
      const cognitoClient = new Client({ ...client, endpoint });
      try {
        return await use(cognitoClient);
      } finally {
        cognitoClient.destroy();
      }
    };
    const cognitoReady = Promise.all([cognitoHeld, modules]).then(async ([{ endpoint }, m]) => {
      if (kept && marker.pools === m.poolSettingsHash) {
        const { admin: _admin, ...pools } = kept;
        startStep('pools ready');
        return { endpoint, pools, kept: true };
      }
      // Made, or their settings changed since: cognito-local makes or updates them.
      const pools = await withCognito(endpoint, (cognito) => m.ensurePools(cognito, saved, marker.pools));
      startStep('pools ready');
      return { endpoint, pools, kept: false };
    });
    // The first admin needs both the admin pool and the table (its profile).
    const adminReady = Promise.all([dynamoReady, cognitoReady, modules]).then(
      async ([{ dynamodb }, { endpoint, pools, kept: poolsKept }, m]) => {
        const dynamoClient = new m.DynamoDBClient({ ...client, endpoint: dynamodb.endpoint });
        const documents = m.DynamoDBDocumentClient.from(dynamoClient, {
          marshallOptions: { removeUndefinedValues: true },
        });
        try {
          // Its identity is in cognito-local's files (kept): with its profile in the table, it is whole.
          const admin =
            poolsKept && kept && (await m.adminProfileExists(documents, TABLE_NAME, kept.admin.username))
              ? kept.admin
              : await withCognito(endpoint, (cognito) =>
                  m.ensureAdmin(
                    {
                      cognito,
                      cognitoEndpoint: endpoint,
                      adminPoolId: pools.adminPoolId,
                      adminPoolClientId: pools.adminPoolClientId,
                      documents,
                      tableName: TABLE_NAME,
                    },
                    saved?.adminPoolId === pools.adminPoolId ? saved.admin : undefined,
                  ),
                );
          writeState(stateFile, { ...pools, admin });
          startStep('admin ready');
          return admin;
        } finally {
          dynamoClient.destroy();
        }
      },
    );
    // The embedded Stripe and the music provider run in this process, loaded once the page is served:
    // each keeps its data beside the others' (none for a temporary cloud), logs under its name
    // unless quiet, and is stopped with the emulators once it answers.
    const inProcess = async <S extends { url: string; stop(): Promise<void> }>(
      name: string,
      step: string,
      start: (options: { port: number; dataDir?: string; log?: (line: string) => void }) => Promise<S>,
      key: 'stripe' | 'music',
      port: number,
    ): Promise<S> => {
      const service = await start({
        port,
        ...(temporary ? {} : { dataDir: path.join(dataDir, key) }),
        ...(quiet ? {} : { log: (line: string) => console.log(`[${key}] ${line}`) }),
      });
      startStep(step);
      track({ name, endpoint: service.url, stop: () => service.stop() });
      return service;
    };
    const stripeModule = import('./stripe/embedded-stripe');
    const stripeReady = stripeModule.then(({ startEmbeddedStripe }) =>
      inProcess('embedded Stripe', 'stripe answers', startEmbeddedStripe, 'stripe', stripePort),
    );
    // Checkout works out of the box: every paid plan gets a product and prices in the embedded Stripe.
    const pricesReady = Promise.all([dynamoReady, stripeReady, modules]).then(
      async ([{ dynamodb }, stripe, m]) => {
        const dynamoClient = new m.DynamoDBClient({ ...client, endpoint: dynamodb.endpoint });
        try {
          const plans = m.dynamoPlanRepository(
            m.DynamoDBDocumentClient.from(dynamoClient, { marshallOptions: { removeUndefinedValues: true } }),
            TABLE_NAME,
          );
          const prices = await m.ensurePlanPrices(
            {
              plans,
              stripe,
              sync: async () => {
                // The Stripe SDK is loaded only when there is something to sync.
                const [{ stripePayments }, { syncPlanPrices }] = await Promise.all([
                  import('@tunesmith/functions/adapters/stripe/stripe-payments'),
                  import('@tunesmith/functions/domain/billing/plan-prices'),
                ]);
                const secretKey = stripe.env.STRIPE_SECRET_KEY;
                await syncPlanPrices({
                  plans,
                  catalog: stripePayments({ keys: async () => ({ secretKey }), apiBase: stripe.url }),
                  clock: { now: () => new Date() },
                });
              },
            },
            marker.prices,
          );
          startStep('plan prices ready');
          // The built pricing page gets the plans for a browser without scripts, as a deploy's does (decision 038).
          if (options.web === 'static') {
            const [{ filePricingPage }, { refreshPricingPage }] = await Promise.all([
              import('@tunesmith/functions/adapters/share/pricing-page'),
              import('@tunesmith/functions/domain/plans/pricing-page'),
            ]);
            await refreshPricingPage({
              plans,
              page: filePricingPage(path.join(webRoot, 'dist', PRICING_PAGE_KEY)),
            });
          }
          return prices.hash;
        } finally {
          dynamoClient.destroy();
        }
      },
    );
    const results = await Promise.allSettled([
      dynamoReady,
      cognitoReady,
      sesStarted,
      import('./music/provider-server').then(({ startMusicProvider }) =>
        inProcess('music provider', 'music provider answers', startMusicProvider, 'music', musicPort),
      ),
      webReady,
      adminReady,
      stripeReady,
      pricesReady,
      Promise.all([modules, routing]).then(([provisioning, routes]) => ({ ...provisioning, ...routes })),
    ]);
    // The admin step fails with its prerequisites' error; report each error once.
    const failures = [
      ...new Set(results.flatMap((result) => (result.status === 'rejected' ? [result.reason] : []))),
    ];
    if (failures.length) {
      throw failures.length === 1
        ? failures[0]
        : new AggregateError(
            failures,
            failures.map((f) => (f instanceof Error ? f.message : String(f))).join('\n\n'),
          );
    }
    const [
      { dynamodb, seedHash },
      { endpoint: cognitoEndpoint, pools },
      ses,
      music,
      webHandler,
      admin,
      stripe,
      pricesHash,
      m,
    ] = results.map((result) => (result as PromiseFulfilledResult<unknown>).value) as [
      { dynamodb: Emulator; seedHash: string },
      { endpoint: string; pools: Omit<LocalState, 'admin' | 'running'> },
      Forwarder,
      MusicProvider,
      WebHandler | undefined,
      LocalState['admin'],
      EmbeddedStripe,
      string,
      ApiModules,
    ];
    if (!temporary)
      writeMarker(markerFile, { seed: seedHash, pools: m.poolSettingsHash, prices: pricesHash });
    const audioKey = await audioKeyMade;

    const env: Record<LocalEnvName, string> = {
      TABLE_NAME,
      AWS_REGION: REGION,
      AWS_ACCESS_KEY_ID: credentials.accessKeyId,
      AWS_SECRET_ACCESS_KEY: credentials.secretAccessKey,
      AWS_REQUEST_CHECKSUM_CALCULATION: 'WHEN_REQUIRED',
      AWS_RESPONSE_CHECKSUM_VALIDATION: 'WHEN_REQUIRED',
      DYNAMODB_ENDPOINT: dynamodb.endpoint,
      S3_ENDPOINT: s3Held.endpoint,
      S3_FORCE_PATH_STYLE: 'true',
      UPLOADS_BUCKET,
      TRACKS_BUCKET,
      SITE_BUCKET,
      // Share pages are written from the built track frame template, else a shell (read at write time).
      SHARE_TEMPLATE_FILE: [
        path.join(webRoot, 'dist', TRACK_FRAME_TEMPLATE),
        path.join(webRoot, 'dist', 'index.html'),
        path.join(webRoot, 'index.html'),
      ].join(path.delimiter),
      // The pricing page's document is the built one the local server serves (static mode; Vite's pages
      // have no documents): the plans are filled in there. Without it, the site bucket has none to fill.
      PRICING_PAGE_FILE: options.web === 'static' ? path.join(webRoot, 'dist', PRICING_PAGE_KEY) : '',
      COGNITO_ENDPOINT: cognitoEndpoint,
      USER_POOL_ID: pools.userPoolId,
      USER_POOL_CLIENT_ID: pools.userPoolClientId,
      ADMIN_POOL_ID: pools.adminPoolId,
      ADMIN_POOL_CLIENT_ID: pools.adminPoolClientId,
      SES_ENDPOINT: ses.url,
      FAL_BASE_URL: music.env.FAL_BASE_URL,
      FAL_WEBHOOK_JWKS_URL: music.env.FAL_WEBHOOK_JWKS_URL,
      FAL_KEY: music.env.FAL_KEY,
      STRIPE_API_BASE: stripe.env.STRIPE_API_BASE,
      STRIPE_SECRET_KEY: stripe.env.STRIPE_SECRET_KEY,
      STRIPE_WEBHOOK_SECRET: stripe.env.STRIPE_WEBHOOK_SECRET,
      STEPFUNCTIONS_ENDPOINT: stepFunctions.url,
      STATE_MACHINE_ARN,
      LAMBDA_ENDPOINT: lambdaEndpoint.url,
      JOBS_FUNCTION_NAME,
      WEBHOOKS_FUNCTION_NAME,
      // Webhooks reach listeners on 127.0.0.1 over http here only (decision 053).
      WEBHOOKS_ALLOW_LOOPBACK: 'true',
      // The provider posts its webhooks to /api/webhooks/fal on this same server.
      WEBHOOK_BASE_URL: url,
      MAIL_FROM: process.env.MAIL_FROM || 'Tunesmith <no-reply@tunesmith.local>',
      SITE_NAME: process.env.SITE_NAME || 'Tunesmith',
      // Stands in for the KMS key that seals secret settings on AWS.
      SETTINGS_LOCAL_KEY: settingsKey(temporary ? undefined : path.join(dataDir, 'settings.key')),
      AUDIO_SIGNING_KEY_PAIR_ID: audioKey.keyPairId,
      AUDIO_SIGNING_PRIVATE_KEY: audioKey.privateKey,
      // The one-origin server stands where CloudFront stands on AWS: one trusted hop.
      TRUSTED_PROXY_HOPS: '1',
      // Links in mail and the Origin check name the one URL this cloud prints.
      PUBLIC_ORIGIN: url,
      // Keys made here are marked as keys of a local cloud (decision 052).
      API_KEY_MODE: 'test',
      LOG_LEVEL: quiet ? 'silent' : process.env.LOG_LEVEL || 'info',
      // CloudWatch reads the metrics from Lambda's log; here they would only clutter the output.
      POWERTOOLS_METRICS_DISABLED: 'true',
    };
    Object.assign(process.env, env);
    // The workflow's steps build their clients from the environment just set.
    // Tools such as `npm run admin:create -- --local` find this cloud through the state file.
    writeState(stateFile, { ...pools, admin, running: { pid: process.pid, url, env } });
    leaveState = () => writeState(stateFile, { ...pools, admin });

    // The daily usage_analytics job: once now (the day that ended), then after every midnight UTC.
    // Only where this process's function modules serve this cloud (see claimHandlers).
    if (m.claimHandlers(url)) analytics = startDailyAnalytics(quiet);
    jobsOwner = url;
    // Webhook deliveries that are due (retries, and any whose start was lost), every minute as on AWS.
    if (m.claimHandlers(url))
      webhookSchedule = startEveryMinute(() => runWebhookDelivery(url, { source: 'local.schedule' }), quiet);
    const api = m.createApiAdapter({ loadHandler: m.lambdaLoader(url) });
    const mailbox = createDevMailHandler(ses.url);
    // Stripe posts its events to the webhook route on this same server, as it would to CloudFront.
    stripe.setWebhookUrl(`${url}/api/webhooks/stripe`);
    // Checkout and the portal name the business as the site names itself (Site Name), as a Stripe account's public name would.
    settingsClient = new m.DynamoDBClient({ ...client, endpoint: dynamodb.endpoint });
    const siteSettings = m.dynamoSettingsRepository(
      m.DynamoDBDocumentClient.from(settingsClient),
      TABLE_NAME,
    );
    stripe.setBusinessName(async () => (await siteSettings.get('site_name'))?.value);
    const { createTestClockHandler, isDevStripePath } = await stripeModule;
    const testClock = createTestClockHandler(stripe);
    audioStorage = new m.S3Client({
      region: REGION,
      credentials,
      endpoint: s3Held.endpoint,
      forcePathStyle: true,
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
    // The distribution's /tracks/* behaviour: signed links only, checked as CloudFront checks them.
    const audio = m.createAudioHandler({
      s3: audioStorage,
      bucket: TRACKS_BUCKET,
      publicKeys: { [audioKey.keyPairId]: audioKey.publicKey },
      headers: securityHeaders({ https: false }),
    });
    // The edge's /track/{id} share pages; the dev server's shell is Vite's own, so dev mode serves the shell only.
    const sharePages = m.createSharePageHandler({
      s3: audioStorage,
      bucket: SITE_BUCKET,
      headers: securityHeaders({ https: false }),
    });
    const web = (req: http.IncomingMessage, res: http.ServerResponse) =>
      webHandler ? webHandler.handle(req, res) : Promise.resolve(notFound(res));
    let answered = false;
    const firstAnswer = () => {
      if (!answered) startStep('first API answer');
      answered = true;
    };
    const route: Route = (req, res) => {
      const target = req.url ?? '/';
      if (target === '/api' || target.startsWith('/api/') || target.startsWith('/api?')) {
        api.handle(req, res).then(firstAnswer, (error: unknown) => failRequest(res, error));
      } else if (isDevMailPath(target)) {
        mailbox(req, res).catch((error: unknown) => failRequest(res, error));
      } else if (isDevStripePath(target)) {
        testClock(req, res).catch((error: unknown) => failRequest(res, error));
      } else if (m.isAudioPath(target)) {
        audio(req, res).catch((error: unknown) => failRequest(res, error));
      } else if (options.web !== 'dev') {
        sharePages(req, res, () => web(req, res)).catch((error: unknown) => failRequest(res, error));
      } else {
        web(req, res).catch((error: unknown) => failRequest(res, error));
      }
    };
    frontDoor.open(route);
    apiOpen.resolve(route);
    startStep('routes open');
    sesLaunch.resolve(true);
    sesStarting.catch((error: unknown) => {
      if (!stopping) console.error('[ses] aws-ses-v2-local did not start:', error);
    });
    cognitoLaunch.resolve(true);
    cognitoStarting.catch((error: unknown) => {
      if (!stopping) console.error('[cognito] cognito-local did not start:', error);
    });
    // The first page asks for plans and the session: the handlers are imported now, theirs
    // first, while the browser opens; what is not needed to answer waits for that.
    const answering =
      options.web === 'none'
        ? Promise.resolve()
        : api.warm().catch((error: unknown) => console.error('[api] warm-up failed', error));
    // The workflow runner's library (which loads a JSON-schema compiler to validate state
    // machines) loads next; a generation started meanwhile waits for it at the Step Functions
    // endpoint (runnerOnceStarted).
    runnerStarting = answering.then(startWorkflowRunner);
    // s3rver too: what comes for it meanwhile (an upload, a track's audio) waits at its proxy.
    answering.then(() => s3Launch.resolve(true));
    s3Starting.catch((error: unknown) => {
      if (!stopping) console.error('[s3] s3rver did not start:', error);
    });
    runnerStarting.then(
      (started) => {
        runner = started;
        startStep('workflow runner ready');
      },
      (error: unknown) => console.error('[workflow] the local workflow runner did not start:', error),
    );
    // Then Vite's transforms of the app's modules, which its page would have started on the
    // first request (see createWebHandler); a browser asking for a module sooner has it made then.
    answering.then(() =>
      vite?.warm().catch((error: unknown) => console.error('[vite] warm-up failed', error)),
    );

    return {
      url,
      env,
      admin,
      get pids() {
        return emulators.flatMap((emulator) => (emulator.process ? [emulator.process.pid] : []));
      },
      stop,
    };
  } catch (error) {
    await stop().catch(() => {});
    throw error;
  }
}

function notFound(res: http.ServerResponse): void {
  res.writeHead(404, { 'content-type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify({ message: messages.notFound }));
}

/**
 * The local cloud's key for secret settings: 32 random bytes kept in the data
 * directory (made on first start, readable only by its owner); a temporary
 * cloud gets a fresh one.
 */
function settingsKey(file: string | undefined): string {
  if (file && existsSync(file)) return readFileSync(file, 'utf8').trim();
  const key = randomBytes(32).toString('base64');
  if (file) writeFileSync(file, `${key}\n`, { mode: 0o600 });
  return key;
}

/**
 * The local cloud's audio signing key: an RSA pair whose private key is kept
 * in the data directory (made on first start, readable only by its owner), so
 * links handed out before a restart still play; a temporary cloud gets a
 * fresh one. Its id is derived from the public key, as a new CloudFront key
 * gets a new id.
 */
async function audioSigningKey(file: string | undefined): Promise<{
  keyPairId: string;
  privateKey: string;
  publicKey: string;
}> {
  const stored = file && existsSync(file) ? readFileSync(file, 'utf8') : undefined;
  const storedPublic = stored ? publicKeyOf(stored) : undefined;
  const pair =
    stored && storedPublic ? { privateKey: stored, publicKey: storedPublic } : await makeSigningKeyPair();
  if (file && pair.privateKey !== stored) writeFileSync(file, pair.privateKey, { mode: 0o600 });
  const keyPairId = `KLOCAL${createHash('sha256').update(pair.publicKey).digest('hex').slice(0, 8).toUpperCase()}`;
  return { keyPairId, privateKey: pair.privateKey.trim(), publicKey: pair.publicKey };
}

/** Runs the analytics handler now and a few minutes after each midnight UTC; returns its stopper, which waits for a run under way. */
function startDailyAnalytics(quiet: boolean): () => Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  let stopped = false;
  const run = async () => {
    try {
      const { handler } = await import('@tunesmith/functions/lambdas/analytics');
      const result = await handler();
      if (!quiet && result.written) console.log(`[local] usage analytics recorded for ${result.date}`);
    } catch (error) {
      console.error('[local] usage analytics failed', error);
    }
  };
  const schedule = () => {
    if (stopped) return;
    const next = new Date();
    next.setUTCHours(24, 5, 0, 0);
    timer = setTimeout(() => {
      running = run().finally(schedule);
    }, next.getTime() - Date.now());
    timer.unref();
  };
  running = run();
  schedule();
  return async () => {
    stopped = true;
    clearTimeout(timer);
    await running;
  };
}

/** Runs `run` every minute (the webhook schedule); returns its stopper, which waits for a run under way. */
function startEveryMinute(run: () => Promise<unknown>, quiet: boolean): () => Promise<void> {
  let running: Promise<void> = Promise.resolve();
  const timer = setInterval(() => {
    running = running.then(() =>
      run().then(
        () => undefined,
        (error: unknown) => {
          if (!quiet) console.error('[local] webhook delivery failed', error);
        },
      ),
    );
  }, WEBHOOK_SCHEDULE_MS);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}

/** Runs the webhook delivery function's own handler in this process, for the cloud at `owner` (see runJob). */
async function runWebhookDelivery(owner: string | undefined, event: unknown): Promise<void> {
  if (!owner) throw new Error('The local cloud has not started: no webhook can be delivered yet');
  const { claimHandlers } = await import('./api-adapter');
  if (!claimHandlers(owner))
    throw new Error(
      'The handlers in this process serve another local cloud; this one cannot deliver webhooks',
    );
  const { handler } = await import('@tunesmith/functions/lambdas/webhook-delivery');
  await handler(event);
}

/**
 * The local runner on the workflow Lambdas' own dependencies. It answers the
 * wait task in process, so the steps' Step Functions callbacks are left out;
 * the webhook route still reaches it through the endpoint, as on AWS.
 */
async function startWorkflowRunner(): Promise<WorkflowRunner> {
  const [{ workflowDepsFromEnv }, { createWorkflowRunner }] = await Promise.all([
    import('@tunesmith/functions/lambdas/workflow'),
    import('./workflow/runner'),
  ]);
  const { tasks: _answeredInProcess, ...deps } = workflowDepsFromEnv();
  return createWorkflowRunner(deps, {
    validatedDir: path.join(repoRoot, 'node_modules', '.cache', 'tunesmith-workflow'),
  });
}

/**
 * The runner for an endpoint bound before it exists: its URL is published with the
 * environment, before the runner has started (once the routes are open). A call that
 * comes earlier waits for it; until it has started, no execution exists.
 */
function runnerOnceStarted(
  starting: () => Promise<WorkflowRunner> | undefined,
  current: () => WorkflowRunner | undefined,
): EndpointRunner {
  const started = async () => {
    const runner = await starting();
    if (!runner) throw new Error('The workflow runner has not started');
    return runner;
  };
  return {
    startExecution: async (request) => (await started()).startExecution(request),
    sendTaskSuccess: async (taskToken, output) => (await started()).sendTaskSuccess(taskToken, output),
    sendTaskFailure: async (taskToken, error, cause) =>
      (await started()).sendTaskFailure(taskToken, error, cause),
    describe: (name) => current()?.describe(name),
  };
}

/**
 * Runs a background job with the jobs function's own handler, in this
 * process, for the cloud at `owner` (see claimHandlers: the handlers of a
 * process serve one cloud).
 */
async function runJob(owner: string | undefined, event: unknown): Promise<void> {
  if (!owner) throw new Error('The local cloud has not started: no job can run yet');
  const { claimHandlers } = await import('./api-adapter');
  if (!claimHandlers(owner))
    throw new Error('The handlers in this process serve another local cloud; this one cannot run jobs');
  const { handler } = await import('@tunesmith/functions/lambdas/jobs');
  await handler(event);
}

/** A job event's kind and ids, for a log line. */
function describeJob(event: unknown): string {
  const { kind, userId, exportId } = (event ?? {}) as Record<string, unknown>;
  return JSON.stringify({ kind, userId, exportId });
}

/** A request that failed outside any handler (client went away, file vanished). */
function failRequest(res: http.ServerResponse, error: unknown): void {
  if ((error as { code?: string }).code !== 'ECONNRESET') console.error('[local] request failed', error);
  if (!res.headersSent) {
    res.writeHead(500, { 'content-type': 'application/json; charset=utf-8' });
    res.end(JSON.stringify({ message: 'Internal Server Error' }));
  } else {
    res.destroy();
  }
}

function listen(server: http.Server, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'EADDRINUSE'
          ? new Error(`Port ${port} is in use (is another local cloud running?). Stop it or set PORT.`)
          : error,
      ),
    );
    server.listen(port, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
  });
}

interface WebHandler {
  handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void>;
}

/** Vite's: stopped with the cloud, and warmed once the API has answered. */
interface DevWebHandler extends WebHandler {
  close(): Promise<void>;
  /** Transforms the app's entry and, from then on as it would have, every module it imports. */
  warm(): Promise<void>;
}

async function createWebHandler(
  mode: LocalCloudOptions['web'],
  server: http.Server,
  options: { quiet: boolean; connectSources: string[] },
): Promise<WebHandler | DevWebHandler | undefined> {
  if (mode === 'none') return undefined;
  if (mode === 'static') {
    const dist = path.join(webRoot, 'dist');
    if (!existsSync(path.join(dist, 'index.html'))) {
      throw new Error(`${dist}/index.html not found: build the SPA first (npm run build)`);
    }
    return {
      handle: createStaticHandler(
        dist,
        securityHeaders({ https: false, connectSources: options.connectSources }),
      ),
    };
  }
  const { createServer } = await import('vite');
  // Its config imports Tailwind's plugin, which would slow every import after it (module-hooks.mjs).
  const vite = await withoutModuleHooks(() =>
    createServer({
      root: webRoot,
      appType: 'spa',
      logLevel: options.quiet ? 'silent' : 'info',
      clearScreen: false,
      // Vite transforms the modules a page imports (and theirs) as soon as it serves the page:
      // a second of work on both cores while the emulators boot. Off until the API has answered,
      // then on again as it would have been (warm).
      server: { middlewareMode: true, hmr: { server }, preTransformRequests: false },
    }),
  );
  // With Vite's HMR listener attached, Node hands every upgrade request to the upgrade
  // listeners alone, and Vite leaves those that are not its own open: answer them.
  server.on('upgrade', (req: http.IncomingMessage, socket: Duplex) => {
    const protocol = req.headers['sec-websocket-protocol'];
    const pathname = (req.url ?? '/').split('?', 1)[0];
    if ((protocol === 'vite-hmr' || protocol === 'vite-ping') && pathname === '/') return;
    answerOnSocket(socket, 404, 'Not Found', messages.notFound);
  });
  // Vite's dev client needs inline scripts, so the CSP applies to the built SPA only.
  const headers = securityHeaders({ https: false, csp: false });
  return {
    handle: (req, res) =>
      new Promise<void>((resolve) => {
        for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
        res.once('finish', resolve);
        res.once('close', resolve);
        vite.middlewares(req, res, (error?: unknown) => {
          if (error) console.error('[vite]', error);
          res.writeHead(error ? 500 : 404, { 'content-type': 'text/plain; charset=utf-8' });
          res.end(error ? 'Internal Server Error' : 'Not Found');
        });
      }),
    close: () => vite.close(),
    warm: async () => {
      vite.config.server.preTransformRequests = true;
      const client = vite.environments.client;
      client.config.dev.preTransformRequests = true;
      await client.warmupRequest('/src/main.tsx');
    },
  };
}
