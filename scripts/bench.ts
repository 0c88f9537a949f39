/**
 * `npm run bench`: a short performance report (a report, never a pass/fail gate).
 *
 * - first, the machine: its CPU and the time of one fixed piece of work (20 s of audio to Opus
 *   on one thread), so reports from different machines can be told apart from a change's effect
 * - `npm start` time to first page and to the first API answer: a first start on a new data
 *   directory and a later one on the same, median of 3 each (BENCH_START_RUNS for more), dev
 *   and static mode (BENCH_DEV_ONLY=1 for dev alone), with the start's own step timings
 *   (TUNESMITH_START_TIMINGS)
 * - SPA initial JS, gzip, file by file and package by package; a visitor's `/`;
 *   the largest chunks that load later (bench-spa.ts)
 * - each route-group bundle (as CDK bundles it, infra/lib/lambda-bundle.ts): cold-start
 *   and total size and cold import time, beside a hello-world bundle
 * - local API latency for GET /api/plans, p50/p99, beside a bare Node HTTP
 *   server running the same DynamoDB query with the raw SDK, in the same run
 * - 60 s of mixed load at 32 concurrent clients: requests/s, p50, p99, errors, the server's
 *   CPU time per request and the load average (`api-load` runs it alone; BENCH_CPU_PROF=<dir>
 *   profiles the cloud's server process, bench-cloud.ts)
 * - the embedded music provider's synthesiser: a 240 s track, times real time
 * - tempo and key analysis: accuracy on 100 synthesiser songs of known tempo and key, and
 *   the time to analyse a 240 s track (bench-analysis.ts)
 * - the generation pipeline's own overhead: submit to playable, minus the
 *   provider's queue and processing time, p50 over 20 generations each of
 *   text to music, extend and repaint
 * - billing against the embedded Stripe: the webhook (a signed event in, the
 *   user's plan brought up to date) p50 over 50 events, and Checkout's return
 *   (the card form posted, until the API says the plan is active) p50 over 10
 * - the admin area at size: `GET /api/admin/dashboard/stats` and the first
 *   page of `GET /api/admin/regular-users`, p50/p95 on an empty table and
 *   after `scripts/seed-load.ts` loads 10 000 users and 100 000 tracks
 * - the gallery's sorts at size: the first page of `new`, `top-week` and `most-played`, p50 on an
 *   empty table and after 100 000 listed tracks, 1 000 000 likes and 200 000 plays (bench-community.ts)
 * - export everything: 10 and then 100 finished tracks exported through the
 *   API, start to ready, and the peak memory of the process running the job
 *   (bench-export.ts)
 * - a visitor's first visit on a phone: Lighthouse (mobile) on `/` of a new
 *   site (no public track), then `/`, `/pricing`, `/auth` and a public track
 *   page of a site in use, against `npm start -- --static`, the four category
 *   scores and FCP/LCP/TBT/CLS, median of 3 (bench-lighthouse.ts)
 *
 * Each local cloud, and the bare baseline server, runs in a process of its own
 * (bench-cloud.ts): a process's handlers serve one local cloud only.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createServer as createNetServer } from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DescribeExecutionCommand, SFNClient } from '@aws-sdk/client-sfn';
import { DynamoDBDocumentClient, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { PLAYLIST_TRACKS_MAX, PLAYLISTS_MAX } from '@tunesmith/shared/community';
import { routeGroups } from '@tunesmith/shared/routes';
import Stripe from 'stripe';
import { pcmToOggOpus } from '../functions/src/adapters/audio/opus-encoder';
import { dynamoGenerationStore } from '../functions/src/adapters/dynamo/generation-store';
import { dynamoUserRepository } from '../functions/src/adapters/dynamo/user-repository';
import { creatorKeys } from '../functions/src/data/community-keys';
import { keys } from '../functions/src/data/keys';
import { planarSource } from '../functions/src/domain/audio/pcm';
import { mailedLink } from '../functions/test/support/mailbox';
import {
  BUNDLE_ENTRY_FILE,
  bundleLambda,
  coldStartBytes,
  coldStartFiles,
  totalBytes,
} from '../infra/lib/lambda-bundle';
import type { LocalCloud } from '../local/src/cloud';
import { encodeWav, renderTrack } from '../local/src/music/synth';
import { analysisBench } from './bench-analysis';
import { startBareServer, startBenchCloud } from './bench-cloud';
import { communityBench } from './bench-community';
import { exportBench } from './bench-export';
import { lighthouseReport } from './bench-lighthouse';
import { lyricsBench } from './bench-lyrics';
import { spaReport } from './bench-spa';
import { stemsBench } from './bench-stems';
import { seedCreators } from './seed-creators';
import { seedLoad, seedPlaylists } from './seed-load';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
// Lambda runs Node 22; the SDK's Node 20 notice would only clutter the report.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
const lines: string[] = [];
const say = (line = '') => {
  lines.push(line);
  console.log(line);
};

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createNetServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

function get(url: string, cookie?: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent: keepAlive, headers: cookie ? { cookie } : {} }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => {
        body += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    // A server that accepted but never answers must not stall the report.
    req.setTimeout(10_000, () => req.destroy(new Error(`no answer from ${url}`)));
    req.end();
  });
}

import { Agent } from 'node:http';
import { authenticatorCode } from '../functions/test/support/authenticator';

const keepAlive = new Agent({ keepAlive: true, maxSockets: 1 });

const ms = (n: number) => `${n.toFixed(n < 10 ? 2 : 0)} ms`;
const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;

/** One `npm start` measured: to the first page, to the first API answer, and its own step timings. */
interface StartRun {
  firstPage: number;
  firstApi: number;
  /** `[start]` lines (TUNESMITH_START_TIMINGS): ms since its process began, by step. */
  steps: Map<string, number>;
}

/**
 * Runs `npm start` on `dataDir` until `GET /` answers 200 with the app's page
 * (the front door's 503 "starting" does not count) and `GET /api/plans`
 * answers 200 (the tables, pools and plan prices in place), then stops it as
 * Ctrl-C does and waits for it to end.
 */
async function measureStart(dataDir: string, args: string[]): Promise<StartRun | undefined> {
  const [port, dynamodb, s3, cognito, ses, music, stepfunctions, stripe, lambda] = await Promise.all(
    [1, 2, 3, 4, 5, 6, 7, 8, 9].map(() => freePort()),
  );
  const env = {
    ...process.env,
    PORT: String(port),
    DYNAMODB_PORT: String(dynamodb),
    S3_PORT: String(s3),
    COGNITO_PORT: String(cognito),
    SES_PORT: String(ses),
    MUSIC_PORT: String(music),
    STEPFUNCTIONS_PORT: String(stepfunctions),
    STRIPE_PORT: String(stripe),
    LAMBDA_PORT: String(lambda),
    TUNESMITH_DATA_DIR: dataDir,
    TUNESMITH_START_TIMINGS: '1',
  };
  const started = performance.now();
  const child = spawn('npm', ['start', '--silent', '--', ...args], {
    cwd: root,
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
    detached: true,
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const steps = new Map<string, number>();
  let stderr = '';
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (chunk: string) => {
    stderr += chunk;
    const lines = stderr.split('\n');
    stderr = lines.pop() ?? '';
    for (const line of lines) {
      const step = /^\[start\] (.+) (\d+)$/.exec(line);
      if (step) steps.set(step[1] as string, Number(step[2]));
    }
  });
  const until = async (url: string, ok: (page: { status: number; body: string }) => boolean) => {
    const deadline = Date.now() + 120_000;
    while (Date.now() < deadline && child.exitCode === null) {
      try {
        if (ok(await get(url))) return performance.now() - started;
      } catch {
        // not listening yet
      }
      await new Promise((r) => setTimeout(r, 25));
    }
    return Number.NaN;
  };
  const firstPage = await until(
    `http://127.0.0.1:${port}/`,
    (page) => page.status === 200 && page.body.includes('<div id="root"'),
  );
  const firstApi = await until(`http://127.0.0.1:${port}/api/plans`, (page) => page.status === 200);
  // A fresh connection per run: the next run's server is another.
  keepAlive.destroy();
  process.kill(-(child.pid as number), 'SIGINT');
  await exited;
  return Number.isNaN(firstPage) || Number.isNaN(firstApi) ? undefined : { firstPage, firstApi, steps };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? (sorted[Math.floor((sorted.length - 1) / 2)] as number) : Number.NaN;
};

/**
 * `npm start` time to first page: a first start on a new data directory and
 * a later start on the same one (the first stopped as Ctrl-C stops it), the
 * median of three of each, in dev mode (Vite) and, when web/dist is built,
 * in static mode; with where a start's time goes (its `[start]` steps).
 */
async function timeToFirstPage(): Promise<void> {
  const RUNS = Number(process.env.BENCH_START_RUNS) || 3;
  const modes: { label: string; args: string[] }[] = [{ label: 'dev (Vite)', args: [] }];
  if (!process.env.BENCH_DEV_ONLY && existsSync(join(root, 'web', 'dist', 'index.html')))
    modes.push({ label: 'static', args: ['--static'] });
  else say('npm start --static: not measured (web/dist is not built; npm run build)');
  for (const mode of modes) {
    const runs: Record<'first' | 'later', StartRun[]> = { first: [], later: [] };
    let failed = 0;
    for (let i = 0; i < RUNS; i++) {
      const dataDir = mkdtempSync(join(tmpdir(), 'tunesmith-bench-'));
      try {
        const first = await measureStart(dataDir, [...mode.args, '--fresh']);
        const later = first && (await measureStart(dataDir, mode.args));
        if (first) runs.first.push(first);
        if (later) runs.later.push(later);
        if (!first || !later) failed++;
      } finally {
        rmSync(dataDir, { recursive: true, force: true });
      }
    }
    say(`npm start, ${mode.label}: median of ${RUNS}${failed ? ` (${failed} failed to start)` : ''}`);
    for (const kind of ['first', 'later'] as const) {
      const sample = runs[kind];
      const label = kind === 'first' ? 'first start (new data dir)' : 'later start (same data dir)';
      say(
        `  ${label.padEnd(30)} first page ${ms(median(sample.map((r) => r.firstPage))).padStart(8)}   ` +
          `API answers ${ms(median(sample.map((r) => r.firstApi))).padStart(8)}`,
      );
      const names = [...new Set(sample.flatMap((r) => [...r.steps.keys()]))];
      const steps = names
        .map((name) => ({ name, at: median(sample.flatMap((r) => r.steps.get(name) ?? [])) }))
        .sort((a, b) => a.at - b.at);
      say(
        `    steps (ms since its node process began): ${steps.map((s) => `${s.name} ${Math.round(s.at)}`).join(', ')}`,
      );
    }
  }
  say(
    '  (npm itself adds its own start before node begins; a fresh clone also compiles the DynamoDB launcher once, and its\n' +
      '   DynamoDB Local maps its class-data archive from the third start on; "first page" is the HTML: on a fresh clone a\n' +
      "   browser's first dev-mode visit also waits for Vite's one-time dependency optimisation into web/node_modules/.vite)",
  );
}

async function spaSize(): Promise<void> {
  await spaReport(join(root, 'web'), say);
}

async function bundles(): Promise<void> {
  const outDir = mkdtempSync(join(tmpdir(), 'tunesmith-bundles-'));
  const helloFile = join(outDir, 'hello.ts');
  writeFileSync(helloFile, 'export const handler = async () => ({ statusCode: 200, body: "hello" });\n');
  say('Lambda bundles (as CDK deploys them: esbuild ESM, minified, split; infra/lib/lambda-bundle.ts).');
  say('  "cold" is the entry and the chunks it imports statically, what a cold start reads;');
  say(
    '  "all" adds the chunks loaded on first use. Import: median of 5 cold imports, each in a new process.',
  );
  say(
    `  ${'bundle'.padEnd(14)} ${'cold'.padStart(9)} ${'all'.padStart(9)} ${'cold gz'.padStart(9)}   import`,
  );
  const entries: [string, string][] = [
    ['hello-world', helloFile],
    ...[...routeGroups, 'workflow'].map((group): [string, string] => [group, group]),
  ];
  for (const [name, entry] of entries) {
    const dir = join(outDir, name);
    const { metafile } = bundleLambda(entry, dir);
    const entryFile = join(dir, BUNDLE_ENTRY_FILE);
    const times: number[] = [];
    for (let i = 0; i < 5; i++) times.push(await coldImport(entryFile));
    say(
      `  ${name.padEnd(14)} ${kb(coldStartBytes(metafile)).padStart(9)} ${kb(totalBytes(metafile)).padStart(9)} ${kb(gzipSync(Buffer.concat(coldStartFiles(metafile).map((file) => readFileSync(file)))).length).padStart(9)}   ${ms(
        percentile(
          times.sort((a, b) => a - b),
          50,
        ),
      )}`,
    );
  }
  rmSync(outDir, { recursive: true, force: true });
}

function coldImport(file: string): Promise<number> {
  const script = `const t = performance.now(); await import(${JSON.stringify(file)}); console.log(performance.now() - t);`;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
    });
    child.on('exit', (code) =>
      code === 0 ? resolve(Number(out.trim())) : reject(new Error(`import failed: ${file}`)),
    );
  });
}

async function latency(url: string, count: number, cookie?: string, warmUp = 50): Promise<number[]> {
  for (let i = 0; i < warmUp; i++) await get(url, cookie);
  const samples: number[] = [];
  for (let i = 0; i < count; i++) {
    const t = performance.now();
    const res = await get(url, cookie);
    samples.push(performance.now() - t);
    if (res.status !== 200) throw new Error(`GET ${url} answered ${res.status}`);
  }
  return samples.sort((a, b) => a - b);
}

/**
 * 60 s of mixed traffic from 32 concurrent clients on loopback: the public
 * calls (plans, gallery, a track page) and signed-in ones (the current user,
 * the library), in turn. Requests per second, p50 and p99 latency, errors
 * (any non-2xx or failed request).
 */
async function mixedLoad(cloud: LocalCloud): Promise<void> {
  const clients = 32;
  // BENCH_LOAD_SECONDS shortens it while profiling one change after another; the report's figure is 60 s.
  const seconds = Number(process.env.BENCH_LOAD_SECONDS) || 60;
  const cookies = await Promise.all([0, 1, 2, 3].map((n) => benchUser(cloud, `load-${n}`)));
  // One public track to read.
  const created = await fetch(`${cloud.url}/api/generate-text-to-music`, {
    method: 'POST',
    headers: { origin: cloud.url, 'content-type': 'application/json', cookie: cookies[0] as string },
    body: JSON.stringify({ tags: 'ambient', lyrics: '', duration: 5, visibility: 'public' }),
  });
  const { generationId } = (await created.json()) as { generationId: string };
  const calls: { path: string; cookie?: string }[] = [
    { path: '/api/plans' },
    { path: '/api/public-tracks' },
    { path: `/api/track/${generationId}` },
    ...cookies.flatMap((cookie) => [
      { path: '/api/auth/user', cookie },
      { path: '/api/my-generations', cookie },
    ]),
  ];
  const agent = new Agent({ keepAlive: true, maxSockets: clients });
  const samples: number[] = [];
  let errors = 0;
  const deadline = performance.now() + seconds * 1000;
  const client = async (n: number) => {
    for (let i = n; performance.now() < deadline; i++) {
      const call = calls[i % calls.length] as (typeof calls)[number];
      const started = performance.now();
      const ok = await new Promise<boolean>((resolve) => {
        const req = request(
          `${cloud.url}${call.path}`,
          { agent, headers: call.cookie ? { cookie: call.cookie } : {} },
          (res) => {
            res.resume();
            res.on('end', () => resolve((res.statusCode ?? 0) < 300));
          },
        );
        req.on('error', () => resolve(false));
        req.setTimeout(10_000, () => req.destroy());
        req.end();
      });
      samples.push(performance.now() - started);
      if (!ok) errors++;
    }
  };
  // The server (first) and its emulators (DynamoDB Local, Cognito, ...): CPU split user/system.
  const [server, ...emulators] = cloud.pids;
  const cpuOf = () => ({ server: cpuTimes(server), emulators: sumTimes(emulators.map(cpuTimes)) });
  const cpuBefore = cpuOf();
  const t0 = performance.now();
  await Promise.all(Array.from({ length: clients }, (_, n) => client(n)));
  const elapsed = (performance.now() - t0) / 1000;
  const cpuAfter = cpuOf();
  agent.destroy();
  samples.sort((a, b) => a - b);
  say(
    `Mixed load, ${clients} concurrent clients for ${seconds} s (plans, gallery, track page, current user, library):`,
  );
  say(
    `  ${(samples.length / elapsed).toFixed(0)} requests/s  p50 ${ms(percentile(samples, 50))}  p99 ${ms(percentile(samples, 99))}  errors ${errors} of ${samples.length}`,
  );
  // Wall-clock figures follow whatever else the machine runs; CPU per request and the load beside them say how much.
  const perRequest = (after: CpuTimes, before: CpuTimes) => {
    const user = (after.user - before.user) / samples.length;
    const system = (after.system - before.system) / samples.length;
    return `${ms(user + system)} (user ${ms(user)}, system ${ms(system)})`;
  };
  if (Number.isFinite(cpuAfter.server.user)) {
    say(`  CPU per request: server process ${perRequest(cpuAfter.server, cpuBefore.server)}`);
    say(`                   its emulators  ${perRequest(cpuAfter.emulators, cpuBefore.emulators)}`);
  }
  say(
    `  load average at the end: ${loadavg()
      .map((n) => n.toFixed(2))
      .join(' ')} (${cpus().length} cores)`,
  );
}

/**
 * `GET /api/plans` through the local API beside the bare baseline server (the
 * same DynamoDB query with the raw SDK), on `cloud`'s table. The two are
 * measured in alternating rounds, so a burst of other work on the machine
 * falls on both rather than on one; the ratio of the p50s is what counts.
 */
async function apiLatency(cloud: LocalCloud): Promise<void> {
  const rounds = 5;
  const perRound = 200;
  const count = rounds * perRound;
  const bare = await startBareServer(cloud);
  const api: number[] = [];
  const base: number[] = [];
  // CPU time of each server's process over its measured requests (warm-ups included in both).
  const cpu = { api: 0, base: 0 };
  const timed = async (pid: number | undefined, run: () => Promise<number[]>) => {
    const before = cpuMs(pid);
    const samples = await run();
    return { samples, cpu: cpuMs(pid) - before };
  };
  try {
    for (let round = 0; round < rounds; round++) {
      const a = await timed(cloud.pids[0], () => latency(`${cloud.url}/api/plans`, perRound));
      api.push(...a.samples);
      cpu.api += a.cpu;
      const b = await timed(bare.pid, () => latency(`${bare.url}/api/plans`, perRound));
      base.push(...b.samples);
      cpu.base += b.cpu;
    }
  } finally {
    await bare.stop();
  }
  api.sort((a, b) => a - b);
  base.sort((a, b) => a - b);
  say(`GET /api/plans, ${count} sequential requests each (keep-alive, ${rounds} alternating rounds):`);
  say(
    `  local API (adapter → middleware → handler → DynamoDB Local)  p50 ${ms(percentile(api, 50))}  p99 ${ms(percentile(api, 99))}`,
  );
  say(
    `  bare Node server, the same query with the raw SDK          p50 ${ms(percentile(base, 50))}  p99 ${ms(percentile(base, 99))}`,
  );
  say(
    `  our overhead at p50                                        ${ms(percentile(api, 50) - percentile(base, 50))}  (${(percentile(api, 50) / percentile(base, 50)).toFixed(2)}× the bare server)`,
  );
  // Less swayed than wall-clock time by other work on the machine.
  if (Number.isFinite(cpu.api) && Number.isFinite(cpu.base) && cpu.base > 0) {
    const served = rounds * (perRound + 50);
    say(
      `  CPU per request, server process: local API ${ms(cpu.api / served)}, bare ${ms(cpu.base / served)}  (${(cpu.api / cpu.base).toFixed(2)}×)`,
    );
  }
}

/** CPU time (user + system) a process has used so far, in ms; NaN where /proc cannot tell. */
function cpuMs(pid: number | undefined): number {
  const { user, system } = cpuTimes(pid);
  return user + system;
}

interface CpuTimes {
  user: number;
  system: number;
}

/** CPU time a process has used so far in its own code (user) and in the kernel for it (system), in ms. */
function cpuTimes(pid: number | undefined): CpuTimes {
  try {
    // Fields 14 and 15 of /proc/PID/stat, counted after the command name's closing parenthesis.
    const fields = (readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1] ?? '').split(' ');
    return {
      user: Number(fields[11]) * (1000 / CLOCK_TICKS),
      system: Number(fields[12]) * (1000 / CLOCK_TICKS),
    };
  } catch {
    return { user: Number.NaN, system: Number.NaN };
  }
}

const sumTimes = (times: CpuTimes[]): CpuTimes =>
  times.reduce((sum, t) => ({ user: sum.user + t.user, system: sum.system + t.system }), {
    user: 0,
    system: 0,
  });

/** Linux's USER_HZ: /proc counts CPU time in hundredths of a second. */
const CLOCK_TICKS = 100;

/** `npm run bench -- api-latency`: only the API's latency beside the bare server, on a cloud of its own. */
async function localApiLatency(): Promise<void> {
  const cloud = await startBenchCloud();
  try {
    await apiLatency(cloud);
  } finally {
    await cloud.stop();
  }
}

/** `npm run bench -- api-load`: only the mixed load, on a cloud of its own. */
async function localMixedLoad(): Promise<void> {
  const cloud = await startBenchCloud();
  try {
    await mixedLoad(cloud);
  } finally {
    await cloud.stop();
  }
}

/** On one throwaway local cloud: API latency, then the generation pipeline's overhead. */
async function localCloudMeasures(): Promise<void> {
  const cloud = await startBenchCloud();
  try {
    await apiLatency(cloud);
    say();
    await mixedLoad(cloud);
    say();
    await pipelineOverhead(cloud);
    say();
    await billing(cloud);
  } finally {
    await cloud.stop();
  }
}

/**
 * How fast this machine is, for comparing reports made on different ones (the same code has
 * measured 1.3 to 1.7 times slower from one machine to the next): the CPU, and one fixed piece of
 * work, 20 s of a synthesiser song to Ogg Opus on one thread as Finish encodes it, median of 3
 * after one run that warms it up.
 */
async function machineSpeed(): Promise<string> {
  const [left, right] = renderTrack({ tags: 'pop, upbeat', duration: 20, seed: 1 }) as [
    Float32Array,
    Float32Array,
  ];
  const song = planarSource({ sampleRate: 48_000, planes: [left, right] });
  const times: number[] = [];
  for (let i = 0; i < 4; i++) {
    const started = performance.now();
    await pcmToOggOpus(song);
    if (i > 0) times.push(performance.now() - started);
  }
  const cpu = cpus();
  return `This machine: ${cpu[0]?.model.trim() ?? 'an unknown CPU'}, ${cpu.length} cores; 20 s of stereo to Opus on one thread in ${ms(
    percentile(
      times.sort((a, b) => a - b),
      50,
    ),
  )} (median of 3)`;
}

async function synthesiser(): Promise<void> {
  const seconds = 240;
  const samples: number[] = [];
  for (let i = 0; i < 3; i++) {
    const t = performance.now();
    const wav = encodeWav(
      renderTrack({
        tags: 'pop, upbeat, female singer',
        lyrics: '[verse]\nla la la',
        duration: seconds,
        seed: i,
      }),
    );
    samples.push(performance.now() - t);
    if (wav.length !== 44 + seconds * 48000 * 4) throw new Error(`unexpected WAV size ${wav.length}`);
  }
  const median = percentile(
    samples.sort((a, b) => a - b),
    50,
  );
  say(
    `Synthesiser: ${seconds} s track rendered in ${Math.round(median)} ms (${((seconds * 1000) / median).toFixed(1)}× real time; median of 3, render + WAV encode)`,
  );
}

/**
 * A signed-in user of `cloud`: registers, follows the mailed link, signs in;
 * returns its cookies. The tests' signedInUser asserts with vitest (and its
 * support module reads vitest's injected context on import), so only the mail
 * lookup is shared.
 */
async function benchUser(cloud: LocalCloud, n: number | string): Promise<string> {
  const email = `bench-${Date.now().toString(36)}-${n}@example.com`;
  const password = 'bench password 1';
  const call = (path: string, init: RequestInit = {}) =>
    fetch(`${cloud.url}${path}`, {
      ...init,
      headers: { origin: cloud.url, 'content-type': 'application/json', ...init.headers },
    });
  const registered = await call('/api/auth/register', {
    method: 'POST',
    body: JSON.stringify({
      firstName: 'Bench',
      lastName: 'User',
      email,
      password,
      confirmPassword: password,
    }),
  });
  if (registered.status !== 201) throw new Error(`register answered ${registered.status}`);
  const { token } = await mailedLink(cloud.env.SES_ENDPOINT, email, '/verify-email/');
  const verified = await call(`/api/auth/verify-email/${token}`);
  if (verified.status !== 200) throw new Error(`verify-email answered ${verified.status}`);
  const login = await call('/api/auth/login', { method: 'POST', body: JSON.stringify({ email, password }) });
  if (login.status !== 200) throw new Error(`login answered ${login.status}`);
  return login.headers
    .getSetCookie()
    .map((line) => line.split(';')[0])
    .join('; ');
}

/** A 10 s track takes the embedded provider about a second; far longer means it is stuck. */
const GENERATION_DEADLINE_MS = 60_000;

/** The local cloud's table, for reading what the API wrote. */
function tableOf(cloud: LocalCloud): DynamoDBDocumentClient {
  return DynamoDBDocumentClient.from(
    new DynamoDBClient({
      region: cloud.env.AWS_REGION,
      endpoint: cloud.env.DYNAMODB_ENDPOINT,
      credentials: {
        accessKeyId: cloud.env.AWS_ACCESS_KEY_ID,
        secretAccessKey: cloud.env.AWS_SECRET_ACCESS_KEY,
      },
    }),
  );
}

/**
 * Submit to playable (the status call says completed: the stream copy and
 * peaks are there), minus the provider's own time (its queue and processing,
 * from the status metrics), over 20 sequential generations of each kind: 10 s
 * text tracks, then 10 s extensions and 4 s repaints of a 10 s track (the
 * studio: the submit step also presigns the parent's WAV). The cost of our API,
 * workflow, webhook, copy into the bucket and status call. Then, not counted
 * in it, until the download is prepared (marked, signed, hashed), and each
 * phase of Finish and PrepareDownload as their execution's output records it
 * (DescribeExecution on the local Step Functions). One generation warms the
 * process up (not counted); four free users make five text tracks each (the
 * weekly quota); then the first, on Premium, makes one parent per studio kind
 * (not counted) and twenty from it.
 */
async function pipelineOverhead(cloud: LocalCloud): Promise<void> {
  const count = 20;
  const documents = tableOf(cloud);
  const store = dynamoGenerationStore(documents, cloud.env.TABLE_NAME);
  const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
  const stepFunctions = new SFNClient({
    region: cloud.env.AWS_REGION,
    endpoint: cloud.env.STEPFUNCTIONS_ENDPOINT,
    credentials: {
      accessKeyId: cloud.env.AWS_ACCESS_KEY_ID,
      secretAccessKey: cloud.env.AWS_SECRET_ACCESS_KEY,
    },
  });
  type Timings = Record<string, number>;
  /** The phases of Finish and PrepareDownload, from the execution's output once it has ended. */
  const phasesOf = async (generationId: string): Promise<{ finish: Timings; prepare: Timings }> => {
    const executionArn = `${cloud.env.STATE_MACHINE_ARN.replace(':stateMachine:', ':execution:')}:${generationId}`;
    const deadline = Date.now() + GENERATION_DEADLINE_MS;
    for (;;) {
      const described = await stepFunctions.send(new DescribeExecutionCommand({ executionArn }));
      if (described.status === 'SUCCEEDED') {
        const output = JSON.parse(described.output ?? '{}') as {
          track?: { timings?: Timings };
          download?: { timings?: Timings };
        };
        return { finish: output.track?.timings ?? {}, prepare: output.download?.timings ?? {} };
      }
      if (described.status !== 'RUNNING')
        throw new Error(`execution ${generationId} ended ${described.status}`);
      if (Date.now() > deadline) throw new Error(`execution ${generationId} is still running`);
      await new Promise((r) => setTimeout(r, 10));
    }
  };

  /** One generation, from its start call until its status says completed: the total and the provider's part. */
  const run = async (cookie: string, path: string, body: unknown) => {
    const headers = { origin: cloud.url, 'content-type': 'application/json', cookie };
    const started = performance.now();
    const res = await fetch(`${cloud.url}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
    if (res.status !== 201) throw new Error(`${path} answered ${res.status}: ${await res.text()}`);
    const { generationId } = (await res.json()) as { generationId: string };
    let status = 'pending';
    let downloadReady = false;
    const deadline = Date.now() + GENERATION_DEADLINE_MS;
    while (status !== 'completed') {
      if (Date.now() > deadline)
        throw new Error(
          `generation ${generationId} is still ${status} after ${GENERATION_DEADLINE_MS / 1000} s; the pipeline looks stuck`,
        );
      const poll = await fetch(`${cloud.url}/api/generation/${generationId}/status`, { headers });
      ({ status, downloadReady } = (await poll.json()) as { status: string; downloadReady: boolean });
      if (status === 'failed') throw new Error(`generation ${generationId} (${path}) failed`);
      if (status !== 'completed') await new Promise((r) => setTimeout(r, 10));
    }
    const total = performance.now() - started;
    while (!downloadReady) {
      if (Date.now() > deadline) throw new Error(`the download of ${generationId} was not prepared in time`);
      await new Promise((r) => setTimeout(r, 10));
      const poll = await fetch(`${cloud.url}/api/generation/${generationId}/status`, { headers });
      ({ downloadReady } = (await poll.json()) as { downloadReady: boolean });
    }
    const downloadable = performance.now() - started;
    const phases = await phasesOf(generationId);
    const generation = await store.get(generationId);
    // Every ace-step endpoint's jobs answer under the app's path (fal drops the endpoint's sub-path).
    const provider = (await (
      await fetch(
        `${cloud.env.FAL_BASE_URL}/queue.fal.run/fal-ai/ace-step/requests/${generation?.falRequestId}/status`,
      )
    ).json()) as { metrics?: { inference_time?: number; queue_time?: number } };
    const providerMs = ((provider.metrics?.inference_time ?? 0) + (provider.metrics?.queue_time ?? 0)) * 1000;
    return { generationId, total, overhead: total - providerMs, downloadable, ...phases };
  };
  type Run = Awaited<ReturnType<typeof run>>;
  /** `name 12 ms` for each phase, p50 over the runs, in the order the step ran them. */
  const phaseLine = (timings: Timings[]) => {
    const names = [...new Set(timings.flatMap((t) => Object.keys(t)))];
    return names
      .map((name) => `${name} ${ms(percentile(sorted(timings.map((t) => t[name] ?? 0)), 50))}`)
      .join(', ');
  };
  const text10s = { tags: 'pop, upbeat', lyrics: '', duration: 10, visibility: 'public' };

  const report = (label: string, runs: Run[]) => {
    const totals = runs.map((r) => r.total);
    const overheads = runs.map((r) => r.overhead);
    const downloadables = runs.map((r) => r.downloadable);
    say(`  ${label}`);
    say(
      `    submit → playable          p50 ${ms(percentile(sorted(totals), 50))}  max ${ms(Math.max(...totals))}`,
    );
    say(
      `    our overhead (− provider)  p50 ${ms(percentile(sorted(overheads), 50))}  max ${ms(Math.max(...overheads))}`,
    );
    say(
      `    submit → downloadable      p50 ${ms(percentile(sorted(downloadables), 50))}  max ${ms(Math.max(...downloadables))}`,
    );
    say(`    Finish, p50 of each phase: ${phaseLine(runs.map((r) => r.finish))}`);
    say(`    PrepareDownload (after playable), p50: ${phaseLine(runs.map((r) => r.prepare))}`);
  };

  try {
    say(
      `Generation pipeline, ${count} sequential generations of each kind (local cloud, embedded provider, status polled every 10 ms):`,
    );
    const textUsers = await Promise.all([0, 1, 2, 3].map((n) => benchUser(cloud, n)));
    // One generation first, not counted: the process's first runs of each step compile its code, which the
    // studio's kinds below never pay (their parent's generation comes first).
    await run(await benchUser(cloud, 'warm-up'), '/api/generate-text-to-music', text10s);
    const text: Run[] = [];
    for (let i = 0; i < count; i++)
      text.push(await run(textUsers[i % 4] as string, '/api/generate-text-to-music', text10s));
    report('text to music, 10 s', text);

    const studio = [
      { kind: 'extend', label: 'extend a 10 s track by 10 s', body: { seconds: 10 } },
      { kind: 'repaint', label: 'repaint 4 s of a 10 s track', body: { start: 3, end: 7 } },
    ];
    // The studio runs on one of the text users, moved to Premium in the table (100 a week) as the
    // billing webhook would: no more sign-ups from this address, which allows 20 an hour.
    const studioUser = textUsers[0] as string;
    const me = await fetch(`${cloud.url}/api/auth/user`, {
      headers: { origin: cloud.url, cookie: studioUser },
    });
    const { id: userId } = (await me.json()) as { id: string };
    await documents.send(
      new UpdateCommand({
        TableName: cloud.env.TABLE_NAME,
        Key: keys.user(userId),
        UpdateExpression: 'SET planStatus = :status, subscriptionPlanId = :plan, planStartDate = :now',
        ExpressionAttributeValues: {
          ':status': 'active',
          ':plan': 'premium',
          ':now': new Date().toISOString(),
        },
      }),
    );
    for (const { kind, label, body } of studio) {
      try {
        const parent = (await run(studioUser, '/api/generate-text-to-music', text10s)).generationId;
        const runs: Run[] = [];
        for (let i = 0; i < count; i++)
          runs.push(await run(studioUser, `/api/generation/${parent}/${kind}`, body));
        report(label, runs);
      } catch (error) {
        // A report, not a gate: one kind that cannot run is said, and the rest of the run goes on.
        say(`  ${label}: not measured (${error instanceof Error ? error.message : String(error)})`);
      }
    }
  } finally {
    documents.destroy();
    stepFunctions.destroy();
  }
}

/** `npm run bench -- pipeline`: only the generation pipeline's overhead, on a cloud of its own. */
async function localPipeline(): Promise<void> {
  const cloud = await startBenchCloud();
  try {
    await pipelineOverhead(cloud);
  } finally {
    await cloud.stop();
  }
}

/**
 * Billing on the embedded Stripe. Checkout's return: ten users each start
 * Checkout for Basic monthly; the clock runs from posting the card form (the
 * page answers with the redirect at once) until `GET /api/auth/user` says
 * active, polled every 10 ms. The webhook: fifty signed
 * `customer.subscription.updated` events for one subscriber, each answered
 * only once the user's plan is brought up to date (a Stripe read and a write).
 */
async function billing(cloud: LocalCloud): Promise<void> {
  const returns: number[] = [];
  let subscriber: { cookie: string; customer: string } | undefined;
  const documents = tableOf(cloud);
  const users = dynamoUserRepository(documents, cloud.env.TABLE_NAME);
  try {
    for (let i = 0; i < 10; i++) {
      const cookie = await benchUser(cloud, `billing-${i}`);
      const headers = { origin: cloud.url, 'content-type': 'application/json', cookie };
      const session = await fetch(`${cloud.url}/api/stripe/create-checkout-session`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ planId: 'basic', billingCycle: 'monthly' }),
      });
      if (session.status !== 200)
        throw new Error(`checkout answered ${session.status}: ${await session.text()}`);
      const { url } = (await session.json()) as { url: string };
      const started = performance.now();
      const paid = await fetch(url, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          card_number: '4242 4242 4242 4242',
          card_expiry: '12 / 34',
          card_cvc: '123',
        }).toString(),
      });
      if (paid.status !== 303) throw new Error(`the Checkout page answered ${paid.status}`);
      const deadline = Date.now() + 30_000;
      let user: { id: string; planStatus: string } | undefined;
      while (user?.planStatus !== 'active') {
        if (Date.now() > deadline) throw new Error('the plan did not become active within 30 s');
        const answer = await fetch(`${cloud.url}/api/auth/user`, { headers });
        user = (await answer.json()) as { id: string; planStatus: string };
        if (user.planStatus !== 'active') await new Promise((r) => setTimeout(r, 10));
      }
      returns.push(performance.now() - started);
      const customer = (await users.get(user.id))?.stripeCustomerId;
      if (customer) subscriber ??= { cookie, customer };
    }
    if (!subscriber) throw new Error('no subscriber to send events for');
    const handled: number[] = [];
    for (let i = 0; i < 50; i++) {
      const payload = JSON.stringify({
        id: `evt_bench_${i}_${Date.now()}`,
        object: 'event',
        type: 'customer.subscription.updated',
        created: Math.floor(Date.now() / 1000),
        data: { object: { object: 'subscription', customer: subscriber.customer } },
      });
      const signature = Stripe.webhooks.generateTestHeaderString({
        payload,
        secret: cloud.env.STRIPE_WEBHOOK_SECRET,
      });
      const started = performance.now();
      const answer = await fetch(`${cloud.url}/api/webhooks/stripe`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'stripe-signature': signature },
        body: payload,
      });
      const body = (await answer.json()) as { outcome?: string };
      if (answer.status !== 200 || body.outcome !== 'synced') {
        throw new Error(`the webhook answered ${answer.status} ${JSON.stringify(body)}`);
      }
      handled.push(performance.now() - started);
    }
    const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
    say('Billing (local cloud, embedded Stripe):');
    say(
      `  webhook: signed event in → user updated   p50 ${ms(percentile(sorted(handled), 50))}  max ${ms(Math.max(...handled))}  (50 events)`,
    );
    say(
      `  Checkout return → plan active            p50 ${ms(percentile(sorted(returns), 50))}  max ${ms(Math.max(...returns))}  (10 users, polled every 10 ms)`,
    );
  } finally {
    documents.destroy();
  }
}

/**
 * The session cookies of the cloud's first admin, signed in as the SPA signs
 * in: the password, then the authenticator, set up with the key the first
 * step shows (a new bench cloud's admin has none yet).
 */
async function adminSession(cloud: { url: string; admin: { username: string; password: string } }) {
  const post = (path: string, body: unknown, cookie = '') =>
    fetch(`${cloud.url}${path}`, {
      method: 'POST',
      headers: { origin: cloud.url, 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
      body: JSON.stringify(body),
    });
  const cookiesOf = (response: Response) =>
    response.headers
      .getSetCookie()
      .map((line) => line.split(';')[0])
      .join('; ');
  const login = await post('/api/admin/login', cloud.admin);
  const step = (await login.json()) as { secondFactor?: string; secret?: string };
  if (login.status !== 200 || step.secondFactor !== 'setup' || !step.secret) {
    throw new Error(`admin login answered ${login.status} ${JSON.stringify(step.secondFactor)}`);
  }
  const signedIn = await post(
    '/api/admin/login/code',
    { code: await authenticatorCode(step.secret) },
    cookiesOf(login),
  );
  if (signedIn.status !== 200) throw new Error(`admin second factor answered ${signedIn.status}`);
  return cookiesOf(signedIn);
}

/**
 * The admin area's two list-shaped reads at size: the dashboard counters (two
 * item reads) and the first user page (one index query), on an empty table and
 * after seeding 10 000 users and 100 000 tracks. Constant-time reads keep the
 * ratio near 1.
 */
async function adminAtScale(): Promise<void> {
  const users = 10_000;
  const tracks = 100_000;
  const cloud = await startBenchCloud();
  const documents = tableOf(cloud);
  try {
    const cookie = await adminSession(cloud);
    const calls = {
      'GET /api/admin/dashboard/stats': `${cloud.url}/api/admin/dashboard/stats`,
      'GET /api/admin/regular-users (first page)': `${cloud.url}/api/admin/regular-users`,
    };
    const count = 200;
    const measure = async () => {
      const out: Record<string, number[]> = {};
      // A longer warm-up: the first measure must not pay for the handlers' first runs.
      for (const [name, url] of Object.entries(calls)) out[name] = await latency(url, count, cookie, 300);
      return out;
    };
    const empty = await measure();
    const seeding = performance.now();
    await seedLoad(documents, cloud.env.TABLE_NAME, { users, tracks });
    const seededIn = performance.now() - seeding;
    const stats = JSON.parse((await get(calls['GET /api/admin/dashboard/stats'], cookie)).body) as {
      totalUsers?: number;
      totalGenerations?: number;
    };
    const loaded = await measure();
    say(
      `Admin area at size (${count} sequential requests each; seeded ${users} users and ${tracks} tracks in ${(seededIn / 1000).toFixed(0)} s; the dashboard then counts ${stats.totalUsers} users and ${stats.totalGenerations} tracks):`,
    );
    for (const name of Object.keys(calls)) {
      const before = empty[name] as number[];
      const after = loaded[name] as number[];
      say(`  ${name}`);
      say(`    empty table   p50 ${ms(percentile(before, 50))}  p95 ${ms(percentile(before, 95))}`);
      say(`    seeded table  p50 ${ms(percentile(after, 50))}  p95 ${ms(percentile(after, 95))}`);
      say(`    ratio (p50, seeded ÷ empty)  ${(percentile(after, 50) / percentile(before, 50)).toFixed(2)}`);
    }
  } finally {
    documents.destroy();
    await cloud.stop();
  }
}

/**
 * A creator's page and the feed at size (decision 059): a user following 50 creators of 5 listed tracks
 * each, on a table holding only them, then again after seeding 10 000 users, 100 000 tracks, 10 000
 * playlists and 1 000 more public creators who follow each other, and giving the measured creator
 * as many playlists as one may keep, each as full as it may be, of different tracks (decision 062).
 * Both read per creator partition (the ranking index), so the ratio stays near 1.
 */
async function creatorsAtScale(): Promise<void> {
  const cloud = await startBenchCloud();
  const documents = tableOf(cloud);
  try {
    const cookie = await benchUser(cloud, 'creators');
    const me = JSON.parse((await get(`${cloud.url}/api/auth/user`, cookie)).body) as { id: string };
    const table = cloud.env.TABLE_NAME;
    const followed = await seedCreators(documents, table, {
      creators: 50,
      tracksEach: 5,
      followsEach: 0,
      follower: me.id,
      follows: 50,
    });
    const calls = {
      'GET /api/creators/{handle} (20 tracks; seeded: and their playlists)': `${cloud.url}/api/creators/${followed[0]}`,
      'GET /api/feed (50 creators followed)': `${cloud.url}/api/feed`,
    };
    const count = 200;
    const measure = async () => {
      const out: Record<string, number[]> = {};
      for (const [name, url] of Object.entries(calls)) out[name] = await latency(url, count, cookie, 100);
      return out;
    };
    const empty = await measure();
    const seeding = performance.now();
    const { seededTracks } = await seedLoad(documents, table, {
      users: 10_000,
      tracks: 100_000,
      playlists: 10_000,
    });
    await seedCreators(documents, table, { creators: 1_000, tracksEach: 5, followsEach: 10 });
    const claim = await documents.send(
      new GetCommand({ TableName: table, Key: creatorKeys.handle(followed[0] as string) }),
    );
    const full = await seedPlaylists(documents, table, {
      userIds: [claim.Item?.userId as string],
      tracks: seededTracks,
      count: PLAYLISTS_MAX,
      tracksEach: PLAYLIST_TRACKS_MAX,
    });
    const seededIn = performance.now() - seeding;
    const loaded = await measure();
    say(
      `Creators and the feed at size (${count} sequential requests each; seeded 10000 users, 100000 tracks, 10000 playlists, 1000 more creators and the measured creator's ${full} playlists of ${PLAYLIST_TRACKS_MAX} tracks, three in four public, in ${(seededIn / 1000).toFixed(0)} s):`,
    );
    for (const name of Object.keys(calls)) {
      const before = empty[name] as number[];
      const after = loaded[name] as number[];
      say(`  ${name}`);
      say(`    small table   p50 ${ms(percentile(before, 50))}  p95 ${ms(percentile(before, 95))}`);
      say(`    seeded table  p50 ${ms(percentile(after, 50))}  p95 ${ms(percentile(after, 95))}`);
      say(`    ratio (p50, seeded ÷ small)  ${(percentile(after, 50) / percentile(before, 50)).toFixed(2)}`);
    }
  } finally {
    documents.destroy();
    await cloud.stop();
  }
}

/** The gallery's sorts at size, in a throwaway cloud of its own (bench-community.ts, decision 057). */
async function communityAtScale(): Promise<void> {
  const cloud = await startBenchCloud();
  const documents = tableOf(cloud);
  try {
    await communityBench({
      url: cloud.url,
      tableName: cloud.env.TABLE_NAME,
      documents,
      latency,
      percentile,
      ms,
      say,
    });
  } finally {
    documents.destroy();
    await cloud.stop();
  }
}

/** Export everything at 10 and 100 tracks, in a throwaway cloud of its own (bench-export.ts). */
async function exportEverything(): Promise<void> {
  const cloud = await startBenchCloud();
  const documents = tableOf(cloud);
  try {
    await exportBench({ cloud, documents, signIn: (label) => benchUser(cloud, label), say });
  } finally {
    documents.destroy();
    await cloud.stop();
  }
}

/** Stems of a 240 s track, in a throwaway cloud of its own (bench-stems.ts, decision 044). */
async function stems(): Promise<void> {
  const cloud = await startBenchCloud();
  const documents = tableOf(cloud);
  const stepFunctions = new SFNClient({
    region: cloud.env.AWS_REGION,
    endpoint: cloud.env.STEPFUNCTIONS_ENDPOINT,
    credentials: {
      accessKeyId: cloud.env.AWS_ACCESS_KEY_ID,
      secretAccessKey: cloud.env.AWS_SECRET_ACCESS_KEY,
    },
  });
  try {
    await stemsBench({ cloud, documents, stepFunctions, signIn: (label) => benchUser(cloud, label), say });
  } finally {
    documents.destroy();
    stepFunctions.destroy();
    await cloud.stop();
  }
}

// `npm run bench -- admin synthesiser` runs only the named sections; `api-latency` is the
// first part of `api` alone (no mixed load, pipeline or billing), `api-load` its mixed load
// alone and `pipeline` its generation pipeline alone, each run only when named.
const sections: Record<string, () => Promise<void>> = {
  start: timeToFirstPage,
  spa: spaSize,
  bundles,
  api: localCloudMeasures,
  'api-latency': localApiLatency,
  'api-load': localMixedLoad,
  pipeline: localPipeline,
  admin: adminAtScale,
  creators: creatorsAtScale,
  community: communityAtScale,
  export: exportEverything,
  stems,
  synthesiser,
  lyrics: () => lyricsBench(say),
  analysis: () => analysisBench(say),
  lighthouse: () => lighthouseReport(root, say),
};
const chosen = process.argv.slice(2).filter((name) => name in sections);
say(`Tunesmith bench, ${new Date().toISOString()}, node ${process.version}`);
say(await machineSpeed());
const onlyWhenNamed = new Set(['api-latency', 'api-load', 'pipeline']);
for (const [name, run] of Object.entries(sections)) {
  if (chosen.length > 0 ? !chosen.includes(name) : onlyWhenNamed.has(name)) continue;
  say();
  await run();
}
keepAlive.destroy();
// Only a full run replaces the report on record.
const reportFile = join(root, 'bench-results', chosen.length > 0 ? 'partial.txt' : 'latest.txt');
try {
  const { mkdirSync } = await import('node:fs');
  mkdirSync(dirname(reportFile), { recursive: true });
  writeFileSync(reportFile, `${lines.join('\n')}\n`);
  console.log(`\nReport written to ${reportFile}`);
} catch {
  // the report on stdout is what matters
}
