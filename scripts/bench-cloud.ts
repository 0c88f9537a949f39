import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { LocalCloud } from '../local/src/cloud';
import { startLocalCloudProcess } from '../local/src/cloud-process';

const repoRoot = fileURLToPath(new URL('../', import.meta.url));
const bareServerFile = fileURLToPath(new URL('./bench-bare-server.ts', import.meta.url));

/**
 * A throwaway local cloud (in-memory data, API only) for one section of
 * `npm run bench`, in a process of its own, as `npm start` runs it. Never in
 * the bench's own process: the handler modules of a process serve the first
 * local cloud that used them (local/src/api-adapter.ts, `lambdaLoader`), so a
 * second cloud there (the admin section after the API section) would answer
 * its API with 500. In a process of its own, the cloud's server also has its
 * event loop to itself, not shared with the bench's clients.
 *
 * With `BENCH_CPU_PROF=<dir>`, that process runs under `--cpu-prof` and writes
 * its CPU profile into `<dir>` when the cloud stops (open it in Chrome's
 * DevTools, or summarise it with `scripts/cpu-profile-top.ts`).
 */
export function startBenchCloud(): Promise<LocalCloud> {
  const profileDir = process.env.BENCH_CPU_PROF;
  return startLocalCloudProcess(
    {
      port: 0,
      dataDir: '',
      fresh: false,
      persist: false,
      web: 'none',
      quiet: true,
    },
    profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [],
  );
}

export interface BareServer {
  url: string;
  /** Its process, to read the CPU time it spent. */
  pid: number;
  stop(): Promise<void>;
}

/**
 * The baseline beside the local API (bench-bare-server.ts): a bare Node HTTP
 * server running the same DynamoDB query as `GET /api/plans` with the raw SDK,
 * against `cloud`'s table, in a process of its own like the cloud's server, so
 * the two are measured alike.
 */
export async function startBareServer(cloud: Pick<LocalCloud, 'env'>): Promise<BareServer> {
  const { env } = cloud;
  const config = {
    endpoint: env.DYNAMODB_ENDPOINT,
    region: env.AWS_REGION,
    tableName: env.TABLE_NAME,
    credentials: { accessKeyId: env.AWS_ACCESS_KEY_ID, secretAccessKey: env.AWS_SECRET_ACCESS_KEY },
  };
  const child = spawn(process.execPath, ['--import', 'tsx', bareServerFile, JSON.stringify(config)], {
    cwd: repoRoot,
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  child.stdin.on('error', () => {});
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout }).once('line', resolve);
    exited.then(() => reject(new Error('The bare baseline server exited before it listened')));
  });
  const { url } = JSON.parse(line) as { url: string };
  return {
    url,
    pid: child.pid as number,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.stdin.end();
        await exited;
      }
    },
  };
}
