import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { messages } from '@electric-sql/pglite';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PGliteThread } from './pglite-thread.js';

// Runs on both test databases: the stand-in is embedded PGlite whatever REMIT_TEST_DB says.
const TIMESTAMPTZ = 1184;
let db: PGliteThread;

beforeAll(async () => {
  db = new PGliteThread({ textTypes: [TIMESTAMPTZ] });
  await db.waitReady;
  await db.exec(`
    create table t (id int primary key, name text not null, n int8, doc jsonb, bin bytea, at timestamptz);
    create table d (id int primary key, parent int references t (id) deferrable initially deferred);
  `);
});
afterAll(() => db.close());
beforeEach(() => db.exec('delete from d; delete from t'));

const count = async () => Number((await db.query<{ c: number }>('select count(*)::int as c from t')).rows[0]!.c);
const rejection = (p: Promise<unknown>) =>
  p.then(
    () => expect.unreachable('resolved'),
    (e: unknown) => e as Error & Record<string, unknown>,
  );

describe('PGliteThread', () => {
  it('answers rows, fields and affectedRows with their values intact across the thread', async () => {
    const inserted = await db.query('insert into t values ($1, $2, $3, $4, $5, $6), (2, $7, null, null, null, null)', [
      1,
      'one',
      9_007_199_254_740_993n,
      JSON.stringify({ a: [1, 'x'] }),
      new Uint8Array([0, 255]),
      '2026-01-02T03:04:05Z',
      'two',
    ]);
    expect(inserted.affectedRows).toBe(2);
    const r = await db.query<Record<string, unknown>>('select * from t where id = $1', [1]);
    expect(r.fields.map((f) => f.name)).toEqual(['id', 'name', 'n', 'doc', 'bin', 'at']);
    expect(r.rows).toEqual([
      // int8 beyond 2^53 as bigint, jsonb parsed, bytea as bytes, timestamptz left as text (the textTypes).
      {
        id: 1,
        name: 'one',
        n: 9_007_199_254_740_993n,
        doc: { a: [1, 'x'] },
        bin: new Uint8Array([0, 255]),
        at: '2026-01-02 03:04:05+00',
      },
    ]);
    const arrays = await db.query('select id, name from t order by id', [], { rowMode: 'array' });
    expect(arrays.rows).toEqual([
      [1, 'one'],
      [2, 'two'],
    ]);
    // Arrays parsed over their elements' parsers, as PGlite's own instance does (timestamps kept as text).
    const arrays2 = await db.query(
      "select array['a', 'b,c'] as texts, array[1, 2]::int8[] as ns, array['2026-01-02T03:04:05Z'::timestamptz] as ats",
    );
    expect(arrays2.rows).toEqual([{ texts: ['a', 'b,c'], ns: [1, 2], ats: ['2026-01-02 03:04:05+00'] }]);
    const results = await db.exec('select 1 as a; select 2 as b');
    expect(results.map((x) => x.rows)).toEqual([[{ a: 1 }], [{ b: 2 }]]);
  });

  it('rebuilds database errors with their fields, so code that checks e.code still works', async () => {
    await db.query("insert into t (id, name) values (1, 'a')");
    const dup = await rejection(db.query("insert into t (id, name) values (1, 'b')"));
    expect(dup).toBeInstanceOf(messages.DatabaseError);
    expect(dup).toMatchObject({
      code: '23505',
      constraint: 't_pkey',
      table: 't',
      severity: 'ERROR',
      detail: 'Key (id)=(1) already exists.',
    });
    expect(dup.message).toContain('duplicate key');
    expect(dup.query).toBe("insert into t (id, name) values (1, 'b')");
    const missing = await rejection(db.query('insert into t (id) values (2)'));
    expect(missing).toMatchObject({ code: '23502', column: 'name', table: 't' });
    const syntax = await rejection(db.exec('selec 1'));
    expect(syntax).toMatchObject({ code: '42601' });
  });

  it('commits a transaction that resolves and rolls back one that throws', async () => {
    const result = await db.transaction(async (tx) => {
      await tx.query("insert into t (id, name) values (1, 'kept')");
      return (await tx.query<{ c: number }>('select count(*)::int as c from t')).rows[0]!.c;
    });
    expect(result).toBe(1);
    const thrown = new Error('changed my mind');
    await expect(
      db.transaction(async (tx) => {
        await tx.query("insert into t (id, name) values (2, 'dropped')");
        throw thrown;
      }),
    ).rejects.toBe(thrown);
    // A failed statement aborts the transaction; its error reaches the caller with its code.
    const failed = await rejection(
      db.transaction(async (tx) => {
        await tx.query("insert into t (id, name) values (3, 'dropped')");
        await tx.query("insert into t (id, name) values (1, 'duplicate')");
      }),
    );
    expect(failed.code).toBe('23505');
    expect(await count()).toBe(1);
  });

  it('tx.rollback() ends the transaction: nothing is committed and the handle refuses more', async () => {
    let handle: Parameters<Parameters<PGliteThread['transaction']>[0]>[0] | undefined;
    await db.transaction(async (tx) => {
      handle = tx;
      await tx.query("insert into t (id, name) values (1, 'x')");
      await tx.rollback();
      expect(tx.closed).toBe(true);
    });
    expect(await count()).toBe(0);
    await expect(handle!.query('select 1')).rejects.toThrow('Transaction is closed');
  });

  it('a COMMIT that fails rejects the transaction and keeps nothing', async () => {
    const e = await rejection(db.transaction((tx) => tx.query('insert into d values (1, 42)')));
    expect(e.code).toBe('23503');
    expect((await db.query('select * from d')).rows).toEqual([]);
  });

  it('two transactions never interleave, and a query outside waits for the open one', async () => {
    const seen: string[] = [];
    const slow = (name: string, id: number) =>
      db.transaction(async (tx) => {
        seen.push(`${name} begin`);
        await tx.query('insert into t (id, name) values ($1, $2)', [id, name]);
        await new Promise((r) => setTimeout(r, 50));
        await tx.query('select 1');
        seen.push(`${name} end`);
      });
    let outside: number | undefined;
    const a = slow('a', 1);
    const b = slow('b', 2);
    // Sent while `a` is open: answered only once `a` has committed, and sees its row.
    await new Promise((r) => setTimeout(r, 10));
    const read = count().then((c) => {
      outside = c;
      seen.push('outside');
    });
    await Promise.all([a, b, read]);
    expect(seen.slice(0, 2)).toEqual(['a begin', 'a end']);
    expect(seen.indexOf('b end')).toBe(seen.indexOf('b begin') + 1);
    expect(outside).toBeGreaterThanOrEqual(1);
    expect(await count()).toBe(2);
  });

  it('refuses a parameter that cannot be sent as text, and goes on serving', async () => {
    await expect(db.query('select $1::text', [() => 1])).rejects.toThrow();
    expect((await db.query('select 1 as one')).rows).toEqual([{ one: 1 }]);
  });

  it('calls made in one turn cross together and each gets its own answer, in the order sent', async () => {
    const order: number[] = [];
    const calls = Array.from({ length: 200 }, (_, i) =>
      db.query<{ i: number }>('select $1::int as i', [i]).then((r) => (order.push(i), r.rows[0]!.i)),
    );
    expect(await Promise.all(calls)).toEqual(Array.from({ length: 200 }, (_, i) => i));
    expect(order).toEqual(Array.from({ length: 200 }, (_, i) => i));
  });

  it('a parameter that cannot be sent fails only its own call among those sent in one turn; writes sent beside it are kept', async () => {
    const [a, bad, b] = await Promise.allSettled([
      db.query('insert into t (id, name) values (1, $1)', ['a']),
      db.query('insert into t (id, name) values (2, $1)', [() => 1]),
      db.query('insert into t (id, name) values (3, $1)', ['b']),
    ]);
    expect([a.status, bad.status, b.status]).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((await db.query('select id from t order by id')).rows).toEqual([{ id: 1 }, { id: 3 }]);
  });

  it('an error among answers sent together reaches its own call only', async () => {
    const [ok, failed] = await Promise.allSettled([
      db.query('select 1 as one'),
      db.query('select * from no_such_table'),
      db.query('select 2 as two'),
    ]);
    expect(ok).toMatchObject({ status: 'fulfilled', value: { rows: [{ one: 1 }] } });
    expect(failed).toMatchObject({ status: 'rejected', reason: { code: '42P01' } });
  });
});

/** A stand-in worker from `source` (it must post `{ ready: true }` first), for the test's `run`. */
async function withWorkerScript(source: string, run: (workerUrl: URL) => Promise<void>) {
  const dir = mkdtempSync(join(tmpdir(), 'remit-thread-'));
  try {
    const script = join(dir, 'worker.mjs');
    writeFileSync(
      script,
      `import { parentPort } from 'node:worker_threads';\nparentPort.postMessage({ ready: true });\n${source}`,
    );
    await run(new URL(`file://${script}`));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('PGliteThread messages', () => {
  it('sends a lone call at once and the calls that follow it in the same turn together, and takes answers sent together', async () => {
    // A worker that answers each call with the number of calls its message carried (one int4
    // column \`n\`, as the database's protocol bytes), all in one reply.
    const source = `
    const frame = (code, body) => { const b = Buffer.alloc(5 + body.length); b.write(code, 0); b.writeInt32BE(4 + body.length, 1); body.copy(b, 5); return b; };
    const rows = (n) => {
      const field = Buffer.alloc(2 + 2 + 18); field.writeInt16BE(1, 0); field.write('n', 2); field.writeInt32BE(23, 4 + 6);
      const text = Buffer.from(String(n)); const data = Buffer.alloc(2 + 4 + text.length); data.writeInt16BE(1, 0); data.writeInt32BE(text.length, 2); text.copy(data, 6);
      return new Uint8Array(Buffer.concat([frame('T', field), frame('D', data), frame('C', Buffer.from('SELECT 1\\0')), frame('Z', Buffer.from('I'))]));
    };
    parentPort.on('message', (m) => {
      const calls = m.batch ?? [m];
      parentPort.postMessage({ batch: calls.map((c) => ({ id: c.id, result: rows(calls.length) })) });
    });`;
    await withWorkerScript(source, async (workerUrl) => {
      const counting = new PGliteThread({ textTypes: [], workerUrl });
      await counting.waitReady;
      const first = (
        await Promise.all(Array.from({ length: 10 }, () => counting.query<{ n: number }>('select 1')))
      ).map((r) => r.rows[0]!.n);
      // The lone first call went at once; the nine after it went together, but for a flush when this
      // thread had worked 0.2 ms since it last sent (framing nine statements cold can take that long).
      expect(first[0]).toBe(1);
      const messages = first.slice(1).reduce((n, size, i, all) => (i === 0 || size !== all[i - 1] ? n + 1 : n), 0);
      expect(messages).toBeLessThanOrEqual(4);
      expect(Math.max(...first.slice(1))).toBeGreaterThanOrEqual(3);
      await new Promise((r) => setTimeout(r, 5));
      expect((await counting.query<{ n: number }>('select 1')).rows[0]!.n).toBe(1);
      await counting.close();
    });
  });
});

describe('PGliteThread when the worker ends', () => {
  it('a worker that stops rejects the calls waiting on it and every later one, with a clear error', async () => {
    // A worker that opens, then dies on its first call (as a wasm abort would end it).
    await withWorkerScript(`parentPort.on('message', () => process.exit(7));`, async (workerUrl) => {
      const lost: string[] = [];
      const dying = new PGliteThread({ textTypes: [], workerUrl, onLost: (e) => lost.push(e.message) });
      await dying.waitReady;
      await expect(dying.query('select 1')).rejects.toThrow('The PGlite worker stopped (exit code 7)');
      await expect(dying.transaction(async () => {})).rejects.toThrow('The PGlite worker stopped');
      // Told once (the server ends its process on it).
      expect(lost).toEqual(['The PGlite worker stopped (exit code 7); the database is closed.']);
      await dying.close();
      expect(lost).toHaveLength(1);
    });
  });

  it('a database that cannot open rejects waitReady', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'remit-thread-'));
    try {
      const notADir = join(dir, 'file');
      writeFileSync(notADir, 'not a database');
      const broken = new PGliteThread({ dataDir: notADir, textTypes: [] });
      await expect(broken.waitReady).rejects.toThrow();
      await broken.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('close() closes the database and ends the worker: later calls are refused', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'remit-thread-'));
    try {
      const lost: Error[] = [];
      const first = new PGliteThread({ dataDir: dir, textTypes: [], onLost: (e) => lost.push(e) });
      await first.exec('create table kept (x int); insert into kept values (7)');
      await first.close();
      await expect(first.query('select 1')).rejects.toThrow('The PGlite worker stopped');
      // A close is not a loss.
      expect(lost).toEqual([]);
      // Closed cleanly: the data is there for the next opener.
      const second = new PGliteThread({ dataDir: dir, textTypes: [] });
      expect((await second.query('select x from kept')).rows).toEqual([{ x: 7 }]);
      await second.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
