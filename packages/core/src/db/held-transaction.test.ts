import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { OutboxSignal, type OutboxKind } from '../outbox-signal.js';
import { inTransaction, outboxWritten, UNSCOPED, type Scoped } from '../operation.js';
import { createTestDatabase, testDbKind, type TestDatabase } from '../test-database.js';
import { openDatabase } from '../open.js';
import type { Database } from './connect.js';
import { holdTransaction } from './held-transaction.js';

let database: Database;
let base: Scoped;
let pg: TestDatabase | null = null;
beforeAll(async () => {
  pg = testDbKind === 'postgres' ? await createTestDatabase() : null;
  database = await openDatabase(pg ? { databaseUrl: pg.url } : {});
  base = { db: database.db, op: UNSCOPED, outbox: new OutboxSignal() };
  await database.db.execute(sql`create table held_notes (id int primary key, note text)`);
});
afterAll(async () => {
  await database.close();
  await pg?.drop();
});

const notes = async () =>
  (
    (await database.db.execute(sql`select id from held_notes order by id`)) as unknown as {
      rows: Array<{ id: number }>;
    }
  ).rows.map((r) => r.id);

it('work run in a held transaction, savepoints included, commits with its last step or not at all', async () => {
  const held = await holdTransaction(base, null);
  const { db } = held.ctx;
  expect(held.ctx.op.key).toBeNull();
  await db.execute(sql`insert into held_notes values (1, 'plain')`);
  // A failed inner transaction is a savepoint: only its own write goes.
  await expect(
    inTransaction(held.ctx, async (tx) => {
      await tx.execute(sql`insert into held_notes values (2, 'rolled back')`);
      throw new Error('refused');
    }),
  ).rejects.toThrow('refused');
  await inTransaction(held.ctx, (tx) => tx.execute(sql`insert into held_notes values (3, 'inner')`));
  await held.commit((c) => c.db.execute(sql`insert into held_notes values (4, 'answer')`).then(() => {}));
  expect(held.open).toBe(false);
  expect(await notes()).toEqual([1, 3, 4]);

  const dropped = await holdTransaction(base, null);
  await dropped.ctx.db.execute(sql`insert into held_notes values (5, 'dropped')`);
  await dropped.rollback();
  expect(await notes()).toEqual([1, 3, 4]);

  // A last step that fails keeps nothing of the work before it.
  const failing = await holdTransaction(base, null);
  await failing.ctx.db.execute(sql`insert into held_notes values (6, 'work')`);
  await expect(failing.commit(() => Promise.reject(new Error('claim lost')))).rejects.toThrow('claim lost');
  expect(await notes()).toEqual([1, 3, 4]);
});

it('the held scope is a value: its operation key and its outboxes, woken once it commits, never for a rollback', async () => {
  const heard: OutboxKind[] = [];
  const stop = base.outbox.listen((kind) => heard.push(kind));
  const held = await holdTransaction(base, '["cli_1","key-1"]');
  expect(held.ctx.op.key).toBe('["cli_1","key-1"]');
  // The context it was made from is untouched: work not given the scope is not part of the operation.
  expect(base.op).toBe(UNSCOPED);
  await held.ctx.db.execute(sql`insert into held_notes values (7, 'event')`);
  // A savepoint's write belongs to the same operation: woken with the outer commit.
  await inTransaction(held.ctx, async (_tx, inner) => outboxWritten(inner, 'webhooks'));
  outboxWritten(held.ctx, 'messages');
  // Not before the commit: a dispatcher woken now would not see the row.
  expect(heard).toEqual([]);
  await held.commit();
  expect(heard.sort()).toEqual(['messages', 'webhooks']);
  await base.db.execute(sql`insert into held_notes values (8, 'after')`);

  heard.length = 0;
  const dropped = await holdTransaction(base, null);
  outboxWritten(dropped.ctx, 'webhooks');
  await dropped.rollback();
  expect(heard).toEqual([]);
  // Outside any transaction a written row is committed already: woken at once.
  outboxWritten(base, 'webhooks');
  expect(heard).toEqual(['webhooks']);
  stop();
  expect(await notes()).toEqual([1, 3, 4, 7, 8]);
});
