import { describe, expect, it } from 'vitest';
import { jsonResponse, mockFetch } from '@/testing/mock-fetch';
import { clearPeaksCache, loadPeaks, parsePeaks } from './peaks';

const mono = {
  version: 2,
  channels: 1,
  sample_rate: 44_100,
  samples_per_pixel: 2205,
  bits: 8,
  length: 3,
  data: [-64, 127, -128, 64, 0, 0],
};

describe('parsePeaks', () => {
  it('reads 8-bit mono peaks into a top and bottom outline of -1..1 and their duration', () => {
    const peaks = parsePeaks(mono);

    expect(peaks.channels[0]).toEqual([127 / 128, 0.5, 0]);
    expect(peaks.channels[1]).toEqual([-0.5, -1, 0]);
    expect(peaks.duration).toBeCloseTo((3 * 2205) / 44_100);
  });

  it('folds several channels into one outline, the loudest of each point', () => {
    const peaks = parsePeaks({
      ...mono,
      channels: 2,
      length: 2,
      // point 0: left [-10, 20], right [-30, 5]; point 1: left [-1, 1], right [-2, 100]
      data: [-10, 20, -30, 5, -1, 1, -2, 100],
    });

    expect(peaks.channels[0]).toEqual([20 / 128, 100 / 128]);
    expect(peaks.channels[1]).toEqual([-30 / 128, -2 / 128]);
  });

  it('scales 16-bit peaks by their own range', () => {
    const peaks = parsePeaks({ ...mono, bits: 16, length: 1, data: [-16_384, 32_767] });

    expect(peaks.channels[0][0]).toBeCloseTo(1, 3);
    expect(peaks.channels[1][0]).toBe(-0.5);
  });

  it.each([
    ['another version', { ...mono, version: 1 }],
    ['another bit depth', { ...mono, bits: 12 }],
    ['data shorter than the length says', { ...mono, length: 4 }],
    ['data that is not whole numbers', { ...mono, data: [0.5, 1, 0, 0, 0, 0] }],
    ['no points', { ...mono, length: 0, data: [] }],
    ['no sample rate', { ...mono, sample_rate: 0 }],
    ['not an object', 'peaks'],
  ])('refuses %s', (_case, json) => {
    expect(() => parsePeaks(json)).toThrow();
  });
});

describe('loadPeaks', () => {
  it('fetches a file once, whatever its signature, and again after a failure', async () => {
    clearPeaksCache();
    let answers = 0;
    const fetchMock = mockFetch({
      'GET /tracks/t1.peaks.json': () => (++answers === 1 ? jsonResponse({}, 403) : jsonResponse(mono)),
    });

    await expect(loadPeaks('https://cdn.test/tracks/t1.peaks.json?Signature=a')).rejects.toThrow('403');
    const first = await loadPeaks('https://cdn.test/tracks/t1.peaks.json?Signature=b');
    const again = await loadPeaks('https://cdn.test/tracks/t1.peaks.json?Signature=c');

    expect(first.channels[0]).toHaveLength(3);
    expect(again).toBe(first);
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });
});
