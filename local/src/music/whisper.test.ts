import { describe, expect, it } from 'vitest';
import { timingQuality } from './lyrics-timing';
import type { SungLyric } from './synth';
import { DEFAULT_MISTAKES, hear, whisperOutput } from './whisper';

// Lines of eight words, half a second apart, a second's pause between lines.
const at = (k: number) => k * 0.5 + Math.floor(k / 8);
const sung: SungLyric[] = Array.from({ length: 400 }, (_, k) => [`Word${k % 7}ing`, at(k), at(k) + 0.4]);

describe('the embedded recogniser', () => {
  it('hears exact times but not every word right, the same way every time', () => {
    const chunks = hear(sung, 7);
    expect(hear(sung, 7)).toEqual(chunks);
    const exact = chunks.filter((c) => /^word\ding$/.test(c.text));
    // Most words come back as sung, at the times they were sung.
    expect(exact.length).toBeGreaterThan(sung.length * 0.6);
    expect(exact.length).toBeLessThan(sung.length * 0.95);
    for (const c of exact) expect(Number.isInteger(c.timestamp[0] * 2)).toBe(true);
    // Some are missed, some misheard or run together, some never sung are heard.
    expect(chunks.some((c) => /^(oh|yeah|ah|ooh)$/.test(c.text))).toBe(true);
    expect(chunks.some((c) => c.text.length > 'word0ing'.length + 3)).toBe(true);
  });

  it('hears every word right with no mistakes', () => {
    const none = { misheard: 0, joined: 0, split: 0, missed: 0, inserted: 0 };
    expect(hear(sung.slice(0, 3), 1, none)).toEqual([
      { timestamp: [0, 0.4], text: 'word0ing' },
      { timestamp: [0.5, 0.9], text: 'word1ing' },
      { timestamp: [1, 1.4], text: 'word2ing' },
    ]);
    expect(DEFAULT_MISTAKES.missed).toBeGreaterThan(0);
  });

  it("answers in fal-ai/whisper's shapes, by word or by segment", () => {
    const chunks = [
      { timestamp: [0, 0.4] as [number, number], text: 'hello' },
      { timestamp: [0.5, 0.9] as [number, number], text: 'world' },
      { timestamp: [3, 3.4] as [number, number], text: 'again' },
    ];
    expect(whisperOutput(chunks, 'word')).toMatchObject({
      text: 'hello world again',
      chunks: [
        { timestamp: [0, 0.4], text: ' hello' },
        { timestamp: [0.5, 0.9], text: ' world' },
        { timestamp: [3, 3.4], text: ' again' },
      ],
    });
    expect(whisperOutput(chunks, 'segment').chunks).toEqual([
      { timestamp: [0, 0.9], text: ' hello world' },
      { timestamp: [3, 3.4], text: ' again' },
    ]);
  });
});

describe('lyrics timing on the embedded provider’s songs', () => {
  it('puts the median word within 100 ms and every line within 500 ms of when it was sung', () => {
    // Ten songs of 30 to 240 s (the bench measures fifty).
    const quality = timingQuality([1, 2, 3, 5, 8, 13, 17, 25, 37, 47]);
    expect(quality.words).toBeGreaterThan(1000);
    expect(quality.medianWordErrorMs).toBeLessThanOrEqual(100);
    expect(quality.worstLineErrorMs).toBeLessThanOrEqual(500);
  });
});
