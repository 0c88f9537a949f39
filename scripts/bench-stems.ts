/**
 * `npm run bench -- stems` (decision 044): stems of a 240 s track on a
 * throwaway local cloud with the embedded provider. A Premium user makes a
 * 240 s track (its download prepared), then asks for 4 stems and, once they
 * are ready, for 6: the time from the ask until `GET /api/track/{id}/stems`
 * says ready (the stems play: their WAVs as they came and their peaks are
 * stored, decision 048), the
 * provider's own time (queue and processing, from its status metrics), and
 * what is left, which the issue wants at most 2 s. Then FinishStems's phases
 * from the execution's output: each summed over the stems (the stems of the
 * first phase are made at once, so their sum exceeds the wall time, which is
 * `playable`); `loudness`, `opus`, the downloads' `marking`, `c2pa`, `hashing` and
 * `storeDownload`, and the zip come after the stems play. A
 * report, never a gate.
 */
import { DescribeExecutionCommand, type SFNClient } from '@aws-sdk/client-sfn';
import { type DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { dynamoGenerationStore } from '../functions/src/adapters/dynamo/generation-store';
import { keys } from '../functions/src/data/keys';
import type { LocalCloud } from '../local/src/cloud';

export interface StemsBenchOptions {
  cloud: LocalCloud;
  documents: DynamoDBDocumentClient;
  stepFunctions: SFNClient;
  signIn: (label: string) => Promise<string>;
  say: (line?: string) => void;
}

const TRACK_SECONDS = 240;
const RUNS = 3;
const DEADLINE_MS = 180_000;
const ms = (n: number) => `${Math.round(n)} ms`;
const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)] ?? 0;

async function until<T>(what: string, probe: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + DEADLINE_MS;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what} took over ${DEADLINE_MS / 1000} s`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

export async function stemsBench(options: StemsBenchOptions): Promise<void> {
  const { cloud, documents, say } = options;
  const store = dynamoGenerationStore(documents, cloud.env.TABLE_NAME);
  const cookie = await options.signIn('stems');
  const headers = { origin: cloud.url, 'content-type': 'application/json', cookie };
  const call = (path: string, init: RequestInit = {}) => fetch(`${cloud.url}${path}`, { ...init, headers });
  const { id: userId } = (await (await call('/api/auth/user')).json()) as { id: string };
  // Premium (100 a week, 6 stems), as the billing webhook would set it.
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

  const track = async () => {
    const res = await call('/api/generate-text-to-music', {
      method: 'POST',
      body: JSON.stringify({
        tags: 'hip hop, female vocals',
        lyrics: '[verse]\nrolling through the city lights\n[chorus]\nhold on, hold on tonight',
        duration: TRACK_SECONDS,
        visibility: 'public',
      }),
    });
    if (res.status !== 201) throw new Error(`generate answered ${res.status}: ${await res.text()}`);
    const { generationId } = (await res.json()) as { generationId: string };
    await until(`track ${generationId}`, async () => {
      const status = (await (await call(`/api/generation/${generationId}/status`)).json()) as {
        status: string;
        downloadReady: boolean;
      };
      if (status.status === 'failed') throw new Error(`track ${generationId} failed`);
      return status.status === 'completed' && status.downloadReady ? true : undefined;
    });
    return generationId;
  };

  const separate = async (id: string, set: '4' | '6') => {
    const started = performance.now();
    const res = await call(`/api/generation/${id}/stems`, { method: 'POST', body: JSON.stringify({ set }) });
    if (res.status !== 202) throw new Error(`stems answered ${res.status}: ${await res.text()}`);
    await until(`stems ${set} of ${id}`, async () => {
      const body = (await (await call(`/api/track/${id}/stems`)).json()) as { status: string; set?: string };
      if (body.status === 'failed') throw new Error(`the stems of ${id} failed`);
      return body.status === 'ready' && body.set === set ? true : undefined;
    });
    const total = performance.now() - started;
    const record = (await store.get(id))?.stems?.[set];
    const provider = (await (
      await fetch(
        `${cloud.env.FAL_BASE_URL}/queue.fal.run/fal-ai/demucs/requests/${record?.requestId}/status`,
      )
    ).json()) as { metrics?: { inference_time?: number; queue_time?: number } };
    const providerMs = ((provider.metrics?.inference_time ?? 0) + (provider.metrics?.queue_time ?? 0)) * 1000;
    const executionArn = `${cloud.env.STATE_MACHINE_ARN.replace(':stateMachine:', ':execution:')}:${id}-stems${set}-${record?.attempt}`;
    const phases = await until(`the execution of stems ${set} of ${id}`, async () => {
      const described = await options.stepFunctions.send(new DescribeExecutionCommand({ executionArn }));
      if (described.status === 'RUNNING') return undefined;
      return (
        (JSON.parse(described.output ?? '{}') as { stems?: { timings?: Record<string, number> } }).stems
          ?.timings ?? {}
      );
    });
    return { total, providerMs, overhead: total - providerMs, phases };
  };

  say(
    `Stems of a ${TRACK_SECONDS} s track, ${RUNS} tracks (local cloud, embedded provider, polled every 10 ms):`,
  );
  const runs: Record<'4' | '6', Array<Awaited<ReturnType<typeof separate>>>> = { '4': [], '6': [] };
  for (let i = 0; i < RUNS; i++) {
    const id = await track();
    runs['4'].push(await separate(id, '4'));
    runs['6'].push(await separate(id, '6'));
  }
  for (const set of ['4', '6'] as const) {
    const list = runs[set];
    const over = list.map((r) => r.overhead);
    say(`  ${set} stems`);
    say(
      `    ask → playable             p50 ${ms(median(list.map((r) => r.total)))}  max ${ms(Math.max(...list.map((r) => r.total)))}`,
    );
    say(`    the provider's time        p50 ${ms(median(list.map((r) => r.providerMs)))}`);
    say(
      `    ours (− provider)          p50 ${ms(median(over))}  max ${ms(Math.max(...over))}  (goal: ≤ 2000 ms)`,
    );
    const names = [...new Set(list.flatMap((r) => Object.keys(r.phases)))];
    say(
      `    FinishStems, p50 of each phase: ${names.map((n) => `${n} ${ms(median(list.map((r) => r.phases[n] ?? 0)))}`).join(', ')}`,
    );
  }
}
