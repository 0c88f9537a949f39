/**
 * The embedded music provider: an HTTP server on 127.0.0.1 that speaks fal's
 * queue protocol (see shared/notes/fal.md) for `fal-ai/ace-step`, the other
 * music models of the registry (models.ts: `fal-ai/minimax-music/v2`,
 * `fal-ai/minimax-music/v2.5`, `CassetteAI/music-generator`,
 * `fal-ai/stable-audio-25/text-to-audio`),
 * `fal-ai/ace-step/audio-to-audio`, `fal-ai/ace-step/audio-outpaint` (extend),
 * `fal-ai/ace-step/audio-inpaint` (repaint), `fal-ai/demucs` (stems, separate.ts) and
 * `openrouter/router`, so the product's
 * unchanged `@fal-ai/client` code reaches it through a requestMiddleware that
 * rewrites `https://<host><path>` to `${FAL_BASE_URL}/<host><path>`.
 *
 * Routes (the `/queue.fal.run` prefix is optional):
 *   POST /queue.fal.run/{endpoint}?fal_webhook=URL      submit
 *   GET  /queue.fal.run/{owner}/{alias}/requests/{id}/status[?logs=1]   (the sub-path is dropped)
 *   GET  /queue.fal.run/{owner}/{alias}/requests/{id}   result
 *   PUT  /queue.fal.run/{owner}/{alias}/requests/{id}/cancel
 *   GET  /files/{id}.wav | /files/{id}.flac             rendered audio
 *   GET  /.well-known/jwks.json                         webhook keys (Ed25519, OKP)
 *
 * Failure on demand, by a tag in `tags` (or `prompt` for lyrics and the other models) or the
 * header `x-tunesmith-fail` on submit:
 *   fail:submit    submit answers 422
 *   fail:provider  the job completes, its result answers 400 and the webhook says ERROR
 *   fail:timeout   the job never completes (until cancelled)
 *   no-webhook     the job completes but no webhook is sent (lost-webhook poll path)
 * `fal-ai/demucs` takes no tags: it fails (as fail:provider) when the song at
 * `audio_url` was made with the tag `fail:stems`, so a test can make a track
 * whose separation fails.
 * A cancelled job completes with an error result and an ERROR webhook, and so
 * does a job whose audio_url cannot be fetched or decoded.
 *
 * Lyrics `[instrumental]` or `[inst]` render no vocal line on every endpoint.
 * Every WAV it writes carries its render parameters (synth.ts `RenderMeta`), so
 * extend and repaint continue a song it made in the same tempo and key (edit.ts).
 */
import {
  createHash,
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  type KeyObject,
  randomInt,
  randomUUID,
  sign,
} from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { AudioEditError, anchor, decodeSource, inpaintSteps, outpaintSteps } from './edit';
import { writeLyrics } from './lyrics';
import {
  askOf,
  CASSETTE_ENDPOINT,
  isModelEndpoint,
  MODEL_ENDPOINTS,
  modelRenderSteps,
  STABLE_AUDIO_ENDPOINT,
  validateModelInput,
  wavSampleDigest,
} from './models';
import { decodeAudio, restylePlan, restyleSteps, toMonoAtSampleRate } from './restyle';
import { STEM_NAMES_4, STEM_NAMES_6, type StemName, separateSteps } from './separate';
import {
  clampDuration,
  encodeWav,
  metaFor,
  planFor,
  type RenderMeta,
  readWavMeta,
  renderSteps,
  SAMPLE_RATE,
  type SungLyric,
} from './synth';
import { hear, WHISPER_ENDPOINT, whisperOutput } from './whisper';

export const TEXT_ENDPOINT = 'fal-ai/ace-step';
export const AUDIO_ENDPOINT = 'fal-ai/ace-step/audio-to-audio';
export const OUTPAINT_ENDPOINT = 'fal-ai/ace-step/audio-outpaint';
export const INPAINT_ENDPOINT = 'fal-ai/ace-step/audio-inpaint';
export const LYRICS_ENDPOINT = 'openrouter/router';
export const STEMS_ENDPOINT = 'fal-ai/demucs';
const ENDPOINTS = [
  TEXT_ENDPOINT,
  AUDIO_ENDPOINT,
  OUTPAINT_ENDPOINT,
  INPAINT_ENDPOINT,
  LYRICS_ENDPOINT,
  WHISPER_ENDPOINT,
  STEMS_ENDPOINT,
  ...MODEL_ENDPOINTS,
];
/** fal-ai/demucs's models, and the stems each separates into. */
const DEMUCS_MODELS = [
  'htdemucs',
  'htdemucs_ft',
  'htdemucs_6s',
  'hdemucs_mmi',
  'mdx',
  'mdx_extra',
  'mdx_q',
  'mdx_extra_q',
];
/** The tag of a song whose separation fails. */
export const FAIL_STEMS_TAG = 'fail:stems';
/** Endpoints that edit the audio at `audio_url`. */
const AUDIO_INPUT = [AUDIO_ENDPOINT, OUTPAINT_ENDPOINT, INPAINT_ENDPOINT];
export const FAIL_HEADER = 'x-tunesmith-fail';
export type FailMode = 'fail:provider' | 'fail:submit' | 'fail:timeout' | 'no-webhook';
const FAIL_MODES: FailMode[] = ['fail:provider', 'fail:submit', 'fail:timeout', 'no-webhook'];
const MAX_AUDIO_BYTES = 50 * 1024 * 1024;

export interface MusicProviderOptions {
  /** Port on 127.0.0.1; 0 (default) picks a free one. */
  port?: number;
  /** Keeps the webhook key pair (and rendered files) here across starts; otherwise both live in memory. */
  dataDir?: string;
  /** Least time a job spends IN_PROGRESS, so that state is observable (default 1000 ms). */
  minProcessingMs?: number;
  /** Time a job stays IN_QUEUE (default 100 ms). */
  queueMs?: number;
  /** Webhook delivery attempts (default 5) and the first retry delay, doubled each time (default 500 ms). */
  webhookAttempts?: number;
  webhookRetryMs?: number;
  /** Sent as X-Fal-Webhook-User-Id. */
  userId?: string;
  log?: (line: string) => void;
}

export interface MusicProvider {
  /** `http://127.0.0.1:PORT`: the FAL_BASE_URL. */
  url: string;
  port: number;
  jwksUrl: string;
  /** What the product needs to talk to this provider. */
  env: { FAL_BASE_URL: string; FAL_WEBHOOK_JWKS_URL: string; FAL_KEY: string };
  /** Webhook deliveries so far (for tests): request id, status and the HTTP status received (0 = network error). */
  deliveries: Array<{ requestId: string; url: string; attempt: number; status: number }>;
  stop(): Promise<void>;
}

type JobState = 'IN_QUEUE' | 'IN_PROGRESS' | 'COMPLETED';

interface Job {
  id: string;
  endpoint: string;
  app: string; // owner/alias
  input: Record<string, unknown>;
  fail: Set<FailMode>;
  webhook?: string;
  state: JobState;
  createdAt: number;
  startedAt?: number;
  completedAt?: number;
  result?: unknown;
  error?: { status: number; detail: unknown; message: string };
  cancelled: boolean;
  logs: Array<{ message: string; level: string; source: string; timestamp: string }>;
}

interface Keys {
  privateKey: KeyObject;
  jwks: { keys: Array<Record<string, string>> };
}

function loadKeys(dataDir?: string): Keys {
  const file = dataDir ? path.join(dataDir, 'music-provider-ed25519.pem') : undefined;
  let privateKey: KeyObject;
  if (file && existsSync(file)) privateKey = createPrivateKey(readFileSync(file, 'utf8'));
  else {
    privateKey = generateKeyPairSync('ed25519').privateKey;
    if (file) {
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });
    }
  }
  const jwk = createPublicKey(privateKey).export({ format: 'jwk' }) as {
    kty: string;
    crv: string;
    x: string;
  };
  const kid = createHash('sha256').update(jwk.x).digest('hex').slice(0, 16);
  return {
    privateKey,
    jwks: { keys: [{ kty: jwk.kty, crv: jwk.crv, x: jwk.x, kid, use: 'sig', alg: 'EdDSA' }] },
  };
}

/** Tags (comma-separated) and header values that ask for a failure. */
export function failModes(...sources: Array<string | undefined>): Set<FailMode> {
  const out = new Set<FailMode>();
  for (const s of sources) {
    for (const part of (s ?? '').toLowerCase().split(/[,\s]+/)) {
      if ((FAIL_MODES as string[]).includes(part)) out.add(part as FailMode);
    }
  }
  return out;
}

const missing = (field: string) => ({
  loc: ['body', field],
  msg: 'field required',
  type: 'value_error.missing',
});

const notInRange = (field: string, ge: number, le: number) => ({
  loc: ['body', field],
  msg: `ensure this value is between ${ge} and ${le}`,
  type: 'value_error.number.not_in_range',
  ctx: { ge, le },
});

/** A number field, when given, lies in [ge, le]. */
function checkRange(
  input: Record<string, unknown>,
  field: string,
  ge: number,
  le: number,
  errors: unknown[],
) {
  const v = input[field];
  if (v === undefined) return;
  if (typeof v !== 'number' || !Number.isFinite(v) || v < ge || v > le)
    errors.push(notInRange(field, ge, le));
}

/** fal-style 422 details for an input, or undefined when it is valid. */
export function validate(endpoint: string, input: Record<string, unknown>): unknown[] | undefined {
  if (isModelEndpoint(endpoint)) return validateModelInput(endpoint, input);
  const errors: unknown[] = [];
  const str = (f: string) => typeof input[f] === 'string' && (input[f] as string).trim() !== '';
  if (endpoint === LYRICS_ENDPOINT) {
    if (!str('prompt')) errors.push(missing('prompt'));
  } else if (endpoint === WHISPER_ENDPOINT) {
    if (!str('audio_url')) errors.push(missing('audio_url'));
    else if (!/^https?:\/\//i.test(input.audio_url as string))
      errors.push({
        loc: ['body', 'audio_url'],
        msg: 'URL scheme should be http or https',
        type: 'value_error.url',
      });
    for (const [field, allowed] of [
      ['task', ['transcribe', 'translate']],
      ['chunk_level', ['segment', 'word']],
    ] as const)
      if (input[field] !== undefined && !(allowed as readonly unknown[]).includes(input[field]))
        errors.push({
          loc: ['body', field],
          msg: `value is not one of ${allowed.map((a) => `'${a}'`).join(', ')}`,
          type: 'value_error',
        });
  } else if (endpoint === STEMS_ENDPOINT) {
    if (!str('audio_url')) errors.push(missing('audio_url'));
    else if (!/^https?:\/\//i.test(input.audio_url as string))
      errors.push({
        loc: ['body', 'audio_url'],
        msg: 'URL scheme should be http or https',
        type: 'value_error.url',
      });
    const model = input.model ?? 'htdemucs_6s';
    if (typeof model !== 'string' || !DEMUCS_MODELS.includes(model))
      errors.push({
        loc: ['body', 'model'],
        msg: `value is not one of ${DEMUCS_MODELS.join(', ')}`,
        type: 'value_error',
      });
    const available: readonly string[] = model === 'htdemucs_6s' ? STEM_NAMES_6 : STEM_NAMES_4;
    if (
      input.stems !== undefined &&
      (!Array.isArray(input.stems) ||
        input.stems.some((s) => typeof s !== 'string' || !available.includes(s)))
    )
      errors.push({
        loc: ['body', 'stems'],
        msg: `stems must be among ${available.join(', ')}`,
        type: 'value_error',
      });
    // fal also writes MP3 stems; this provider writes WAV only, and says so rather than mislabel a WAV.
    if (input.output_format !== undefined && input.output_format !== 'wav')
      errors.push({
        loc: ['body', 'output_format'],
        msg:
          input.output_format === 'mp3'
            ? 'the embedded provider writes WAV stems only'
            : "value is not one of 'wav', 'mp3'",
        type: 'value_error',
      });
  } else {
    if (!str('tags')) errors.push(missing('tags'));
    if (input.lyrics !== undefined && typeof input.lyrics !== 'string')
      errors.push({ loc: ['body', 'lyrics'], msg: 'str type expected', type: 'type_error.str' });
    if (input.seed !== undefined && !Number.isInteger(input.seed))
      errors.push({ loc: ['body', 'seed'], msg: 'value is not a valid integer', type: 'type_error.integer' });
    if (endpoint === TEXT_ENDPOINT) checkRange(input, 'duration', 5, 240, errors);
    if (AUDIO_INPUT.includes(endpoint)) {
      if (!str('audio_url')) errors.push(missing('audio_url'));
      else if (!/^https?:\/\//i.test(input.audio_url as string))
        errors.push({
          loc: ['body', 'audio_url'],
          msg: 'URL scheme should be http or https',
          type: 'value_error.url',
        });
    }
    if (endpoint === OUTPAINT_ENDPOINT) {
      checkRange(input, 'extend_before_duration', 0, 240, errors);
      checkRange(input, 'extend_after_duration', 0, 240, errors);
    }
    if (endpoint === INPAINT_ENDPOINT) {
      const before = errors.length;
      checkRange(input, 'start_time', 0, 240, errors);
      checkRange(input, 'end_time', 0, 240, errors);
      checkRange(input, 'variance', 0, 1, errors);
      for (const f of ['start_time_relative_to', 'end_time_relative_to'])
        if (input[f] !== undefined && input[f] !== 'start' && input[f] !== 'end')
          errors.push({ loc: ['body', f], msg: "value is not one of 'start', 'end'", type: 'value_error' });
      const from = anchor(input.start_time_relative_to);
      if (errors.length === before && from === anchor(input.end_time_relative_to)) {
        // Same anchor: the order is known before the audio is.
        const start = (input.start_time as number | undefined) ?? 0;
        const end = (input.end_time as number | undefined) ?? 30;
        if (from === 'start' ? end <= start : end >= start)
          errors.push({
            loc: ['body', 'end_time'],
            msg: 'end_time must be after start_time',
            type: 'value_error',
          });
      }
    }
    if (endpoint === AUDIO_ENDPOINT) {
      if (!str('original_tags')) errors.push(missing('original_tags'));
      if (input.edit_mode !== undefined && input.edit_mode !== 'remix' && input.edit_mode !== 'lyrics')
        errors.push({
          loc: ['body', 'edit_mode'],
          msg: "value is not one of 'remix', 'lyrics'",
          type: 'value_error',
        });
    }
  }
  return errors.length ? errors : undefined;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const tick = () => new Promise((resolve) => setImmediate(resolve));

/** Runs a render generator in slices of about 15 ms so the server stays responsive. */
async function drive<T>(steps: Generator<void, T, void>, isCancelled: () => boolean): Promise<T | undefined> {
  let sliceStart = performance.now();
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
    if (performance.now() - sliceStart > 15) {
      await tick();
      if (isCancelled()) return undefined;
      sliceStart = performance.now();
    }
  }
}

async function fetchAudio(url: string): Promise<Uint8Array> {
  const response = await fetch(url, { signal: AbortSignal.timeout(30_000) });
  if (!response.ok) throw new Error(`Could not download audio_url (HTTP ${response.status})`);
  const declared = Number(response.headers.get('content-length') ?? 0);
  if (declared > MAX_AUDIO_BYTES) throw new Error('audio_url file is too large');
  const bytes = new Uint8Array(await response.arrayBuffer());
  if (bytes.length > MAX_AUDIO_BYTES) throw new Error('audio_url file is too large');
  return bytes;
}

export async function startMusicProvider(options: MusicProviderOptions = {}): Promise<MusicProvider> {
  const minProcessingMs = options.minProcessingMs ?? 1000;
  const queueMs = options.queueMs ?? 100;
  const attempts = options.webhookAttempts ?? 5;
  const retryMs = options.webhookRetryMs ?? 500;
  const userId = options.userId ?? 'tunesmith-local';
  const log = options.log ?? (() => {});
  const keys = loadKeys(options.dataDir);
  const filesDir = options.dataDir ? path.join(options.dataDir, 'music-files') : undefined;
  if (filesDir) mkdirSync(filesDir, { recursive: true });
  const files = new Map<string, Uint8Array>();
  const jobs = new Map<string, Job>();
  const deliveries: MusicProvider['deliveries'] = [];
  const timers = new Set<NodeJS.Timeout>();
  let stopped = false;
  let base = '';

  const later = (ms: number, fn: () => void) => {
    const t = setTimeout(() => {
      timers.delete(t);
      if (!stopped) fn();
    }, ms);
    timers.add(t);
  };

  const urls = (job: Job) => {
    const root = `${base}/queue.fal.run/${job.app}/requests/${job.id}`;
    return { response_url: root, status_url: `${root}/status`, cancel_url: `${root}/cancel` };
  };

  const addLog = (job: Job, message: string) =>
    job.logs.push({ message, level: 'INFO', source: 'user', timestamp: new Date().toISOString() });

  const saveFile = (id: string, bytes: Uint8Array, format: 'wav' | 'flac' = 'wav') => {
    if (filesDir) writeFileSync(path.join(filesDir, `${id}.${format}`), bytes);
    else files.set(`${id}.${format}`, bytes);
  };
  const readAudioFile = (id: string, format: string): Uint8Array | undefined => {
    if (!/^[0-9a-f-]{36}$/.test(id)) return undefined;
    if (filesDir) {
      const file = path.join(filesDir, `${id}.${format}`);
      return existsSync(file) ? readFileSync(file) : undefined;
    }
    return files.get(`${id}.${format}`);
  };
  // The words of a FLAC it rendered, by the digest of its samples: the app keeps a FLAC as a WAV with the
  // same samples, and the embedded recogniser hears them there.
  const sungByDigest = new Map<string, SungLyric[]>();
  const rememberSung = (digest: string, sung: SungLyric[]) => {
    sungByDigest.set(digest, sung);
    if (filesDir) writeFileSync(path.join(filesDir, `${digest}.sung.json`), JSON.stringify(sung));
  };
  const rememberedSung = (wav: Uint8Array): SungLyric[] | undefined => {
    const digest = wavSampleDigest(wav);
    if (!digest) return undefined;
    const known = sungByDigest.get(digest);
    if (known || !filesDir) return known;
    const file = path.join(filesDir, `${digest}.sung.json`);
    return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as SungLyric[]) : undefined;
  };

  async function sendWebhook(job: Job): Promise<void> {
    if (!job.webhook || job.fail.has('no-webhook')) return;
    const ok = !job.error;
    const body = JSON.stringify({
      request_id: job.id,
      gateway_request_id: job.id,
      status: ok ? 'OK' : 'ERROR',
      payload: ok ? job.result : { detail: job.error?.detail },
      ...(ok ? {} : { error: `Invalid status code: ${job.error?.status}` }),
    });
    for (let attempt = 1; attempt <= attempts && !stopped; attempt++) {
      const timestamp = String(Math.floor(Date.now() / 1000));
      const digest = createHash('sha256').update(body).digest('hex');
      const message = `${job.id}\n${userId}\n${timestamp}\n${digest}`;
      const signature = sign(null, Buffer.from(message), keys.privateKey).toString('hex');
      let status = 0;
      try {
        const response = await fetch(job.webhook, {
          method: 'POST',
          headers: {
            'Content-Type': 'application/json',
            'X-Fal-Webhook-Request-Id': job.id,
            'X-Fal-Webhook-User-Id': userId,
            'X-Fal-Webhook-Timestamp': timestamp,
            'X-Fal-Webhook-Signature': signature,
          },
          body,
          signal: AbortSignal.timeout(15_000),
        });
        status = response.status;
        await response.arrayBuffer().catch(() => undefined);
      } catch {
        status = 0;
      }
      deliveries.push({ requestId: job.id, url: job.webhook, attempt, status });
      if (status >= 200 && status < 300) return;
      log(`webhook for ${job.id} failed (attempt ${attempt}, status ${status})`);
      if (attempt < attempts) await sleep(retryMs * 2 ** (attempt - 1));
    }
  }

  function complete(job: Job): void {
    if (job.state === 'COMPLETED') return;
    job.state = 'COMPLETED';
    job.completedAt = Date.now();
    addLog(job, job.error ? `Request failed: ${job.error.message}` : 'Request completed');
    void sendWebhook(job);
  }

  async function work(job: Job): Promise<void> {
    job.state = 'IN_PROGRESS';
    job.startedAt = Date.now();
    addLog(job, 'Generating');
    if (job.fail.has('fail:timeout')) return; // stays IN_PROGRESS until cancelled
    const done = sleep(minProcessingMs);
    try {
      const input = job.input;
      const seed = Number.isInteger(input.seed) ? (input.seed as number) >>> 0 : randomInt(0, 2 ** 31);
      if (job.endpoint === STEMS_ENDPOINT) {
        const bytes = await fetchAudio(String(input.audio_url));
        addLog(job, `Downloaded ${bytes.length} bytes`);
        const source = await decodeSource(bytes);
        if (
          (source.meta?.tags ?? '')
            .toLowerCase()
            .split(/[,\s]+/)
            .includes(FAIL_STEMS_TAG)
        )
          job.fail.add('fail:provider');
        const model = typeof input.model === 'string' ? input.model : 'htdemucs_6s';
        const names = (
          Array.isArray(input.stems) ? input.stems : model === 'htdemucs_6s' ? STEM_NAMES_6 : STEM_NAMES_4
        ) as StemName[];
        const separated = await drive(separateSteps(source, names), () => job.cancelled);
        if (!separated || job.cancelled) return;
        if (separated.method === 'render') addLog(job, "Stems rendered from the song's own voices");
        else {
          addLog(job, 'Not an ACE-Step song of this provider: stems approximated by frequency bands');
          log(
            `demucs ${job.id}: ${String(input.audio_url).split('?')[0]} is not an ACE-Step song this provider made; its stems are an approximate split by frequency bands`,
          );
        }
        const result: Record<string, unknown> = {};
        for (const name of names) {
          const stem = separated.stems[name];
          if (!stem) continue;
          const id = randomUUID();
          const wav = encodeWav(stem, SAMPLE_RATE);
          saveFile(id, wav);
          result[name] = {
            url: `${base}/files/${id}.wav`,
            content_type: 'audio/wav',
            file_name: `${name}.wav`,
            file_size: wav.length,
          };
        }
        job.result = result;
      } else if (job.endpoint === LYRICS_ENDPOINT) {
        const prompt = String(input.prompt);
        const duration = Number(/(\d{1,3})\s*(?:s\b|sec|second)/i.exec(prompt)?.[1] ?? 60);
        job.result = { output: writeLyrics({ prompt, duration: clampDuration(duration), seed }) };
      } else if (job.endpoint === WHISPER_ENDPOINT) {
        const bytes = await fetchAudio(String(input.audio_url));
        const sung = readWavMeta(bytes)?.sung ?? rememberedSung(bytes);
        if (!sung)
          addLog(job, 'No words of ours in this audio: the embedded recogniser hears only songs it sang');
        // The same file is always heard the same way.
        const heardSeed = createHash('sha256').update(bytes).digest().readUInt32LE(0);
        const chunks = hear(sung ?? [], heardSeed);
        addLog(job, `Heard ${chunks.length} words of ${sung?.length ?? 0} sung`);
        job.result = whisperOutput(chunks, input.chunk_level === 'word' ? 'word' : 'segment');
      } else if (isModelEndpoint(job.endpoint)) {
        const render = await drive(
          modelRenderSteps(job.endpoint, askOf(job.endpoint, input, seed), seed),
          () => job.cancelled,
        );
        if (!render || job.cancelled) return;
        saveFile(job.id, render.bytes, render.format);
        if (render.digest) rememberSung(render.digest, render.sung);
        addLog(
          job,
          `Rendered ${render.seconds.toFixed(2)} s at ${render.bpm} bpm, ${render.sampleRate} Hz, ${render.channels === 1 ? 'mono' : 'stereo'} ${render.format.toUpperCase()}`,
        );
        const file = {
          url: `${base}/files/${job.id}.${render.format}`,
          content_type: render.contentType,
          file_name: `${job.id}.${render.format}`,
          file_size: render.bytes.length,
        };
        // Each model's output as fal documents it: CassetteAI's `audio_file`, Stable Audio's seed.
        job.result =
          job.endpoint === CASSETTE_ENDPOINT
            ? { audio_file: file }
            : job.endpoint === STABLE_AUDIO_ENDPOINT
              ? { audio: file, seed }
              : { audio: file };
      } else {
        const tags = String(input.tags);
        const lyrics = typeof input.lyrics === 'string' ? input.lyrics : '';
        const cancelled = () => job.cancelled;
        let channels: Float32Array[] | undefined;
        let meta: RenderMeta;
        if (job.endpoint === TEXT_ENDPOINT) {
          const duration = typeof input.duration === 'number' ? input.duration : 60;
          const plan = planFor({ tags, lyrics, duration, seed });
          const sink: { sung?: SungLyric[] } = {};
          channels = await drive(renderSteps(plan, sink), cancelled);
          meta = metaFor(plan, tags, sink.sung);
        } else {
          const bytes = await fetchAudio(String(input.audio_url));
          addLog(job, `Downloaded ${bytes.length} bytes`);
          if (job.endpoint === AUDIO_ENDPOINT) {
            const source = toMonoAtSampleRate(await decodeAudio(bytes));
            const plan = restylePlan(source, { tags, lyrics, seed });
            const sink: { sung?: SungLyric[] } = {};
            channels = await drive(restyleSteps(source, { tags, lyrics, seed }, plan, sink), cancelled);
            meta = metaFor(plan, tags, sink.sung);
          } else {
            const source = await decodeSource(bytes);
            const num = (f: string, fallback: number) =>
              typeof input[f] === 'number' ? (input[f] as number) : fallback;
            const edited = await drive(
              job.endpoint === OUTPAINT_ENDPOINT
                ? outpaintSteps(source, {
                    tags,
                    lyrics,
                    seed,
                    before: num('extend_before_duration', 0),
                    after: num('extend_after_duration', 30),
                  })
                : inpaintSteps(source, {
                    tags,
                    lyrics,
                    seed,
                    start: num('start_time', 0),
                    end: num('end_time', 30),
                    startFrom: anchor(input.start_time_relative_to),
                    endFrom: anchor(input.end_time_relative_to),
                    variance: num('variance', 0.5),
                  }),
              cancelled,
            );
            if (!edited) return;
            addLog(
              job,
              edited.context.basis === 'render'
                ? 'Tempo and key from the source render'
                : 'Key estimated from the source, tempo from the tags',
            );
            channels = edited.channels;
            meta = edited.meta;
          }
        }
        if (!channels || job.cancelled) return;
        const wav = encodeWav(channels, SAMPLE_RATE, meta);
        saveFile(job.id, wav);
        addLog(job, `Rendered ${((channels[0]?.length ?? 0) / SAMPLE_RATE).toFixed(2)} s at ${meta.bpm} bpm`);
        job.result = {
          audio: {
            url: `${base}/files/${job.id}.wav`,
            content_type: 'audio/wav',
            file_name: `${job.id}.wav`,
            file_size: wav.length,
          },
          seed,
          tags,
          lyrics,
        };
      }
      if (job.fail.has('fail:provider')) {
        job.result = undefined;
        job.error = {
          status: 500,
          message: 'Generation failed (fail:provider)',
          detail: [{ msg: 'Generation failed (fail:provider)', type: 'internal_error' }],
        };
      }
    } catch (error) {
      const field = error instanceof AudioEditError ? error.field : 'audio_url';
      job.error = {
        status: 422,
        message: (error as Error).message,
        detail: [{ loc: ['body', field], msg: (error as Error).message, type: 'value_error' }],
      };
    }
    await done;
    if (!job.cancelled) complete(job);
  }

  const send = (
    res: http.ServerResponse,
    status: number,
    body: unknown,
    headers: Record<string, string> = {},
  ) => {
    const text = JSON.stringify(body);
    res.writeHead(status, {
      'Content-Type': 'application/json',
      'Content-Length': Buffer.byteLength(text),
      ...headers,
    });
    res.end(text);
  };

  const readBody = (req: http.IncomingMessage): Promise<string> =>
    new Promise((resolve, reject) => {
      const chunks: Buffer[] = [];
      let size = 0;
      req.on('data', (c: Buffer) => {
        size += c.length;
        if (size > 1_000_000) req.destroy(new Error('body too large'));
        else chunks.push(c);
      });
      req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
      req.on('error', reject);
    });

  function statusBody(job: Job, withLogs: boolean): Record<string, unknown> {
    const body: Record<string, unknown> = { status: job.state, request_id: job.id, ...urls(job) };
    if (job.state === 'IN_QUEUE') {
      body.queue_position = [...jobs.values()].filter(
        (j) => j.state === 'IN_QUEUE' && j.createdAt < job.createdAt,
      ).length;
    }
    if (job.state === 'COMPLETED' && job.startedAt && job.completedAt)
      body.metrics = {
        inference_time: (job.completedAt - job.startedAt) / 1000,
        queue_time: (job.startedAt - job.createdAt) / 1000,
      };
    if (job.state !== 'IN_QUEUE') body.logs = withLogs ? job.logs : null;
    return body;
  }

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://local');
    const p = url.pathname.replace(/^\/queue\.fal\.run(?=\/)/, '');
    const method = req.method ?? 'GET';
    if (method === 'GET' && p.endsWith('/.well-known/jwks.json')) return send(res, 200, keys.jwks);
    const file = /^\/files\/([^/]+)\.(wav|flac)$/.exec(p);
    if (file && (method === 'GET' || method === 'HEAD')) {
      const bytes = readAudioFile(file[1] ?? '', file[2] ?? 'wav');
      if (!bytes) return send(res, 404, { detail: 'File not found' });
      res.writeHead(200, { 'Content-Type': `audio/${file[2]}`, 'Content-Length': bytes.length });
      res.end(method === 'HEAD' ? undefined : bytes);
      return;
    }
    const request = /^\/([^/]+\/[^/]+)\/requests\/([^/]+)(\/status|\/cancel)?$/.exec(p);
    if (request) {
      const job = jobs.get(request[2] ?? '');
      if (!job || job.app !== request[1]) return send(res, 404, { detail: 'Request not found' });
      const action = request[3] ?? '';
      if (action === '/status' && method === 'GET') {
        const logs = url.searchParams.get('logs') === '1' || url.searchParams.get('logs') === 'true';
        return send(res, job.state === 'COMPLETED' ? 200 : 202, statusBody(job, logs));
      }
      if (action === '/cancel' && method === 'PUT') {
        if (job.state === 'COMPLETED') return send(res, 400, { status: 'ALREADY_COMPLETED' });
        job.cancelled = true;
        job.error = { status: 400, message: 'Request was cancelled', detail: 'Request was cancelled' };
        complete(job);
        return send(res, 202, { status: 'CANCELLATION_REQUESTED' });
      }
      if (action === '' && method === 'GET') {
        if (job.state !== 'COMPLETED') return send(res, 400, { detail: 'Request is still in progress' });
        if (job.error)
          return send(
            res,
            job.error.status === 500 ? 400 : job.error.status,
            { detail: job.error.detail, message: job.error.message },
            { 'x-fal-request-id': job.id },
          );
        return send(res, 200, job.result, { 'x-fal-request-id': job.id });
      }
      return send(res, 405, { detail: 'Method not allowed' });
    }
    const endpoint = p.replace(/^\//, '').replace(/\/$/, '');
    if (method === 'POST' && ENDPOINTS.includes(endpoint)) {
      let input: Record<string, unknown>;
      try {
        const parsed: unknown = JSON.parse((await readBody(req)) || '{}');
        if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('not an object');
        input = parsed as Record<string, unknown>;
      } catch {
        return send(res, 422, {
          detail: [{ loc: ['body'], msg: 'Invalid JSON body', type: 'value_error.jsondecode' }],
        });
      }
      const header = req.headers[FAIL_HEADER];
      const fail = failModes(
        typeof input.tags === 'string' ? input.tags : undefined,
        typeof input.prompt === 'string' ? input.prompt : undefined,
        Array.isArray(header) ? header.join(',') : header,
      );
      if (fail.has('fail:submit'))
        return send(res, 422, {
          detail: [{ loc: ['body'], msg: 'Submission refused (fail:submit)', type: 'value_error' }],
        });
      const errors = validate(endpoint, input);
      if (errors) return send(res, 422, { detail: errors });
      const webhook = url.searchParams.get('fal_webhook') ?? undefined;
      if (webhook && !/^https?:\/\//i.test(webhook))
        return send(res, 422, {
          detail: [{ loc: ['query', 'fal_webhook'], msg: 'invalid URL', type: 'value_error.url' }],
        });
      const parts = endpoint.split('/');
      const job: Job = {
        id: randomUUID(),
        endpoint,
        app: `${parts[0]}/${parts[1]}`,
        input,
        fail,
        state: 'IN_QUEUE',
        createdAt: Date.now(),
        cancelled: false,
        logs: [],
      };
      if (webhook) job.webhook = webhook;
      jobs.set(job.id, job);
      later(queueMs, () => {
        if (!job.cancelled) void work(job);
      });
      return send(res, 200, { request_id: job.id, status: 'IN_QUEUE', ...urls(job), queue_position: 0 });
    }
    return send(res, 404, { detail: `Not found: ${method} ${url.pathname}` });
  }

  const server = http.createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      log(`provider error: ${(error as Error).stack ?? error}`);
      if (!res.headersSent) send(res, 400, { detail: 'Bad request' });
      else res.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  base = `http://127.0.0.1:${port}`;
  const jwksUrl = `${base}/.well-known/jwks.json`;
  return {
    url: base,
    port,
    jwksUrl,
    env: { FAL_BASE_URL: base, FAL_WEBHOOK_JWKS_URL: jwksUrl, FAL_KEY: 'local:embedded-provider' },
    deliveries,
    async stop() {
      if (stopped) return;
      stopped = true;
      for (const t of timers) clearTimeout(t);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
