/**
 * Restyling an uploaded song: decode (WAV of any PCM/float width, MP3 through
 * the wasm mpg123 decoder), resample to 48 kHz, measure its loudness
 * envelope, onsets and a rough pitch, then render the target tags' style on
 * those (drums on the onsets, chords on the estimated root, the source's
 * envelope) mixed with a low-passed copy of the source. Deterministic.
 */
import { hashString } from './prng';
import {
  finish,
  MAX_DURATION,
  type RenderPlan,
  renderSteps,
  runSteps,
  SAMPLE_RATE,
  type SungLyric,
  styleFor,
} from './synth';

export interface DecodedAudio {
  sampleRate: number;
  channels: Float32Array[];
  /** Integer PCM width of a WAV (16 for the files this provider writes); absent otherwise. */
  pcmBits?: number;
}

export class AudioDecodeError extends Error {}

function fourcc(view: DataView, at: number): string {
  return String.fromCharCode(
    view.getUint8(at),
    view.getUint8(at + 1),
    view.getUint8(at + 2),
    view.getUint8(at + 3),
  );
}

export function isWav(bytes: Uint8Array): boolean {
  if (bytes.length < 12) return false;
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return (fourcc(v, 0) === 'RIFF' || fourcc(v, 0) === 'RF64') && fourcc(v, 8) === 'WAVE';
}

export function isMp3(bytes: Uint8Array): boolean {
  if (bytes.length < 3) return false;
  if (bytes[0] === 0x49 && bytes[1] === 0x44 && bytes[2] === 0x33) return true; // ID3
  return bytes[0] === 0xff && ((bytes[1] as number) & 0xe0) === 0xe0;
}

/** Decodes a RIFF/WAVE file: PCM 8/16/24/32-bit, IEEE float 32/64, extensible; any channel count. */
export function decodeWav(bytes: Uint8Array): DecodedAudio {
  if (!isWav(bytes)) throw new AudioDecodeError('Not a WAV file');
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = 12;
  let format = 0;
  let channels = 0;
  let sampleRate = 0;
  let bits = 0;
  let dataAt = -1;
  let dataLen = 0;
  while (at + 8 <= bytes.length) {
    const id = fourcc(v, at);
    const size = v.getUint32(at + 4, true);
    const body = at + 8;
    if (id === 'fmt ') {
      format = v.getUint16(body, true);
      channels = v.getUint16(body + 2, true);
      sampleRate = v.getUint32(body + 4, true);
      bits = v.getUint16(body + 14, true);
      if (format === 0xfffe && size >= 40) format = v.getUint16(body + 24, true);
    } else if (id === 'data') {
      dataAt = body;
      dataLen = Math.min(size, bytes.length - body);
      break;
    }
    at = body + size + (size % 2);
  }
  if (dataAt < 0 || !channels || !sampleRate)
    throw new AudioDecodeError('WAV file without fmt or data chunk');
  if (format !== 1 && format !== 3) throw new AudioDecodeError(`Unsupported WAV format ${format}`);
  const width = bits / 8;
  const frames = Math.floor(dataLen / (width * channels));
  const out = Array.from({ length: channels }, () => new Float32Array(frames));
  let p = dataAt;
  for (let i = 0; i < frames; i++) {
    for (let c = 0; c < channels; c++) {
      let s: number;
      if (format === 3) s = bits === 64 ? v.getFloat64(p, true) : v.getFloat32(p, true);
      else if (bits === 8) s = (v.getUint8(p) - 128) / 128;
      else if (bits === 16) s = v.getInt16(p, true) / 32768;
      else if (bits === 24) {
        let x = v.getUint8(p) | (v.getUint8(p + 1) << 8) | (v.getUint8(p + 2) << 16);
        if (x & 0x800000) x -= 0x1000000;
        s = x / 8388608;
      } else if (bits === 32) s = v.getInt32(p, true) / 2147483648;
      else throw new AudioDecodeError(`Unsupported WAV bit depth ${bits}`);
      (out[c] as Float32Array)[i] = s;
      p += width;
    }
  }
  return format === 1 ? { sampleRate, channels: out, pcmBits: bits } : { sampleRate, channels: out };
}

export async function decodeMp3(bytes: Uint8Array): Promise<DecodedAudio> {
  const { MPEGDecoder } = await import('mpg123-decoder');
  const decoder = new MPEGDecoder();
  await decoder.ready;
  try {
    const result = decoder.decode(bytes);
    if (!result.samplesDecoded) throw new AudioDecodeError('Could not decode the MP3 file');
    return {
      sampleRate: result.sampleRate,
      channels: result.channelData.map((c) => c.slice(0, result.samplesDecoded)),
    };
  } finally {
    decoder.free();
  }
}

export async function decodeAudio(bytes: Uint8Array): Promise<DecodedAudio> {
  if (isWav(bytes)) return decodeWav(bytes);
  if (isMp3(bytes)) return decodeMp3(bytes);
  throw new AudioDecodeError('Unsupported audio format (WAV or MP3 expected)');
}

/** Mono mix, linearly resampled to 48 kHz and cut at `maxSeconds`. */
export function toMonoAtSampleRate(audio: DecodedAudio, maxSeconds = MAX_DURATION): Float32Array {
  const src = audio.channels;
  const n = src[0]?.length ?? 0;
  const mono = new Float32Array(n);
  for (const ch of src)
    for (let i = 0; i < n; i++) mono[i] = (mono[i] as number) + (ch[i] as number) / src.length;
  const ratio = audio.sampleRate / SAMPLE_RATE;
  const outLen = Math.min(Math.round(n / ratio), maxSeconds * SAMPLE_RATE);
  if (ratio === 1) return mono.slice(0, outLen);
  const out = new Float32Array(outLen);
  for (let i = 0; i < outLen; i++) {
    const x = i * ratio;
    const k = Math.floor(x);
    const f = x - k;
    const a = mono[k] ?? 0;
    const b = mono[k + 1] ?? a;
    out[i] = a + (b - a) * f;
  }
  return out;
}

export interface Analysis {
  /** RMS per block of `block` samples, normalised to a peak of 1. */
  envelope: Float32Array;
  block: number;
  onsets: Array<{ at: number; strength: number }>;
  /** MIDI note of the estimated dominant pitch, folded to octave 3 (48..59). */
  root: number;
}

export function analyse(signal: Float32Array): Analysis {
  const block = 441; // 10 ms
  const blocks = Math.max(1, Math.ceil(signal.length / block));
  const envelope = new Float32Array(blocks);
  const flux = new Float32Array(blocks);
  let prevHigh = 0;
  let hp = 0;
  let lastX = 0;
  for (let b = 0; b < blocks; b++) {
    let sum = 0;
    let sumHigh = 0;
    const end = Math.min(signal.length, (b + 1) * block);
    for (let i = b * block; i < end; i++) {
      const x = signal[i] as number;
      sum += x * x;
      hp = 0.9 * (hp + x - lastX);
      lastX = x;
      sumHigh += hp * hp;
    }
    const count = Math.max(1, end - b * block);
    envelope[b] = Math.sqrt(sum / count);
    const high = Math.sqrt(sumHigh / count);
    flux[b] = Math.max(0, high - prevHigh);
    prevHigh = high;
  }
  let peak = 0;
  for (const e of envelope) peak = Math.max(peak, e);
  let fluxPeak = 0;
  for (const f of flux) fluxPeak = Math.max(fluxPeak, f);
  for (let b = 0; b < blocks; b++)
    envelope[b] = peak > 0 ? 0.15 + 0.85 * ((envelope[b] as number) / peak) : 1;
  const onsets: Analysis['onsets'] = [];
  let last = -100;
  for (let b = 1; b < blocks - 1; b++) {
    const f = flux[b] as number;
    if (
      fluxPeak > 0 &&
      f > 0.2 * fluxPeak &&
      f >= (flux[b - 1] as number) &&
      f >= (flux[b + 1] as number) &&
      b - last > 8
    ) {
      onsets.push({ at: b * block, strength: f / fluxPeak });
      last = b;
    }
  }
  return { envelope, block, onsets, root: estimateRoot(signal) };
}

/** Autocorrelation pitch of a few loud windows, folded into one octave. */
export function estimateRoot(signal: Float32Array): number {
  const win = 2048;
  const votes = new Float32Array(12);
  const count = Math.min(8, Math.floor(signal.length / win));
  for (let w = 0; w < count; w++) {
    const start = Math.floor(((w + 0.5) * signal.length) / count - win / 2);
    if (start < 0) continue;
    let best = 0;
    let bestLag = 0;
    for (let lag = 40; lag < 800; lag++) {
      let acc = 0;
      for (let i = 0; i < win - lag; i += 2)
        acc += (signal[start + i] as number) * (signal[start + i + lag] as number);
      if (acc > best) {
        best = acc;
        bestLag = lag;
      }
    }
    if (bestLag > 0) {
      const midi = Math.round(69 + 12 * Math.log2(SAMPLE_RATE / bestLag / 440));
      votes[((midi % 12) + 12) % 12] = (votes[((midi % 12) + 12) % 12] as number) + best;
    }
  }
  let pc = 0;
  for (let i = 1; i < 12; i++) if ((votes[i] as number) > (votes[pc] as number)) pc = i;
  return 48 + pc;
}

export interface RestyleInput {
  audio: Uint8Array;
  tags: string;
  lyrics?: string;
  seed: number;
}

/** Low-pass (about 1.2 kHz) of the source, for the mix. */
function lowpass(signal: Float32Array, cutoff: number): Float32Array {
  const a = 1 - Math.exp((-2 * Math.PI * cutoff) / SAMPLE_RATE);
  const out = new Float32Array(signal.length);
  let y = 0;
  let z = 0;
  for (let i = 0; i < signal.length; i++) {
    y += a * ((signal[i] as number) - y);
    z += a * (y - z);
    out[i] = z;
  }
  return out;
}

/** Prepares the render plan of a restyle: analysis of the source plus the target style. */
export function restylePlan(source: Float32Array, input: Omit<RestyleInput, 'audio'>): RenderPlan {
  const analysis = analyse(source);
  const seed = (input.seed ^ hashString(`${source.length}`)) >>> 0;
  const plan: RenderPlan = {
    style: styleFor(input.tags, seed),
    totalSamples: Math.max(1, source.length),
    seed,
    root: analysis.root,
    drumCues: analysis.onsets,
    envelope: analysis.envelope,
    envelopeBlock: analysis.block,
  };
  if (input.lyrics !== undefined) plan.lyrics = input.lyrics;
  return plan;
}

/** The restyle as a generator (see renderSteps): decoded mono source in, two channels out. */
export function* restyleSteps(
  source: Float32Array,
  input: Omit<RestyleInput, 'audio'>,
  plan: RenderPlan = restylePlan(source, input),
  /** Receives the words the restyle sings (see renderSteps). */
  sink?: { sung?: SungLyric[] },
): Generator<void, Float32Array[]> {
  const [left, right] = yield* renderSteps(plan, sink);
  const low = lowpass(source, 1200);
  let peak = 0;
  for (const x of low) peak = Math.max(peak, Math.abs(x));
  const g = peak > 0 ? 0.45 / peak : 0;
  const l = left as Float32Array;
  const r = right as Float32Array;
  for (let i = 0; i < l.length; i++) {
    const s = (low[i] as number) * g;
    l[i] = (l[i] as number) * 0.8 + s;
    r[i] = (r[i] as number) * 0.8 + s;
  }
  finish(l, r);
  return [l, r];
}

/** Decodes and restyles in one go. */
export async function restyle(input: RestyleInput): Promise<Float32Array[]> {
  const decoded = await decodeAudio(input.audio);
  const source = toMonoAtSampleRate(decoded);
  return runSteps(restyleSteps(source, input));
}
