/**
 * Starts a song, waits until it is completed and prints it.
 * Run: TUNESMITH_URL=https://tunesmith.example TUNESMITH_API_KEY=ts_live_… npx tsx create-track.ts
 * (a key with the generate and read scopes; Node 20 or later).
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';

const baseUrl = process.env.TUNESMITH_URL;
const apiKey = process.env.TUNESMITH_API_KEY;
if (!baseUrl || !apiKey) throw new Error('Set TUNESMITH_URL and TUNESMITH_API_KEY');

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

// One Idempotency-Key per song: a retry of this request with the same key never makes (or charges) a second one.
const started = await api<{ id: string }>(
  'POST',
  '/api/v1/tracks',
  { tags: 'lo-fi hip hop, mellow piano, vinyl crackle', duration: 30, instrumental: true },
  { 'Idempotency-Key': randomUUID() },
);

let track = await api<Track>('GET', `/api/v1/tracks/${started.id}`);
while (track.status === 'pending' || track.status === 'processing') {
  await sleep(2000);
  track = await api<Track>('GET', `/api/v1/tracks/${started.id}`);
}
if (track.status === 'failed') throw new Error(`Track ${track.id} failed: ${track.error}`);
console.log(JSON.stringify(track));
