import { PGlite, parse, protocol } from '@electric-sql/pglite';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { execMessage, queryMessage, readAnswer } from './wire-codec.js';

// PGlite's own protocol code is the reference: the same answer bytes must read the same.
let db: PGlite;
beforeAll(async () => {
  db = new PGlite();
  await db.exec(
    "create table t (id int primary key, name text, n int8, doc jsonb); insert into t values (1, 'é ü ☃', 9007199254740993, '{\"a\":[1]}'), (2, null, null, null)",
  );
});
afterAll(() => db.close());

/** PGlite's reading of the same bytes: its parser, then its result builder. */
const reference = (bytes: Uint8Array, options?: Parameters<typeof parse.parseResults>[2]) => {
  const messages: Parameters<typeof parse.parseResults>[0] = [];
  new protocol.Parser().parse(bytes, (m) => messages.push(m));
  return parse.parseResults(messages, {}, options);
};
const unnamed = { name: '', parse: true };

it('reads rows, fields, command tags and counts as PGlite does, in both row modes', () => {
  for (const [text, values] of [
    ['select * from t where id = any($1::int[]) order by id', ['{1,2}']],
    ['select $1::text as a, $2::text as b, $3::int as c', ['', null, '7']],
    ['update t set name = name where id > $1', ['0']],
    ['insert into t (id) select g from generate_series($1::int, $2::int) g', ['10', '12']],
    ['delete from t where id >= $1', ['10']],
  ] as const) {
    const bytes = db.execProtocolRawSync(queryMessage(text, values, unnamed)).slice();
    for (const options of [undefined, { rowMode: 'array' as const }]) {
      expect(readAnswer(bytes, {}, options)).toEqual({
        results: reference(bytes, options),
        error: undefined,
        parsed: true,
      });
    }
  }
  const many = db.execProtocolRawSync(execMessage('select 1 as a; create temp table x (y int); select 2 as b')).slice();
  expect(readAnswer(many).results).toEqual(reference(many));
  expect(readAnswer(many).results).toHaveLength(3);
});

it('binds to a named statement without parsing it again', () => {
  const named = { name: 'codec_test_1', parse: true };
  expect(
    readAnswer(db.execProtocolRawSync(queryMessage('select $1::int + 1 as n', ['1'], named)).slice()).results[0]!.rows,
  ).toEqual([{ n: 2 }]);
  const again = readAnswer(
    db.execProtocolRawSync(queryMessage('ignored: not sent', ['41'], { ...named, parse: false })).slice(),
  );
  expect(again).toMatchObject({ parsed: false, results: [{ rows: [{ n: 42 }] }] });
});

it('reads an error as PGlite does: a DatabaseError with every field', () => {
  const bytes = db
    .execProtocolRawSync(queryMessage('insert into t (id, name) values ($1, $2)', ['1', 'again'], unnamed))
    .slice();
  const { error } = readAnswer(bytes);
  const messages: unknown[] = [];
  new protocol.Parser().parse(bytes, (m) => messages.push(m));
  const theirs = messages.find((m) => m instanceof protocol.messages.DatabaseError) as Error;
  expect(error).toBeInstanceOf(protocol.messages.DatabaseError);
  expect({ ...error, message: error!.message }).toEqual({ ...theirs, message: theirs.message });
  expect(error).toMatchObject({
    code: '23505',
    constraint: 't_pkey',
    detail: 'Key (id)=(1) already exists.',
    severity: 'ERROR',
  });
});
