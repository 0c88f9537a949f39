import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSharePageHandler, creatorPageKey, playlistSharePageId, sharePageId } from './share-pages';

// The local stand-in for the edge's /track/{id} (decisions 024, 026): a visitor gets the track's share
// document when the site bucket has one; a browser with the signed-in hint, and any track without one, the shell.

const documents = new Map([
  ['share/track/abc-123.html', '<!doctype html><h1>Night Drive</h1>'],
  ['share/playlist/pl-1.html', '<!doctype html><title>Road Trip | Tunesmith</title>'],
  ['share/creator/ada.html', '<!doctype html><meta property="og:title" content="Ada (@Ada)" />'],
]);
const asked: string[] = [];
const s3 = {
  async send(command: { input: { Bucket: string; Key: string } }) {
    asked.push(command.input.Key);
    const body = documents.get(command.input.Key);
    if (body === undefined)
      throw Object.assign(new Error('The specified key does not exist.'), {
        name: 'NoSuchKey',
        $metadata: { httpStatusCode: 404 },
      });
    return { Body: { transformToString: async () => body } };
  },
} as unknown as S3Client;

let server: http.Server;
let base: string;

beforeAll(async () => {
  const share = createSharePageHandler({
    s3,
    bucket: 'tunesmith-site',
    headers: { 'x-frame-options': 'DENY' },
  });
  server = http.createServer((req, res) => {
    void share(req, res, async () => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end('<!doctype html><title>shell</title>');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const get = async (pathname: string, cookie?: string) => {
  const response = await fetch(`${base}${pathname}`, cookie ? { headers: { cookie } } : {});
  return { response, html: await response.text() };
};

describe('local share pages', () => {
  it("answers a visitor with the track's document, revalidated as the shell is, with the site's headers", async () => {
    for (const cookie of [undefined, 'theme=dark']) {
      const { response, html } = await get('/track/abc-123', cookie);
      expect(html).toContain('<h1>Night Drive</h1>');
      expect(response.headers.get('cache-control')).toBe('public, no-cache');
      expect(response.headers.get('x-frame-options')).toBe('DENY');
    }
  });

  it('answers a browser with the signed-in hint with the shell, without looking for a document', async () => {
    asked.length = 0;
    for (const cookie of ['ts_signed_in=1', 'a=b; __Host-ts_signed_in=1']) {
      const { html } = await get('/track/abc-123', cookie);
      expect(html, cookie).toContain('<title>shell</title>');
      expect(html, cookie).not.toContain('Night Drive');
    }
    expect(asked).toEqual([]);
  });

  it('answers a track without a document, and every other path, with the shell', async () => {
    expect((await get('/track/private-1')).html).toContain('<title>shell</title>');
    expect((await get('/library')).html).toContain('<title>shell</title>');
  });

  it('looks up only well-formed track ids', () => {
    expect(sharePageId('/track/abc-123?x=1')).toBe('abc-123');
    expect(sharePageId('/track/abc-123/')).toBe('abc-123');
    expect(sharePageId('/track/a.b')).toBeUndefined();
    expect(sharePageId('/track/a/b')).toBeUndefined();
  });

  it("answers a visitor with a public playlist's document, and the shell for one without (decision 058)", async () => {
    const { response, html } = await get('/playlist/pl-1');
    expect(html).toContain('<title>Road Trip | Tunesmith</title>');
    expect(response.headers.get('cache-control')).toBe('public, no-cache');
    expect((await get('/playlist/pl-1', 'ts_signed_in=1')).html).toContain('<title>shell</title>');
    expect((await get('/playlist/private-1')).html).toContain('<title>shell</title>');
    expect(playlistSharePageId('/playlist/pl-1/?x=1')).toBe('pl-1');
    expect(playlistSharePageId('/playlist/a.b')).toBeUndefined();
    expect(playlistSharePageId('/playlist/a/b')).toBeUndefined();
  });

  it("answers a visitor's /@handle with the creator's document, in any case (decision 059)", async () => {
    expect((await get('/@Ada')).html).toContain('og:title');
    expect((await get('/@ada')).html).toContain('og:title');
    expect((await get('/@ada', 'ts_signed_in=1')).html).toContain('<title>shell</title>');
    expect((await get('/@grace')).html).toContain('<title>shell</title>');
    expect(creatorPageKey('/@Ada?x=1')).toBe('share/creator/ada.html');
    expect(creatorPageKey('/@a.b')).toBeUndefined();
    expect(creatorPageKey('/@ada/tracks')).toBeUndefined();
  });
});
