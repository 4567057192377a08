import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { PGlite, protocol } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawRunner } from './raw-protocol.mjs';

// Runs on both test databases: the worker's engine is embedded PGlite whatever REMIT_TEST_DB says.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const heapMb = () => (gc(), process.memoryUsage().heapUsed / 1024 / 1024);

let db: PGlite;
beforeAll(async () => {
  db = await PGlite.create();
});
afterAll(() => db.close());

/** The DataRows in an answer. */
const rowsIn = (answer: Uint8Array) => {
  let rows = 0;
  new protocol.Parser().parse(answer, (m) => {
    if (m.name === 'dataRow') rows++;
  });
  return rows;
};

describe('rawRunner', () => {
  it('answers each message with its own bytes, database errors included', () => {
    const run = rawRunner(db);
    const answer = run(protocol.serialize.query('select g from generate_series(1, 3) g'));
    expect(rowsIn(answer)).toBe(3);
    expect(answer.at(-6)).toBe('Z'.charCodeAt(0)); // ends with ReadyForQuery
    const failed = run(protocol.serialize.query('selec 1'));
    expect(new TextDecoder().decode(failed)).toContain('42601');
    expect(rowsIn(run(protocol.serialize.query('select 1')))).toBe(1);
  });

  it('keeps nothing of the answers it ran: the heap stays flat over thousands of messages', () => {
    // Before, PGlite kept every parsed message of every answer (execProtocolRawSync): here about
    // 3,000 × 200 rows, 150+ MB retained; now only a few MB of noise.
    const run = rawRunner(db);
    const message = protocol.serialize.query(`select g, repeat('x', 100) as pad from generate_series(1, 200) g`);
    for (let i = 0; i < 200; i++) run(message); // warm: code, the engine's caches
    const before = heapMb();
    for (let i = 0; i < 3000; i++) expect(run(message).length).toBeGreaterThan(20_000);
    const grown = heapMb() - before;
    expect(grown).toBeLessThan(16);
  });
});
