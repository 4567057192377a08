import { mkdtempSync, cpSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { connectDatabase } from '@remit/core';
import { basicAuth, send } from './testing/http.js';
import { newMerchant, type TestMerchant } from './testing/fixtures.js';
import type { TestServer } from './testing/harness.js';
import { newCustomer } from './testing/payments.js';
import type { ServerProcess } from './testing/process.js';
import { restartableServer } from './testing/restartable.js';

/**
 * Exactly once across crashes: bursts of charges and refunds, each with its own Idempotency-Key,
 * while the server process is SIGKILLed at random moments and started again. The client retries
 * every key it has no answer for, with the same body, until it is answered. Every order must then
 * be charged once and every refund applied once, and every answer must be what the database holds.
 * (Before the stored answer committed with its operation, 4 kills gave 16–21 extra charges in 400.)
 */
// Short, so that a key left claimed by a killed process is free again soon.
const LEASE_MS = 1500;
const suite = restartableServer({ REMIT_IDEMPOTENCY_LEASE_MS: String(LEASE_MS) });

/** The in-process helpers' view of a server process (newMerchant, newCustomer use `http`). */
function over(base: string): TestServer {
  return {
    http: ({ path, auth, ...rest }: { path: string; auth?: [string, string] } & Record<string, unknown>) =>
      send({
        ...rest,
        url: `${base}${path}`,
        headers: { ...(rest.headers as object), ...(auth ? { authorization: basicAuth(...auth) } : {}) },
      } as never),
    credentials: async () => {
      const r = await send<{ client_id: string; secret_key: string }>({
        method: 'POST',
        url: `${base}/portal/api/credentials`,
      });
      return [r.body.client_id, r.body.secret_key];
    },
  } as unknown as TestServer;
}

interface Attempt {
  key: string;
  path: string;
  json: Record<string, unknown>;
  /** The answer, once there is one (a 200 or a decision such as 400). */
  answer?: { status: number; body: any };
}

/** Whether a reply is the server's answer to keep, or a reason to retry (no reply, in progress, server error). */
const isAnswer = (status: number) => status !== 409 && status < 500 && status !== 429 && status !== 408;

/**
 * Sends every unanswered attempt (at most `concurrency` at a time) and, `kills` times, SIGKILLs the
 * server after a random delay and starts a new one; then retries until every attempt is answered.
 */
async function runWithKills(attempts: Attempt[], m: TestMerchant, kills: number): Promise<void> {
  const authorization = basicAuth(...m.auth);
  let server: ServerProcess = current!;
  const sendOne = async (a: Attempt) => {
    const r = await send({
      method: 'POST',
      url: `${server.base}${a.path}`,
      headers: { authorization, 'idempotency-key': a.key },
      json: a.json,
      timeoutMs: 5000,
    }).catch(() => null);
    if (r && isAnswer(r.status)) a.answer = { status: r.status, body: r.body };
  };
  const pass = async (concurrency: number) => {
    const todo = attempts.filter((a) => !a.answer);
    const workers = Array.from({ length: concurrency }, async () => {
      for (let a = todo.shift(); a; a = todo.shift()) await sendOne(a);
    });
    await Promise.all(workers);
  };
  for (let k = 0; k < kills; k++) {
    const burst = pass(16);
    await new Promise((r) => setTimeout(r, 30 + Math.random() * 250));
    await server.stop('SIGKILL');
    await burst;
    server = current = await suite.start();
  }
  for (let round = 0; attempts.some((a) => !a.answer); round++) {
    if (round > 0) await new Promise((r) => setTimeout(r, LEASE_MS / 2));
    if (round > 40)
      throw new Error(
        `unanswered after 40 rounds: ${attempts
          .filter((a) => !a.answer)
          .map((a) => a.key)
          .join(', ')}`,
      );
    await pass(8);
  }
}

let current: ServerProcess | null = null;

/** Reads the stopped server's database (on PGlite a copy of its folder, as the kill left it). */
async function query<T>(text: string): Promise<T[]> {
  const { databaseUrl, dataDir } = suite.where();
  const copy = databaseUrl ? null : mkdtempSync(join(tmpdir(), 'remit-money-'));
  if (copy) {
    cpSync(dataDir, copy, { recursive: true });
    rmSync(join(copy, 'remit.pid'), { force: true });
  }
  const database = await connectDatabase(copy ? { dataDir: copy } : { databaseUrl });
  try {
    const res = await database.db.execute(sql.raw(text));
    return ((res as { rows?: T[] }).rows ?? (res as unknown as T[])) as T[];
  } finally {
    await database.close();
    if (copy) rmSync(copy, { recursive: true, force: true });
  }
}

it('charges and refunds retried across SIGKILLs happen exactly once, and every answer is in the database', async () => {
  current = await suite.start();
  const m = await newMerchant(over(current.base));
  const customerId = await newCustomer(over(current.base), m);

  // Charges: 160 orders of 1.00, each with its own key and order_id.
  const charges: Attempt[] = Array.from({ length: 160 }, (_, i) => ({
    key: `charge-${i}`,
    path: `/api/v1/customers/charge/${customerId}`,
    json: { merchant_key: m.merchant_key, amount: '1.00', order_id: `order-${i}`, preAuth: false },
  }));
  await runWithKills(charges, m, 4);

  // Refunds: 120 refunds of 1.00 against one 500.00 sale, each with its own key.
  const big = await send<{ transaction_id: string }>({
    method: 'POST',
    url: `${current!.base}/api/v1/customers/charge/${customerId}`,
    headers: { authorization: basicAuth(...m.auth) },
    json: { merchant_key: m.merchant_key, amount: '500.00', order_id: 'big', preAuth: false },
  });
  expect(big.status).toBe(200);
  const refunds: Attempt[] = Array.from({ length: 120 }, (_, i) => ({
    key: `refund-${i}`,
    path: '/api/v1/order/sales-return',
    json: { merchant_key: m.merchant_key, transaction_id: big.body.transaction_id, amount: '1.00' },
  }));
  await runWithKills(refunds, m, 4);
  await current!.stop('SIGTERM');

  for (const a of [...charges, ...refunds]) expect(a.answer, a.key).toMatchObject({ status: 200 });

  const sales = await query<{ order_id: string; n: number }>(
    `select order_id, count(*)::int as n from transactions where merchant_id = '${m.merchant_id}' and type = 'Sale' and order_id like 'order-%' group by order_id`,
  );
  const twice = sales.filter((s) => s.n !== 1);
  expect(twice, 'orders charged more than once').toEqual([]);
  expect(sales.length).toBe(charges.length);
  const saleIds = new Set(
    (
      await query<{ id: string }>(
        `select id from transactions where merchant_id = '${m.merchant_id}' and type = 'Sale'`,
      )
    ).map((r) => r.id),
  );
  for (const a of charges) expect(saleIds.has(a.answer!.body.transaction_id), a.key).toBe(true);

  const [original] = await query<{ refunded_cents: number }>(
    `select refunded_cents::int from transactions where id = '${big.body.transaction_id}'`,
  );
  const records = await query<{ id: string }>(
    `select id from transactions where linked_txn_id = '${big.body.transaction_id}' and type = 'Refund'`,
  );
  expect(records.length, 'refund records').toBe(refunds.length);
  expect(original!.refunded_cents).toBe(refunds.length * 100);
  const recordIds = new Set(records.map((r) => r.id));
  for (const a of refunds) expect(recordIds.has(a.answer!.body.data.sales_id), a.key).toBe(true);
}, 600_000);
