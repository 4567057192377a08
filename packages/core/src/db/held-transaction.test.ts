import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { onOutboxCommit, outboxWritten } from '../outbox-signal.js';
import { createTestDatabase, testDbKind, type TestDatabase } from '../test-database.js';
import { openDatabase } from '../open.js';
import type { Database } from './connect.js';
import { heldTransaction, holdTransaction } from './held-transaction.js';

let database: Database;
let pg: TestDatabase | null = null;
beforeAll(async () => {
  pg = testDbKind === 'postgres' ? await createTestDatabase() : null;
  database = await openDatabase(pg ? { databaseUrl: pg.url } : {});
  await database.db.execute(sql`create table held_notes (id int primary key, note text)`);
});
afterAll(async () => {
  await database.close();
  await pg?.drop();
});

const notes = async () =>
  ((await database.db.execute(sql`select id from held_notes order by id`)) as unknown as { rows: Array<{ id: number }> }).rows.map((r) => r.id);

it('work run in a held transaction, savepoints included, commits with its last step or not at all', async () => {
  const { db } = database;
  const held = await holdTransaction(db);
  await held.run(async () => {
    expect(heldTransaction()).not.toBeNull();
    await db.execute(sql`insert into held_notes values (1, 'plain')`);
    // A failed inner transaction is a savepoint: only its own write goes.
    await expect(
      db.transaction(async (tx) => {
        await tx.execute(sql`insert into held_notes values (2, 'rolled back')`);
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    await db.transaction((tx) => tx.execute(sql`insert into held_notes values (3, 'inner')`));
  });
  await held.commit((tx) => tx.execute(sql`insert into held_notes values (4, 'answer')`).then(() => {}));
  expect(held.open).toBe(false);
  expect(await notes()).toEqual([1, 3, 4]);

  const dropped = await holdTransaction(db);
  await dropped.run(() => db.execute(sql`insert into held_notes values (5, 'dropped')`));
  await dropped.rollback();
  expect(await notes()).toEqual([1, 3, 4]);

  // A last step that fails keeps nothing of the work before it.
  const failing = await holdTransaction(db);
  await failing.run(() => db.execute(sql`insert into held_notes values (6, 'work')`));
  await expect(failing.commit(() => Promise.reject(new Error('claim lost')))).rejects.toThrow('claim lost');
  expect(await notes()).toEqual([1, 3, 4]);
});

it('after the hold ends, the request context uses the database again; outbox listeners hear the commit, outside the hold', async () => {
  const { db } = database;
  const heard: Array<{ kind: string; inHold: boolean }> = [];
  const stop = onOutboxCommit(db, (kind) => heard.push({ kind, inHold: heldTransaction() !== null }));
  const held = await holdTransaction(db);
  await held.run(async () => {
    await db.execute(sql`insert into held_notes values (7, 'event')`);
    outboxWritten(db, 'webhooks');
    // Not before the commit: a dispatcher woken now would not see the row.
    expect(heard).toEqual([]);
    await held.commit();
    expect(heard).toEqual([{ kind: 'webhooks', inHold: false }]);
    expect(heldTransaction()).toBeNull();
    await db.execute(sql`insert into held_notes values (8, 'after')`);
  });
  stop();
  expect(await notes()).toEqual([1, 3, 4, 7, 8]);
});
