/**
 * Uploads an audio file, restyles it, waits until the new song is completed and prints it.
 * Run: TUNESMITH_URL=https://tunesmith.example TUNESMITH_API_KEY=ts_live_… npx tsx restyle-upload.ts song.mp3 "synthwave, 80s"
 * (a key with the generate and read scopes; Node 20 or later).
 */
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { basename, extname } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

const baseUrl = process.env.TUNESMITH_URL;
const apiKey = process.env.TUNESMITH_API_KEY;
const [file, tags] = process.argv.slice(2);
if (!baseUrl || !apiKey || !file || !tags) {
  throw new Error('Set TUNESMITH_URL and TUNESMITH_API_KEY, and pass a file and tags');
}

const types: Record<string, string> = {
  '.wav': 'audio/wav',
  '.m4a': 'audio/mp4',
  '.ogg': 'audio/ogg',
  '.mp3': 'audio/mpeg',
};

interface Track {
  id: string;
  status: 'pending' | 'processing' | 'completed' | 'failed';
  audio: { stream: string | null; wav: string | null } | null;
  error: string | null;
}

/** Calls the API; waits out a 429 as its Retry-After says, and throws the API's message on any other error. */
async function api<T>(
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<T> {
  for (;;) {
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers: {
        Authorization: `Bearer ${apiKey}`,
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (response.status === 429) {
      await sleep(Number(response.headers.get('Retry-After') ?? 1) * 1000);
      continue;
    }
    const answer = await response.json();
    if (!response.ok) throw new Error(`${response.status} ${answer.error.code}: ${answer.error.message}`);
    return answer as T;
  }
}

// 1. Reserve the upload: where to PUT the file, and the inputAudio value that names it.
const audio = await readFile(file);
const upload = await api<{ uploadUrl: string; headers: Record<string, string>; inputAudio: string }>(
  'POST',
  '/api/v1/uploads',
  {
    filename: basename(file),
    type: types[extname(file).toLowerCase()] ?? 'audio/mpeg',
    size: audio.byteLength,
  },
  { 'Idempotency-Key': randomUUID() },
);

// 2. Upload the file itself, with the headers the answer names.
const put = await fetch(upload.uploadUrl, { method: 'PUT', headers: upload.headers, body: audio });
if (!put.ok) throw new Error(`The upload failed: ${put.status}`);

// 3. Restyle it, and wait for the new song.
const started = await api<{ id: string }>(
  'POST',
  '/api/v1/tracks',
  { tags, inputAudio: upload.inputAudio },
  { 'Idempotency-Key': randomUUID() },
);
let track = await api<Track>('GET', `/api/v1/tracks/${started.id}`);
while (track.status === 'pending' || track.status === 'processing') {
  await sleep(2000);
  track = await api<Track>('GET', `/api/v1/tracks/${started.id}`);
}
if (track.status === 'failed') throw new Error(`Track ${track.id} failed: ${track.error}`);
console.log(JSON.stringify(track));
