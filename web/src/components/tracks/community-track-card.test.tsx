import { renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { jsonResponse, mockFetch } from '@/testing/mock-fetch';
import { listenerId, playThreshold, usePlayReport } from './community-track-card';

/** An audio element's part the hook reads: its time, whether it plays, and its events. */
function fakeAudio() {
  const audio = Object.assign(new EventTarget(), { currentTime: 0, paused: false, duration: Number.NaN });
  const playTo = (seconds: number) => {
    // The element reports its time about four times a second while it plays.
    while (audio.currentTime < seconds) {
      audio.currentTime = Math.min(seconds, audio.currentTime + 0.25);
      audio.dispatchEvent(new Event('timeupdate'));
    }
  };
  const seekTo = (seconds: number) => {
    audio.currentTime = seconds;
    audio.dispatchEvent(new Event('seeking'));
    audio.dispatchEvent(new Event('timeupdate'));
  };
  return { audio, playTo, seekTo, ref: { current: audio as unknown as HTMLAudioElement } };
}

const plays = (fetchMock: ReturnType<typeof mockFetch>) =>
  fetchMock.mock.calls.filter(([url]) => String(url) === '/api/track/t1/play');

afterEach(() => localStorage.clear());

describe('usePlayReport', () => {
  it('reports one play once 30 s (or half a shorter track) have played, with a kept listener id for visitors', async () => {
    const fetchMock = mockFetch({ 'POST /api/track/t1/play': jsonResponse({ counted: true, plays: 1 }) });
    const { ref, playTo } = fakeAudio();
    renderHook(() => usePlayReport(ref, { id: 't1', duration: 40 }, false));

    playTo(19.75);
    expect(plays(fetchMock)).toHaveLength(0);
    playTo(20);
    playTo(40);
    expect(plays(fetchMock)).toHaveLength(1);
    const body = JSON.parse(String(plays(fetchMock)[0]?.[1]?.body));
    expect(body).toEqual({ listenedSeconds: 20, listenerId: listenerId() });
    expect(localStorage.getItem('tunesmith.listenerId')).toBe(body.listenerId);
  });

  it('does not count a seek as listening, and sends no listener id for a signed-in user', () => {
    const fetchMock = mockFetch({ 'POST /api/track/t1/play': jsonResponse({ counted: true, plays: 1 }) });
    const { ref, playTo, seekTo } = fakeAudio();
    renderHook(() => usePlayReport(ref, { id: 't1', duration: 240 }, true));

    playTo(10);
    seekTo(200);
    playTo(215);
    expect(plays(fetchMock)).toHaveLength(0);
    playTo(225);
    expect(JSON.parse(String(plays(fetchMock)[0]?.[1]?.body))).toEqual({ listenedSeconds: 30 });
  });

  it('uses the server rule for the threshold', () => {
    expect([playThreshold(240), playThreshold(40), playThreshold(null)]).toEqual([30, 20, 30]);
  });
});
