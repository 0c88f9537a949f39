import { describe, expect, it } from 'vitest';
import { aBasicPlan, aPlan, aPrivateTrack } from '../../testing/fixtures';
import { fakeClock } from '../../testing/in-memory-accounts';
import { inMemoryGenerationStore } from '../../testing/in-memory-generations';
import type { User } from '../accounts/user';
import { DomainError } from '../errors';
import type { Generation } from '../tracks/track';
import { downloadFilename, downloadMessages, trackDownload } from './download';

const freePlan = aPlan();
const basicPlan = aBasicPlan();

type Subscriber = Pick<User, 'id' | 'planStatus' | 'planEndDate'>;
const paid: Subscriber = { id: 'owner', planStatus: 'active', planEndDate: null };
const free: Subscriber = { id: 'owner', planStatus: 'free', planEndDate: null };

const track = aPrivateTrack;

function deps(...generations: Generation[]) {
  return { generations: inMemoryGenerationStore(generations), clock: fakeClock() };
}

async function refusal(promise: Promise<unknown>): Promise<[string, string]> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DomainError);
  return [(error as DomainError).kind, (error as DomainError).message];
}

describe('trackDownload', () => {
  it('gives a paid owner the stored audio and the title as a .wav name', async () => {
    await expect(trackDownload(deps(track()), paid, basicPlan, 't1')).resolves.toEqual({
      audioUrl: 's3://tracks/tracks/owner/t1.wav',
      filename: 'Night Drive.wav',
    });
  });

  it('gives the WAV, not the compressed copy players stream', async () => {
    const withCopy = track({ streamAudioUrl: 's3://tracks/tracks/t1.opus' });
    await expect(trackDownload(deps(withCopy), paid, basicPlan, 't1')).resolves.toEqual({
      audioUrl: 's3://tracks/tracks/owner/t1.wav',
      filename: 'Night Drive.wav',
    });
  });

  it('saves under a name the caller asks for, made safe, or else the title', async () => {
    const asked = await trackDownload(deps(track()), paid, basicPlan, 't1', 'ai-music-1763900000000');
    expect(asked.filename).toBe('ai-music-1763900000000.wav');
    const unsafe = await trackDownload(deps(track()), paid, basicPlan, 't1', '../x');
    expect(unsafe.filename).toBe('_x.wav');
    expect((await trackDownload(deps(track()), paid, basicPlan, 't1', '  ')).filename).toBe(
      'Night Drive.wav',
    );
  });

  it('keeps downloads while a cancelled plan is still inside its paid period', async () => {
    const cancelled: Subscriber = {
      id: 'owner',
      planStatus: 'cancelled',
      planEndDate: '2026-03-20T00:00:00Z',
    };
    await expect(trackDownload(deps(track()), cancelled, basicPlan, 't1')).resolves.toMatchObject({
      filename: 'Night Drive.wav',
    });
    const ended: Subscriber = { id: 'owner', planStatus: 'cancelled', planEndDate: '2026-02-20T00:00:00Z' };
    expect(await refusal(trackDownload(deps(track()), ended, basicPlan, 't1'))).toEqual([
      'forbidden',
      downloadMessages.needsPaidPlan,
    ]);
  });

  it('refuses the free plan, and an active status without a paid plan', async () => {
    expect(await refusal(trackDownload(deps(track()), free, freePlan, 't1'))).toEqual([
      'forbidden',
      downloadMessages.needsPaidPlan,
    ]);
    expect(await refusal(trackDownload(deps(track()), paid, freePlan, 't1'))).toEqual([
      'forbidden',
      downloadMessages.needsPaidPlan,
    ]);
    expect(await refusal(trackDownload(deps(track()), paid, undefined, 't1'))).toEqual([
      'forbidden',
      downloadMessages.needsPaidPlan,
    ]);
  });

  it('answers not found to anyone but the owner, public or private, and for a missing track', async () => {
    const stranger: Subscriber = { ...paid, id: 'stranger' };
    for (const visibility of ['private', 'public'] as const) {
      expect(await refusal(trackDownload(deps(track({ visibility })), stranger, basicPlan, 't1'))).toEqual([
        'not-found',
        'Track not found',
      ]);
    }
    expect(await refusal(trackDownload(deps(), paid, basicPlan, 't1'))).toEqual([
      'not-found',
      'Track not found',
    ]);
  });

  it('refuses a track that has no finished audio yet', async () => {
    for (const status of ['pending', 'generating', 'failed'] as const) {
      expect(
        await refusal(trackDownload(deps(track({ status, audioUrl: null })), paid, basicPlan, 't1')),
      ).toEqual(['conflict', downloadMessages.notReady]);
    }
  });
});

describe('downloadFilename', () => {
  it('names the file after the title, or Untitled Track', () => {
    expect(downloadFilename('Night Drive')).toBe('Night Drive.wav');
    expect(downloadFilename(null)).toBe('Untitled Track.wav');
    expect(downloadFilename('   ')).toBe('Untitled Track.wav');
  });

  it('makes any title safe as a file name', () => {
    expect(downloadFilename('../../etc/passwd')).toBe('_.._etc_passwd.wav');
    expect(downloadFilename('AC/DC: "Live" <2026>?')).toBe('AC_DC_ _Live_ _2026__.wav');
    expect(downloadFilename('line\nbreak\ttab')).toBe('line_break_tab.wav');
    expect(downloadFilename('...')).toBe('Untitled Track.wav');
    expect(downloadFilename('Café déjà vu')).toBe('Café déjà vu.wav');
    expect(downloadFilename('x'.repeat(300))).toBe(`${'x'.repeat(100)}.wav`);
  });
});
