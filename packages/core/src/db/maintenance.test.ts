import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { connectDatabase, type Database } from './connect.js';
import { maintainTables } from './maintenance.js';

// PGlite's own upkeep (the server runs it on PGlite only), whatever REMIT_TEST_DB says.
let database: Database;
beforeAll(async () => {
  database = await connectDatabase({});
  await database.db.execute(sql`create table grow (id int primary key, note text)`);
});
afterAll(() => database.close());

/** The table's counts, as the next check would see them (a backend reports them at most once a second unless told to). */
const stats = async () => {
  await flushStats();
  const answer = (await database.db.execute(sql`
    select n_mod_since_analyze::int as mod, n_dead_tup::int as dead, last_analyze is not null as analyzed
    from pg_stat_user_tables where relname = 'grow'`)) as unknown as {
    rows: Array<{ mod: number; dead: number; analyzed: boolean }>;
  };
  return answer.rows[0]!;
};
const flushStats = async () => {
  await database.db.execute(sql`select pg_stat_force_next_flush()`);
  await database.db.execute(sql`select 1`);
};

it('analyzes a table once 50 + 10% of its rows changed and vacuums it once 50 + 20% are dead, as autovacuum would', async () => {
  const insert = (from: number, to: number) =>
    database.db.execute(sql`insert into grow select g, 'x' from generate_series(${from}::int, ${to}::int) g`);
  await insert(1, 40);
  await flushStats();
  expect(await maintainTables(database.db)).toMatchObject({ analyzed: [], vacuumed: [] });
  expect(await stats()).toMatchObject({ mod: 40, analyzed: false });

  await insert(41, 1000);
  await flushStats();
  expect((await maintainTables(database.db)).analyzed).toContain('grow');
  expect(await stats()).toMatchObject({ mod: 0, analyzed: true });

  // 1000 rows: 90 changed (and dead) is under 50 + 100; then 170 deleted, 260 dead is past 50 + 200.
  await database.db.execute(sql`update grow set note = 'y' where id <= 90`);
  await flushStats();
  expect((await maintainTables(database.db)).analyzed).not.toContain('grow');
  await database.db.execute(sql`delete from grow where id > 830`);
  await flushStats();
  const done = await maintainTables(database.db);
  expect(done.vacuumed).toContain('grow');
  expect(await stats()).toMatchObject({ mod: 0, dead: 0 });
});
