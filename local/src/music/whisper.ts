/**
 * The embedded provider's `fal-ai/whisper`: a recogniser for the songs it
 * sang. It cannot listen; it reads the words a WAV of its own sings, and
 * when (synth.ts `sung` in the file's render parameters), and answers as a
 * recogniser of sung words would: exact times, but words as heard. A seeded
 * share of the words (by the file's bytes, so a file is always heard the same
 * way) comes back misheard (one letter changed), run together with the next
 * word, split in two, or not at all, and now and then a word that was never
 * sung ("oh", "yeah") is heard in a pause. Audio it did not render has no
 * words it knows: it answers with none and says so in its log.
 */
import { hashString, Rng } from './prng';
import type { SungLyric } from './synth';

export const WHISPER_ENDPOINT = 'fal-ai/whisper';

/** How often each mistake is made, per sung word. */
export interface HearingMistakes {
  misheard: number;
  joined: number;
  split: number;
  missed: number;
  /** Per pause of 0.3 s or more after a word. */
  inserted: number;
}

export const DEFAULT_MISTAKES: HearingMistakes = {
  misheard: 0.12,
  joined: 0.04,
  split: 0.03,
  missed: 0.05,
  inserted: 0.1,
};

/** fal's word-level chunk. */
export interface WhisperChunk {
  timestamp: [number, number];
  text: string;
}

const FILLERS = ['oh', 'yeah', 'ah', 'ooh'];
const VOWELS = 'aeiou';
const CONSONANTS = 'bdfgklmnprstvw';

const spoken = (word: string) => word.toLowerCase().replace(/[^a-z0-9']/g, '');

/** One letter changed, as a sung vowel or consonant is misheard ("night" → "nigt", "fire" → "fare"). */
function mishear(word: string, rng: Rng): string {
  const letters = [...word];
  if (letters.length < 2) return word;
  const at = rng.int(0, letters.length - 1);
  const c = letters[at] as string;
  letters[at] = VOWELS.includes(c) ? rng.pick([...VOWELS].filter((v) => v !== c)) : rng.pick([...CONSONANTS]);
  return letters.join('');
}

const r2 = (t: number) => Math.round(t * 100) / 100;

/** What a recogniser hears of `sung` words: word-level chunks, times to the hundredth of a second. */
export function hear(sung: readonly SungLyric[], seed: number, mistakes = DEFAULT_MISTAKES): WhisperChunk[] {
  const rng = new Rng(hashString(`whisper|${seed}`));
  const out: WhisperChunk[] = [];
  for (let i = 0; i < sung.length; i++) {
    const [raw, start, end] = sung[i] as SungLyric;
    const word = spoken(raw);
    if (!word) continue;
    const roll = rng.next();
    let edge = mistakes.missed;
    if (roll < edge) continue;
    edge += mistakes.joined;
    const next = sung[i + 1];
    if (roll < edge && next && next[1] - end < 0.3) {
      out.push({ timestamp: [r2(start), r2(next[2])], text: `${word}${spoken(next[0])}` });
      i++;
      continue;
    }
    edge += mistakes.split;
    if (roll < edge && word.length >= 6) {
      const cut = Math.floor(word.length / 2);
      const mid = start + (end - start) / 2;
      out.push({ timestamp: [r2(start), r2(mid)], text: word.slice(0, cut) });
      out.push({ timestamp: [r2(mid), r2(end)], text: word.slice(cut) });
      continue;
    }
    edge += mistakes.misheard;
    out.push({ timestamp: [r2(start), r2(end)], text: roll < edge ? mishear(word, rng) : word });
    const pause = (next?.[1] ?? end + 1) - end;
    if (pause >= 0.3 && rng.chance(mistakes.inserted)) {
      const at = end + Math.min(0.1, pause / 4);
      out.push({ timestamp: [r2(at), r2(at + Math.min(0.25, pause / 2))], text: rng.pick(FILLERS) });
    }
  }
  return out;
}

/** fal-ai/whisper's answer for words heard: the text, and chunks by word or by segment (line breaks at pauses). */
export function whisperOutput(chunks: WhisperChunk[], chunkLevel: 'word' | 'segment') {
  const text = chunks.map((c) => c.text).join(' ');
  const out =
    chunkLevel === 'word'
      ? chunks.map((c) => ({ timestamp: c.timestamp, text: ` ${c.text}` }))
      : segments(chunks);
  return { text, chunks: out, inferred_languages: ['en'], diarization_segments: [] };
}

/** Words grouped into segments wherever a pause of a second or more falls. */
function segments(chunks: WhisperChunk[]): WhisperChunk[] {
  const out: WhisperChunk[] = [];
  for (const c of chunks) {
    const last = out.at(-1);
    if (last && c.timestamp[0] - last.timestamp[1] < 1) {
      last.timestamp = [last.timestamp[0], c.timestamp[1]];
      last.text += ` ${c.text}`;
    } else out.push({ timestamp: [...c.timestamp], text: ` ${c.text}` });
  }
  return out;
}
