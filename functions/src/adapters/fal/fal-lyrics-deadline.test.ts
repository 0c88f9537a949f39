import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MusicProviderError } from '../../domain/generations/music-provider';
import { falMusicProvider } from './fal-provider';

// A queue that never gets to the lyrics job: the call gives up on its own
// deadline (well inside the API function's timeout) and cancels the job.

let queue: http.Server;
let baseUrl = '';
const cancelled: string[] = [];

beforeAll(async () => {
  queue = http.createServer((req, res) => {
    const url = req.url ?? '';
    res.setHeader('content-type', 'application/json');
    if (req.method === 'PUT' && url.endsWith('/cancel')) {
      cancelled.push(url);
      res.writeHead(202).end('{"status":"CANCELLATION_REQUESTED"}');
      return;
    }
    if (req.method === 'POST') {
      const root = `${baseUrl}/queue.fal.run/openrouter/router/requests/job-1`;
      res.end(
        JSON.stringify({
          request_id: 'job-1',
          status_url: `${root}/status`,
          response_url: root,
          cancel_url: `${root}/cancel`,
        }),
      );
      return;
    }
    res.end(JSON.stringify({ status: 'IN_QUEUE', queue_position: 40 }));
  });
  await new Promise<void>((resolve) => queue.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(queue.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => queue.close(resolve)));

describe('the lyrics call', () => {
  it('gives up at its deadline as a provider failure, and cancels the job at fal', async () => {
    const provider = falMusicProvider({ key: 'test', baseUrl, pollIntervalMs: 20, lyricsTimeoutMs: 300 });
    const error = await provider.writeLyrics({ prompt: 'rain', duration: 30 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MusicProviderError);
    await new Promise((r) => setTimeout(r, 100));
    expect(cancelled.some((url) => url.includes('/requests/job-1/cancel'))).toBe(true);
  });
});
