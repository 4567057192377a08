import { DrizzleQueryError, sql } from 'drizzle-orm';
import { PgDialect, pgTable, text, timestamp, integer } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, testDbKind, type TestDatabase } from '../test-database.js';
import { connectDatabase, type Database } from './connect.js';
import { preparedSql } from './prepared-sql.js';

/**
 * preparedSql sends its statement to the driver itself: what it answers, logs and throws must be
 * what Drizzle's own `.prepare(name).execute()` of the same statement gives, on the test database.
 */
const notes = pgTable('prepared_notes', {
  id: integer('id').primaryKey(),
  body: text('body').notNull(),
  at: timestamp('at', { withTimezone: true, mode: 'date' }).notNull(),
});

let testDb: TestDatabase | null = null;
let database: Database;
const logged: Array<{ query: string; params: unknown[] }> = [];
beforeAll(async () => {
  testDb = testDbKind === 'postgres' ? await createTestDatabase('remit_ps') : null;
  database = await connectDatabase({
    databaseUrl: testDb?.url,
    logger: { logQuery: (query, params) => void logged.push({ query, params }) },
  });
  await database.db.execute(
    sql`create table prepared_notes (id int primary key, body text not null, at timestamptz not null)`,
  );
});
afterAll(async () => {
  await database.close();
  await testDb?.drop();
});

const ph = sql.placeholder;
// A column's encoder on a placeholder (the Date as Drizzle writes it) and a bare placeholder (cast in SQL).
const insertNote = () =>
  database.db
    .insert(notes)
    .values({
      id: ph('id') as unknown as number,
      body: ph('body') as unknown as string,
      at: ph('at') as unknown as Date,
    })
    .returning()
    .getSQL();
const readNote = () =>
  sql`select id, body, at, ${ph('extra')}::int + 1 as next from prepared_notes where id = ${ph('id')}`;

/** The same statement through Drizzle's own prepared query, under another name. */
const drizzleRun = (statement: ReturnType<typeof sql>, name: string, values: Record<string, unknown>) => {
  const query = new PgDialect().sqlToQuery(statement);
  const session = (
    database.db as unknown as {
      _: {
        session: {
          prepareQuery(q: unknown, f: undefined, n: string, a: boolean): { execute(v: unknown): Promise<unknown> };
        };
      };
    }
  )._.session;
  return session.prepareQuery(query, undefined, name, false).execute(values);
};
const rowsOf = (answer: unknown) => (answer as { rows: unknown[] }).rows;

describe(`preparedSql (${testDbKind})`, () => {
  it('writes and reads as Drizzle does: the same rows, a Date written by its column, timestamps read back as text', async () => {
    const at = new Date('2026-11-26T07:30:00.123Z');
    const ours = rowsOf(
      await preparedSql('remit_test_insert', insertNote).run(database.db, { id: 1, body: 'one', at }),
    );
    const theirs = rowsOf(await drizzleRun(insertNote(), 'remit_test_insert_d', { id: 2, body: 'one', at }));
    expect(ours).toHaveLength(1);
    expect({ ...(ours[0] as object), id: 2 }).toEqual(theirs[0]);

    const read = preparedSql('remit_test_read', readNote);
    const mine = rowsOf(await read.run(database.db, { id: 1, extra: 41 }));
    expect(mine).toEqual([{ id: 1, body: 'one', at: expect.any(String), next: 42 }]);
    expect(new Date((mine[0] as { at: string }).at).toISOString()).toBe(at.toISOString());
    expect(rowsOf(await drizzleRun(readNote(), 'remit_test_read_d', { id: 1, extra: 41 }))).toEqual(mine);
    // Run again by name, and in a transaction (a handle of its own): the same answer.
    expect(rowsOf(await read.run(database.db, { id: 1, extra: 41 }))).toEqual(mine);
    expect(await database.db.transaction(async (tx) => rowsOf(await read.run(tx, { id: 1, extra: 41 })))).toEqual(mine);
  });

  it.runIf(testDbKind === 'postgres')(
    'is sent by its name on Postgres: the connection keeps it prepared under that name',
    async () => {
      const read = preparedSql('remit_test_named', readNote);
      const kept = await database.db.transaction(async (tx) => {
        await read.run(tx, { id: 1, extra: 0 });
        await read.run(tx, { id: 1, extra: 0 });
        return rowsOf(
          await tx.execute(sql`select name, statement from pg_prepared_statements where name = 'remit_test_named'`),
        );
      });
      expect(kept).toEqual([
        { name: 'remit_test_named', statement: expect.stringMatching(/^select id, body, at, \$1::int/) },
      ]);
    },
  );

  it("tells the database's logger each statement with its parameters, as sent", async () => {
    logged.length = 0;
    await preparedSql('remit_test_read', readNote).run(database.db, { id: 7, extra: 1 });
    expect(logged).toEqual([
      {
        query: expect.stringMatching(/^select id, body, at, \$1::int \+ 1 as next from prepared_notes where id = \$2$/),
        params: [1, 7],
      },
    ]);
  });

  it("fails as Drizzle's query does: a DrizzleQueryError with the statement and the database's error as its cause", async () => {
    const err = await preparedSql('remit_test_insert', insertNote)
      .run(database.db, { id: 1, body: 'again', at: new Date() })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DrizzleQueryError);
    expect((err as DrizzleQueryError).query).toMatch(/^insert into "prepared_notes"/);
    expect(((err as DrizzleQueryError).cause as { code?: string }).code).toBe('23505');
  });

  it('refuses a missing placeholder value before anything is sent', async () => {
    logged.length = 0;
    await expect(preparedSql('remit_test_read', readNote).run(database.db, { id: 1 })).rejects.toThrow(
      'No value for placeholder "extra" was provided',
    );
    expect(logged).toEqual([]);
  });
});
