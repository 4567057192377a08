// How the worker (pglite-worker.mjs) runs protocol messages on its PGlite. Plain JavaScript, as the
// worker is, so that Node, tsx and vitest all run it as it is.

/**
 * `run(bytes)`: runs one message on `db` and returns the database's answer (a copy). It goes
 * through PGlite's `execProtocolRawStream`, as `@electric-sql/pglite-socket` does, never
 * `execProtocolRawSync` alone: that one also parses every answer into a list of messages that only
 * PGlite's own `query` and `exec` empty, so a session driven by raw messages alone kept every row
 * it had ever read, until the worker died (docs/benchmarks.md, "Memory under steady load").
 * The call runs synchronously (no filesystem sync is awaited); an exception from the engine itself
 * (not a database error, which comes back in the answer) leaves it in an unknown state, so it is
 * thrown where nothing catches it and ends the thread (the main thread reports the database lost).
 */
export function rawRunner(db) {
  let chunks = [];
  const onRawData = (data) => void chunks.push(data.slice()); // a view into the engine's memory
  const fatal = (e) =>
    queueMicrotask(() => {
      throw e;
    });
  return (bytes) => {
    chunks = [];
    db.execProtocolRawStream(bytes, { syncToFs: false, onRawData }).catch(fatal);
    const got = chunks;
    chunks = [];
    return got.length === 1 ? got[0] : concat(got);
  };
}

function concat(parts) {
  let size = 0;
  for (const p of parts) size += p.length;
  const out = new Uint8Array(size);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
