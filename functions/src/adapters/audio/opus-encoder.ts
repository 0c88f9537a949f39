/**
 * libopus (the `opusscript` package's WebAssembly build) behind the domain's
 * OpusEncoder port, and the WAV → Ogg Opus conversion the workflow runs.
 *
 * The package's own wrapper reads its .wasm file from beside its script,
 * which a Lambda bundle does not have; so the binary is imported as bytes
 * (esbuild inlines it into the bundle) and handed to the Emscripten module,
 * and outside a bundle it is read from node_modules. Both load on the first
 * encode, so the workflow's other steps do not carry them.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { OpusScriptNative } from 'opusscript/build/opusscript_native_wasm.js';
import { type OggOpusOptions, type OpusEncoder, oggOpusSteps } from '../../domain/audio/ogg-opus';
import type { PcmSource } from '../../domain/audio/pcm';
import { parseWav } from '../../domain/audio/wav';
import { runInSlices } from '../../workflow/slices';
import type { StreamEncoder } from '../../workflow/steps';

const WASM = 'opusscript/build/opusscript_native_wasm.wasm';

const OPUS_APPLICATION_AUDIO = 2049;
const OPUS_SET_BITRATE = 4002;
const OPUS_SET_COMPLEXITY = 4010;
const OPUS_SET_SIGNAL = 4024;
const OPUS_SIGNAL_MUSIC = 3002;
const OPUS_GET_LOOKAHEAD = 4027;
/** 120 ms at 48 kHz: the most one call may encode. */
const MAX_FRAME = 5760;
const MAX_PACKET = 1276 * 3;

async function wasmBinary(): Promise<Uint8Array> {
  try {
    const bundled = await import('opusscript/build/opusscript_native_wasm.wasm', { with: { type: 'bytes' } });
    if (bundled.default instanceof Uint8Array) return bundled.default;
  } catch {
    // Not bundled: Node has no bytes imports; the file is in node_modules.
  }
  return readFile(createRequire(import.meta.url).resolve(WASM));
}

let native: Promise<OpusScriptNative> | undefined;

/** The WebAssembly module, instantiated once per process. */
export function loadOpus(): Promise<OpusScriptNative> {
  native ??= Promise.all([wasmBinary(), import('opusscript/build/opusscript_native_wasm.js')])
    .then(([bytes, { default: opusNative }]) => {
      const global = globalThis as { __dirname?: string };
      // Inlined into an ES module bundle, the Emscripten script still reads `__dirname` (to find the
      // .wasm it is given here); outside a bundle it is a CommonJS module with its own.
      const shim = global.__dirname === undefined;
      if (shim) global.__dirname = '/';
      try {
        return opusNative({ wasmBinary: bytes });
      } finally {
        if (shim) delete global.__dirname;
      }
    })
    .catch((error: unknown) => {
      native = undefined;
      throw error;
    });
  return native;
}

const check = (result: number, what: string) => {
  if (result < 0) throw new Error(`libopus ${what} failed (${result})`);
  return result;
};

/** A libopus encoder for music at `bitrate` (VBR, complexity 10). */
export function opusEncoder(
  opus: OpusScriptNative,
  options: { channels: 1 | 2; bitrate: number },
): OpusEncoder {
  const handler = new opus.OpusScriptHandler(48_000, options.channels, OPUS_APPLICATION_AUDIO);
  // The binding takes each PCM byte in a 16-bit slot and, packing them in place, reads up to twice as
  // many slots as bytes: the input area is four times the PCM's size.
  const inputBytes = MAX_FRAME * options.channels * 2;
  const input = opus._malloc(inputBytes * 4);
  const output = opus._malloc(MAX_PACKET);
  const scratch = opus._malloc(4);
  let closed = false;
  try {
    check(handler._encoder_ctl(OPUS_SET_BITRATE, options.bitrate), 'setting the bitrate');
    check(handler._encoder_ctl(OPUS_SET_COMPLEXITY, 10), 'setting the complexity');
    check(handler._encoder_ctl(OPUS_SET_SIGNAL, OPUS_SIGNAL_MUSIC), 'setting the signal type');
    check(handler._encoder_ctl(OPUS_GET_LOOKAHEAD, scratch), 'reading the lookahead');
  } catch (error) {
    opus.OpusScriptHandler.destroy_handler(handler);
    for (const pointer of [input, output, scratch]) opus._free(pointer);
    throw error;
  }
  const lookahead = opus.HEAP32[scratch >> 2] as number;
  return {
    lookahead,
    vendor: 'libopus 1.4 (opusscript)',
    encode(pcm, frameSize) {
      const bytes = new Uint8Array(pcm.buffer, pcm.byteOffset, pcm.byteLength);
      if (bytes.length > inputBytes) throw new RangeError('The frame is longer than 120 ms');
      // Views are taken per call: the heap's buffer changes when memory grows.
      opus.HEAPU16.set(bytes, input >> 1);
      const size = check(handler._encode(input, bytes.length, output, frameSize), 'encoding');
      return opus.HEAPU8.slice(output, output + size);
    },
    close() {
      if (closed) return;
      closed = true;
      opus.OpusScriptHandler.destroy_handler(handler);
      for (const pointer of [input, output, scratch]) opus._free(pointer);
    },
  };
}

/** Audio as an Ogg Opus file, the event loop getting a turn while it encodes. */
export async function pcmToOggOpus(source: PcmSource, options: OggOpusOptions = {}): Promise<Uint8Array> {
  const opus = await loadOpus();
  return runInSlices(oggOpusSteps(source, (settings) => opusEncoder(opus, settings), options));
}

/** A track's WAV as the players' Ogg Opus copy. */
export async function wavToOggOpus(wav: Uint8Array, options: OggOpusOptions = {}): Promise<Uint8Array> {
  return pcmToOggOpus(parseWav(wav), options);
}

/** The workflow's StreamEncoder: Ogg Opus at the default bitrates, the marking in its Vorbis comments. */
export const oggOpusStreamEncoder: StreamEncoder = {
  contentType: 'audio/ogg; codecs=opus',
  extension: '.opus',
  encode: async (pcm, comments) => pcmToOggOpus(pcm, { comments: await comments }),
};
