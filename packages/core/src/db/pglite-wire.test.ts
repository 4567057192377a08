import { PGlite, messages } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addArrayParsers,
  ARRAY_TYPES,
  paramText,
  StatementNames,
  wireQueries,
  type RunMessage,
} from './pglite-wire.js';
import type { Parsers } from './wire-codec.js';

// Runs on both test databases: the wire path is PGlite's whatever REMIT_TEST_DB says.
let db: PGlite;
let sent: Uint8Array[] = [];
const run: RunMessage = async (bytes) => {
  sent.push(bytes);
  return db.execProtocolRawSync(bytes).slice();
};
/** How many Parse messages ('P') the calls since the last look sent. */
const parsesSent = () => {
  let n = 0;
  for (const m of sent)
    for (let at = 0; at < m.length; at += 1 + new DataView(m.buffer, m.byteOffset + at + 1, 4).getUint32(0))
      if (m[at] === 0x50) n++;
  sent = [];
  return n;
};

beforeAll(async () => {
  db = new PGlite();
  await db.exec(
    'create table t (id int primary key, name text, ok bool, doc jsonb, tags text[], bin bytea, at timestamptz)',
  );
});
afterAll(() => db.close());

describe('paramText', () => {
  it('sends values as node-postgres does: text, with the type left to the database', () => {
    expect(paramText(null)).toBeNull();
    expect(paramText(undefined)).toBeNull();
    expect(paramText('x')).toBe('x');
    expect(paramText(12.5)).toBe('12.5');
    expect(paramText(9_007_199_254_740_993n)).toBe('9007199254740993');
    expect(paramText(true)).toBe('true');
    expect(paramText(new Date('2026-01-02T03:04:05.006Z'))).toBe('2026-01-02T03:04:05.006Z');
    expect(paramText(new Uint8Array([0, 15, 255]))).toBe('\\x000fff');
    expect(paramText(['a', 'b"c', 'd\\e', null, ['f']])).toBe('{"a","b\\"c","d\\\\e",NULL,{"f"}}');
    expect(paramText({ a: [1, 'x'] })).toBe('{"a":[1,"x"]}');
    expect(() => paramText(() => 1)).toThrow('A function cannot be sent as a query parameter');
  });

  it('round-trips every kind through the database, arrays parsed as PGlite parses them', async () => {
    const parsers: Parsers = {};
    addArrayParsers(parsers, (await db.query<{ oid: number; typarray: number }>(ARRAY_TYPES)).rows);
    const q = wireQueries(new StatementNames(), parsers);
    await q.query(run, 'insert into t values ($1, $2, $3, $4, $5, $6, $7)', [
      1,
      'it\'s "quoted"',
      true,
      JSON.stringify({ a: 1 }),
      ['x', 'y,z', null],
      new Uint8Array([1, 2]),
      '2026-01-02T03:04:05Z',
    ]);
    const r = await q.query<Record<string, unknown>>(run, 'select * from t where id = $1', [1]);
    expect(r.rows).toEqual([
      {
        id: 1,
        name: 'it\'s "quoted"',
        ok: true,
        doc: { a: 1 },
        tags: ['x', 'y,z', null],
        bin: new Uint8Array([1, 2]),
        at: new Date('2026-01-02T03:04:05Z'),
      },
    ]);
    await q.query(run, 'delete from t');
  });
});

describe('wireQueries', () => {
  it('parses a statement once: later calls bind to its name', async () => {
    const q = wireQueries(new StatementNames(), {});
    parsesSent();
    for (let i = 0; i < 3; i++)
      expect((await q.query<{ i: number }>(run, 'select $1::int + 1 as i', [i])).rows).toEqual([{ i: i + 1 }]);
    expect(parsesSent()).toBe(1);
    const named = await db.query<{ name: string; statement: string }>(
      'select name, statement from pg_prepared_statements',
    );
    expect(named.rows.filter((r) => r.statement === 'select $1::int + 1 as i')).toHaveLength(1);
  });

  it('calls sent before the first Parse is answered parse the statement unnamed', async () => {
    const names = new StatementNames();
    const first = names.take('select 1', undefined);
    expect(first).toMatchObject({ name: expect.stringMatching(/^remit_s\d+$/), parse: true });
    expect(names.take('select 1', undefined)).toMatchObject({ name: '', parse: true });
    names.settle(first.key, first.name, true);
    expect(names.take('select 1', undefined)).toEqual({ ...first, parse: false });
    // Other parameter types are another statement.
    const typed = names.take('select 1', [23]);
    expect(typed.parse).toBe(true);
    expect(typed.name).not.toBe(first.name);
  });

  it('a statement whose Parse failed is not named: it is parsed again next time', async () => {
    const q = wireQueries(new StatementNames(), {});
    await db.exec('create table later (x int)');
    await db.exec('drop table later');
    const missing = await q.query(run, 'select x from later').catch((e: unknown) => e);
    expect(missing).toMatchObject({ code: '42P01', query: 'select x from later' });
    await db.exec('create table later (x int); insert into later values (4)');
    parsesSent();
    expect((await q.query(run, 'select x from later')).rows).toEqual([{ x: 4 }]);
    expect((await q.query(run, 'select x from later')).rows).toEqual([{ x: 4 }]);
    expect(parsesSent()).toBe(1);
  });

  it('names at most `max` statements; the rest go unnamed', async () => {
    const q = wireQueries(new StatementNames(2), {});
    for (const n of [1, 2, 3, 3]) await q.query(run, `select ${n} as n`);
    parsesSent();
    await q.query(run, 'select 1 as n');
    await q.query(run, 'select 3 as n');
    expect(parsesSent()).toBe(1);
  });

  it('answers database errors as DatabaseError with their fields; exec answers every result set', async () => {
    const q = wireQueries(new StatementNames(), {});
    await q.query(run, "insert into t (id, name) values (1, 'a')");
    const dup = await q.query(run, "insert into t (id, name) values (1, 'b')").catch((e: unknown) => e);
    expect(dup).toBeInstanceOf(messages.DatabaseError);
    expect(dup).toMatchObject({ code: '23505', constraint: 't_pkey', detail: 'Key (id)=(1) already exists.' });
    expect((await q.exec(run, 'select 1 as a; select 2 as b')).map((r) => r.rows)).toEqual([[{ a: 1 }], [{ b: 2 }]]);
    expect((await q.query(run, 'select id, name from t', [], { rowMode: 'array' })).rows).toEqual([[1, 'a']]);
    await q.query(run, 'delete from t');
  });
});
