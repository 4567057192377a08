/** A data directory to start PGlite from (PGlite's WebAssembly is compiled once per process by connect.ts, image or not). */
export interface DatabaseImage {
  tar: Uint8Array;
}
