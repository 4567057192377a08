import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { connectDatabase, type Database } from '../db/connect.js';
import type { Merchant } from '../merchants/merchant-key.js';
import { createTestDatabase, type TestDatabase } from '../test-database.js';
import { getTransaction, listTransactions } from './transactions.js';

/**
 * On Postgres the list and the single read are named prepared statements: parsed and planned
 * once per pooled connection. Always run on the local Postgres (the property is Postgres's own),
 * with a pool of one connection so the statements this test sends share a session to look into.
 */

let tdb: TestDatabase;
let database: Database;
beforeAll(async () => {
  tdb = await createTestDatabase();
  database = await connectDatabase({ databaseUrl: tdb.url, poolSize: 1 });
});
afterAll(async () => {
  await database?.close();
  await tdb?.drop();
});

it('the list and the single read are prepared once under their names, whatever the inputs', async () => {
  const ctx = { db: database.db, now: () => new Date(), settlementCutoffMs: 0 };
  const merchant = { id: 'm_prepared', clockOffsetMs: 0 } as Merchant;
  // Inputs that used to change the statement's text (dates given or not) must not change it now:
  // node-postgres refuses one name with two texts.
  const key = { merchant_key: 'mk_test_unused' };
  for (const input of [key, { ...key, from_date: '2026-01-01', to_date: '2026-01-31', limit: 5, pageNumber: 1 }, key]) {
    expect(await listTransactions(ctx, merchant, input)).toEqual({ data: [], total: 0 });
    await expect(getTransaction(ctx, merchant, 'txn_none')).rejects.toMatchObject({ code: 'transaction_not_found' });
  }
  const r = await database.db.execute(sql`select name from pg_prepared_statements order by name`);
  const names = (r as unknown as { rows: Array<{ name: string }> }).rows.map((x) => x.name);
  // The first page and a later one (which starts in the minute its offset falls in) are two statements.
  expect(names).toEqual(['remit_transaction_one', 'remit_transactions_later_page_m', 'remit_transactions_page']);
});
