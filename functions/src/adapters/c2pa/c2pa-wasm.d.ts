/** The c2pa-rs WebAssembly binary, imported as bytes (bundled with esbuild). */
declare module '@contentauth/c2pa-wasm/c2pa.wasm' {
  const bytes: Uint8Array;
  export default bytes;
}
