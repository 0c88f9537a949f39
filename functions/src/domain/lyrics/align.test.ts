import { describe, expect, it } from 'vitest';
import { alignLyrics, type HeardWord } from './align';
import { knownLyrics } from './known-lyrics';
import { soundKey, wordSimilarity } from './similarity';

/** Heard words at a steady pace: word k from k * 0.5 s, lasting 0.4 s. */
const paced = (text: string, from = 0): HeardWord[] =>
  text.split(' ').map((w, k) => ({ text: w, start: from + k * 0.5, end: from + k * 0.5 + 0.4 }));

const starts = (lyrics: ReturnType<typeof alignLyrics>) =>
  lyrics.lines.flatMap((l) => l.words.map((w) => w.start));

describe('knownLyrics', () => {
  it('leaves out section tags and blank lines, keeping words as written', () => {
    const lines = knownLyrics("[verse]\nHello,  world!\n\n[Chorus 2]\nDon't stop\n[instrumental]\n");
    expect(lines).toEqual([
      {
        text: 'Hello, world!',
        words: [
          { text: 'Hello,', token: 'hello' },
          { text: 'world!', token: 'world' },
        ],
      },
      {
        text: "Don't stop",
        words: [
          { text: "Don't", token: 'dont' },
          { text: 'stop', token: 'stop' },
        ],
      },
    ]);
  });
});

describe('wordSimilarity', () => {
  it('scores sound-alike spellings high and unrelated words low', () => {
    expect(soundKey('night')).toBe(soundKey('nite'));
    expect(soundKey('knight')).toBe(soundKey('night'));
    expect(wordSimilarity('night', 'nite')).toBeGreaterThanOrEqual(0.8);
    expect(wordSimilarity('fire', 'fires')).toBeGreaterThan(0.7);
    expect(wordSimilarity('heart', 'window')).toBeLessThan(0.3);
  });
});

describe('alignLyrics', () => {
  it('takes every time from a transcription that heard the lyrics exactly', () => {
    const timed = alignLyrics(
      '[verse]\nwe run tonight\nunder the lights',
      paced('we run tonight under the lights'),
    );
    expect(timed.source).toBe('aligned');
    expect(timed.lines.map((l) => l.text)).toEqual(['we run tonight', 'under the lights']);
    expect(starts(timed)).toEqual([0, 0.5, 1, 1.5, 2, 2.5]);
    expect(timed.lines[0]).toMatchObject({ start: 0, end: 1.4 });
    expect(timed.lines[1]).toMatchObject({ start: 1.5, end: 2.9 });
  });

  it("keeps the lyrics' words where the recogniser misheard them (substitutions)", () => {
    const timed = alignLyrics('Holding on to the fire tonight', paced('holdin on two the via tonite'));
    expect(timed.lines[0]?.words.map((w) => w.text)).toEqual([
      'Holding',
      'on',
      'to',
      'the',
      'fire',
      'tonight',
    ]);
    expect(starts(timed)).toEqual([0, 0.5, 1, 1.5, 2, 2.5]);
  });

  it('places words the recogniser missed between their neighbours (deletions)', () => {
    // "little" was not heard: it falls between "every" (1.0 s) and "heart" (2.0 s).
    const heard: HeardWord[] = [
      { text: 'every', start: 1, end: 1.4 },
      { text: 'heart', start: 2, end: 2.4 },
      { text: 'beats', start: 2.5, end: 2.9 },
    ];
    const [every, little, heart] = alignLyrics('Every little heart beats', heard).lines[0]?.words ?? [];
    expect(every?.start).toBe(1);
    expect(heart?.start).toBe(2);
    expect(little?.start).toBeGreaterThanOrEqual(1.4);
    expect(little?.end).toBeLessThanOrEqual(2);
  });

  it('ignores words heard that are not in the lyrics (insertions)', () => {
    const heard = paced('oh yeah we keep on yeah chasing dreams');
    const timed = alignLyrics('We keep on chasing dreams', heard);
    expect(timed.lines[0]?.words.map((w) => [w.text, w.start])).toEqual([
      ['We', 1],
      ['keep', 1.5],
      ['on', 2],
      ['chasing', 3],
      ['dreams', 3.5],
    ]);
  });

  it('splits one heard word between two sung ones, and joins two heard words into one', () => {
    const heard: HeardWord[] = [
      { text: 'runaway', start: 0, end: 1 },
      { text: 'every', start: 1, end: 1.4 },
      { text: 'where', start: 1.4, end: 1.8 },
    ];
    const [run, away, everywhere] = alignLyrics('run away everywhere', heard).lines[0]?.words ?? [];
    expect(run).toMatchObject({ start: 0 });
    expect(away?.start).toBeGreaterThan(0.3);
    expect(away?.end).toBe(1);
    expect(everywhere).toMatchObject({ start: 1, end: 1.8 });
  });

  it('puts each repeat of a chorus at its own time', () => {
    const chorus = 'sing it loud\nsing it proud';
    const lyrics = `[chorus]\n${chorus}\n[verse]\nwalking home alone\n[chorus]\n${chorus}`;
    const heard = [
      ...paced('sing it loud sing it proud', 10),
      ...paced('walking home alone', 20),
      ...paced('sing it loud sing it proud', 30),
    ];
    const timed = alignLyrics(lyrics, heard);
    expect(timed.lines.map((l) => l.start)).toEqual([10, 11.5, 20, 30, 31.5]);
  });

  it('keeps a line that was not heard at all between the lines around it', () => {
    const lyrics = 'first line here\nnever heard at all\nlast line here';
    const heard = [...paced('first line here', 0), ...paced('last line here', 10)];
    const timed = alignLyrics(lyrics, heard);
    const middle = timed.lines[1];
    expect(middle?.start).toBeGreaterThanOrEqual(1.4);
    expect(middle?.end).toBeLessThanOrEqual(10);
    expect(timed.lines[2]?.start).toBe(10);
    // The line before is sung together, not stretched over the break.
    expect(timed.lines[0]?.end).toBeLessThan(1.5);
  });

  it('spreads the lines over the song when nothing was heard', () => {
    const timed = alignLyrics('one two\nthree four', [], { duration: 20 });
    expect(timed.lines.map((l) => l.text)).toEqual(['one two', 'three four']);
    expect(timed.lines[0]?.start).toBe(0);
    expect(timed.lines[1]?.start).toBeGreaterThan(5);
    expect(timed.lines[1]?.end).toBeLessThanOrEqual(20);
  });

  it('keeps times in order even when heard words overlap', () => {
    const heard: HeardWord[] = [
      { text: 'a', start: 1, end: 2 },
      { text: 'bright', start: 0.9, end: 1.5 },
      { text: 'day', start: 1.6, end: 2 },
    ];
    const s = starts(alignLyrics('a bright day', heard));
    expect([...s].sort((x, y) => x - y)).toEqual(s);
  });
});
