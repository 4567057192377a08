/** A data directory to start PGlite from, and optionally its WebAssembly compiled once for every database of the process. */
export interface DatabaseImage {
  tar: Uint8Array;
  wasmModule?: WebAssembly.Module;
}
