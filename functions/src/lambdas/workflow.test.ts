import { describe, expect, it, vi } from 'vitest';
import {
  executionEndedCounts,
  failedAndRefunded,
  TRACK_SOURCE_LINK_SECONDS,
  workflowDepsFromEnv,
} from './workflow';

describe('the workflow metrics of a failed track', () => {
  it('count failed and refunded when the track was marked failed and its unit given back', () => {
    expect(failedAndRefunded({ refunded: true })).toEqual(['GenerationsFailed', 'GenerationsRefunded']);
  });

  it('count nothing when the track was already final, so a retried step does not count twice', () => {
    expect(failedAndRefunded({ refunded: false })).toEqual([]);
    expect(failedAndRefunded(undefined)).toEqual([]);
  });

  it('count a failed separation apart, once: the track did not fail (decision 044)', () => {
    expect(failedAndRefunded({ refunded: true, stems: true })).toEqual(['SeparationsFailed']);
    expect(failedAndRefunded({ refunded: false, stems: true })).toEqual([]);
    expect(executionEndedCounts({ refunded: true, reason: 'Execution.TIMED_OUT', stems: true })).toEqual([
      'SeparationsFailed',
    ]);
  });

  it('count a track that plays but whose download was not prepared (alarmed), never as failed', () => {
    expect(executionEndedCounts({ downloadPending: true })).toEqual(['DownloadsNotPrepared']);
    expect(executionEndedCounts({ refunded: true, reason: 'Execution.TIMED_OUT' })).toEqual([
      'GenerationsFailed',
      'GenerationsRefunded',
    ]);
    expect(executionEndedCounts(undefined)).toEqual([]);
  });
});

describe("the provider's link to a parent track's WAV (extend, repaint)", () => {
  const env = {
    TABLE_NAME: 'table',
    AWS_REGION: 'eu-west-1',
    AWS_ACCESS_KEY_ID: 'AKIDEXAMPLE',
    AWS_SECRET_ACCESS_KEY: 'secret',
    TRACKS_BUCKET: 'tracks-bucket',
    UPLOADS_BUCKET: 'uploads-bucket',
    WEBHOOK_BASE_URL: 'https://app.example',
    // As on AWS: no local storage endpoint, even when the run around this test has one.
    S3_ENDPOINT: undefined,
    S3_FORCE_PATH_STYLE: undefined,
  };

  it('is a short-lived presigned GET of the WAV in the tracks bucket', async () => {
    for (const [name, value] of Object.entries(env)) vi.stubEnv(name, value);
    try {
      const deps = workflowDepsFromEnv({ ...process.env });
      const link = new URL(
        await (deps.trackAudioUrl as (s: string) => Promise<string>)('s3://tracks-bucket/tracks/p1.wav'),
      );
      expect(link.protocol).toBe('https:');
      expect(`${link.host}${link.pathname}`).toContain('tracks-bucket');
      expect(link.pathname).toMatch(/tracks\/p1\.wav$/);
      // Signed as of the start of its hour: at most the link's minutes plus that hour.
      expect(Number(link.searchParams.get('X-Amz-Expires'))).toBe(TRACK_SOURCE_LINK_SECONDS + 3600);
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it('is refused for anything that is not a track in the tracks bucket', async () => {
    for (const [name, value] of Object.entries(env)) vi.stubEnv(name, value);
    try {
      const deps = workflowDepsFromEnv({ ...process.env });
      const sign = deps.trackAudioUrl as (s: string) => Promise<string>;
      for (const stored of [
        's3://uploads-bucket/uploads/u1/a.wav',
        's3://tracks-bucket/other/p1.wav',
        'https://x.example/a.wav',
      ]) {
        await expect(sign(stored)).rejects.toMatchObject({ reason: 'rejected' });
      }
    } finally {
      vi.unstubAllEnvs();
    }
  });
});

describe('the site the files name', () => {
  const env = {
    TABLE_NAME: 'table',
    AWS_REGION: 'eu-west-1',
    TRACKS_BUCKET: 'tracks-bucket',
    UPLOADS_BUCKET: 'uploads-bucket',
    WEBHOOK_BASE_URL: 'https://app.example/',
  };

  it("is the site's public origin, which on AWS is also where the provider posts", () => {
    expect(workflowDepsFromEnv({ ...env }).site.origin).toBe('https://app.example');
    expect(workflowDepsFromEnv({ ...env, PUBLIC_ORIGIN: 'https://music.example/' }).site.origin).toBe(
      'https://music.example',
    );
  });

  it('signs WAV downloads with content credentials', () => {
    expect(workflowDepsFromEnv({ ...env }).contentCredentials).toBeDefined();
  });
});
