/** The Emscripten build inside the `opusscript` package (libopus compiled to WebAssembly). */
declare module 'opusscript/build/opusscript_native_wasm.js' {
  export interface OpusScriptHandler {
    /** Reads `bytes` bytes of little-endian 16-bit PCM, one byte per 16-bit slot at `input`. */
    _encode(input: number, bytes: number, output: number, frameSize: number): number;
    _encoder_ctl(request: number, value: number): number;
  }
  export interface OpusScriptNative {
    OpusScriptHandler: {
      new (sampleRate: number, channels: number, application: number): OpusScriptHandler;
      destroy_handler(handler: OpusScriptHandler): void;
    };
    _malloc(size: number): number;
    _free(pointer: number): void;
    HEAPU8: Uint8Array;
    HEAPU16: Uint16Array;
    HEAP32: Int32Array;
  }
  const factory: (module?: { wasmBinary?: Uint8Array }) => OpusScriptNative;
  export default factory;
}

/** The WebAssembly binary, imported as bytes (bundled with esbuild). */
declare module 'opusscript/build/opusscript_native_wasm.wasm' {
  const bytes: Uint8Array;
  export default bytes;
}
