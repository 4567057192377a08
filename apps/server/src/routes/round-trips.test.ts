import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import type { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  chargeResponseSchema,
  moneyRecordResponseSchema,
  payLinkResponseSchema,
  preauthCaptureResponseSchema,
  preauthUpdateResponseSchema,
  transactionListResponseSchema,
  transactionResponseSchema,
} from '@remit/contract';
import { WebhookDispatcher } from '@remit/core';
import { startTestServer, testDbKind, type TestServer } from '../testing/harness.js';
import { newMerchant, type TestMerchant } from '../testing/fixtures.js';
import { charge, newCustomer } from '../testing/payments.js';

/**
 * The statements each hot route sends to the database, counted at the driver (BEGIN and COMMIT
 * included: each is a round trip), so that a change adding round trips fails here. Run with no
 * workers, so only the request's own statements are counted.
 *
 * The same requests prove the hot routes' answers against the contract: those routes send their
 * 200 as built, without the zod serializer (plugins/as-built.ts), so each answer must parse with
 * its schema and come out unchanged (no field missing, mistyped or extra).
 */

let s: TestServer;
let m: TestMerchant;
let card: number;
let sent: string[] = [];
let counting = false;
beforeAll(async () => {
  s = await startTestServer({ onStatement: (text) => counting && sent.push(text) });
  m = await newMerchant(s);
  card = await newCustomer(s, m);
});
afterAll(() => s.close());

/** The statements `run` sends. */
async function counted(run: () => Promise<unknown>): Promise<string[]> {
  sent = [];
  counting = true;
  try {
    await run();
  } finally {
    counting = false;
  }
  if (process.env.SHOW_STATEMENTS) console.log(shape(sent).join(' | '));
  return sent;
}

/**
 * The statements one request sends, after a first identical request warmed any cache (and
 * prepared any named statement on its connection); the answer must match `schema` exactly.
 */
async function statementsOf(send: () => Promise<{ status: number; body: any }>, schema: z.ZodType): Promise<string[]> {
  expect((await send()).status).toBe(200);
  let r: { status: number; body: any } | undefined;
  const q = await counted(async () => (r = await send()));
  expect(r!.status, JSON.stringify(r!.body)).toBe(200);
  expect(schema.parse(r!.body)).toEqual(r!.body);
  return q;
}

const api = (method: 'GET' | 'POST', path: string, body: object) =>
  s.http({ method, path: `/api/v1${path}`, auth: m.auth, json: { merchant_key: m.merchant_key, ...body } });

/*
 * No route here looks its merchant up: the cache answers on both databases (checked against the
 * merchants' epoch that the rate-limit statement reads), the warm-up request filled it.
 */
/** The API's per-client rate limit: one statement (`with clock as …`) counts every authenticated request. */
const limiter = [expect.stringMatching(/^with clock as/)];

const shape = (statements: string[]) =>
  statements.map((q) => q.trim().split(/\s+/).slice(0, 3).join(' ').toLowerCase());

describe(`round trips per hot route (${testDbKind})`, () => {
  it("POST /pay-link: the rate-limit count (reading the merchants' epoch), then one statement writes the link and its sale", async () => {
    const q = await statementsOf(() => api('POST', '/pay-link', { amount: '25.00' }), payLinkResponseSchema);
    expect(shape(q)).toEqual([...limiter, expect.stringMatching(/^with link as/)]);
    expect(q[0]!.includes('merchant_epoch')).toBe(true);
  });

  it('POST /customers/charge/{id}: rate limit, the customer with its method in one read, then one statement writes the sale and its event', async () => {
    let n = 0;
    const q = await statementsOf(
      () => api('POST', `/customers/charge/${card}`, { amount: 12.5, order_id: `rt-${n++}`, preAuth: false }),
      chargeResponseSchema,
    );
    expect(shape(q)).toEqual([...limiter, expect.stringMatching(/^select/), expect.stringMatching(/^with w0 as/)]);
    expect(q[q.length - 2]).toMatch(/left join "payment_methods"/);
  });

  it('POST /order/sales-return: rate limit, then one statement (its UPDATE takes the row lock) writes balance, record and event', async () => {
    const id = await charge(s, m, card, '50.00');
    const q = await statementsOf(
      () => api('POST', '/order/sales-return', { transaction_id: id, amount: '0.01' }),
      moneyRecordResponseSchema,
    );
    expect(shape(q)).toEqual([...limiter, expect.stringMatching(/^with u as/)]);
    expect(q.at(-1)).toMatch(/^with u as \(update transactions set/);
  });

  it('POST /order/sales-return refused: the refusal is found under the row lock, in one transaction', async () => {
    const id = await charge(s, m, card, '5.00');
    let r: { status: number; body: any } | undefined;
    const q = await counted(
      async () => (r = await api('POST', '/order/sales-return', { transaction_id: id, amount: '6.00' })),
    );
    expect(r!.status).toBe(400);
    expect(shape(q)).toEqual([
      ...limiter,
      expect.stringMatching(/^with u as/),
      'begin',
      expect.stringMatching(/^select/),
      'rollback',
    ]);
    expect(q.at(-2)).toMatch(/for update$/);
  });

  it('POST /order/sales-void: rate limit, then one statement (its UPDATE takes the row lock) writes state, record and event', async () => {
    // A fresh charge per request (a payment is voided once); warm on one, count the other.
    const ids = [await charge(s, m, card, '7.00'), await charge(s, m, card, '8.00')];
    const q = await statementsOf(
      () => api('POST', '/order/sales-void', { transaction_id: ids.shift() }),
      moneyRecordResponseSchema,
    );
    expect(shape(q)).toEqual([...limiter, expect.stringMatching(/^with u as/)]);
    expect(q.at(-1)).toMatch(/^with u as \(update transactions set/);
  });

  it('POST /preauth/update: rate limit, then one statement (its UPDATE the compare-and-set) writes the amount and its event', async () => {
    const id = await charge(s, m, card, '10.00', { preAuth: true, order_id: 'rt-pa' });
    let cents = 1000;
    const q = await statementsOf(async () => {
      const next = cents + 1;
      const r = await api('POST', '/preauth/update', {
        transaction_id: id,
        last_authorized_amount: (cents / 100).toFixed(2),
        new_authorized_amount: (next / 100).toFixed(2),
        order_id: 'rt-pa',
      });
      if (r.status === 200) cents = next;
      return r;
    }, preauthUpdateResponseSchema);
    expect(shape(q)).toEqual([...limiter, expect.stringMatching(/^with u as/)]);
  });

  it('POST /preauth/capture: rate limit, then one statement (its UPDATE guarded by the state) prices and completes the hold and writes both events', async () => {
    const ids = [
      await charge(s, m, card, '9.00', { preAuth: true }),
      await charge(s, m, card, '9.50', { preAuth: true }),
    ];
    const q = await statementsOf(
      () => api('POST', '/preauth/capture', { transaction_id: ids.shift() }),
      preauthCaptureResponseSchema,
    );
    expect(shape(q)).toEqual([...limiter, expect.stringMatching(/^with u as/)]);
    expect(q.at(-1)).toMatch(/^with u as \(update transactions set/);
  });

  it('POST /preauth/void: rate limit, then one statement (its UPDATE guarded by the state) voids the hold, writes the record and its event', async () => {
    const ids = [
      await charge(s, m, card, '6.00', { preAuth: true }),
      await charge(s, m, card, '6.50', { preAuth: true }),
    ];
    const q = await statementsOf(
      () => api('POST', '/preauth/void', { transaction_id: ids.shift() }),
      moneyRecordResponseSchema,
    );
    expect(shape(q)).toEqual([...limiter, expect.stringMatching(/^with u as/)]);
    expect(q.at(-1)).toMatch(/^with u as \(update transactions set/);
  });

  it('POST /preauth/capture refused (already captured): the refusal is found under the row lock, in one transaction', async () => {
    const id = await charge(s, m, card, '4.00', { preAuth: true });
    expect((await api('POST', '/preauth/capture', { transaction_id: id })).status).toBe(200);
    let r: { status: number; body: any } | undefined;
    const q = await counted(async () => (r = await api('POST', '/preauth/void', { transaction_id: id })));
    expect(r!.status).toBe(400);
    expect(r!.body.code).toBe('preauth_captured');
    expect(shape(q)).toEqual([
      ...limiter,
      expect.stringMatching(/^with u as/),
      'begin',
      expect.stringMatching(/^select/),
      'rollback',
    ]);
  });

  it('GET /merchant/transactions: rate limit, then one statement for the page and its total', async () => {
    const q = await statementsOf(
      () => api('GET', '/merchant/transactions', { limit: '20', pageNumber: 0 }),
      transactionListResponseSchema,
    );
    // One read: the per-day counts (a CTE) give the total and the day the page starts in.
    expect(shape(q)).toEqual([...limiter, expect.stringMatching(/^with days as/)]);
  });

  it('GET /merchant/transactions/{id}: rate limit, one read', async () => {
    const id = await charge(s, m, card, '3.00');
    const q = await statementsOf(() => api('GET', `/merchant/transactions/${id}`, {}), transactionResponseSchema);
    expect(shape(q)).toEqual([...limiter, expect.stringMatching(/^select/)]);
  });

  it("a client's concurrent requests share their rate-limit counts: 20 reads at once send far fewer than 20 limiter statements, each answered", async () => {
    const id = await charge(s, m, card, '2.00');
    const read = () => api('GET', `/merchant/transactions/${id}`, {});
    // 20 at once first, so the counted 20 go out on 20 open connections in one go: new connections
    // would reach the server one handshake apart, each after the last one's count had come back.
    expect((await Promise.all(Array.from({ length: 20 }, read))).map((r) => r.status)).toEqual(Array(20).fill(200));
    let answers: Array<{ status: number }> = [];
    const q = await counted(async () => (answers = await Promise.all(Array.from({ length: 20 }, read))));
    expect(answers.map((r) => r.status)).toEqual(Array(20).fill(200));
    const counts = shape(q).filter((t) => /^with clock as/.test(t)).length;
    expect(counts).toBeGreaterThan(0);
    expect(counts).toBeLessThan(20);
    expect(q.length).toBe(20 + counts);
  });

  it('the webhook claim loop: a pass that delivers k new events sends 2 statements (one claims due deliveries and makes and leases the new ones, one records the k results)', async () => {
    const k = 3;
    // The receiver answers the pass's k requests together, so their results are in hand together.
    const held: Array<() => void> = [];
    const receiver: Server = createServer((req, res) =>
      req.resume().on('end', () => {
        held.push(() => res.end('ok'));
        if (held.length >= k) for (const answer of held.splice(0)) answer();
      }),
    );
    await new Promise<void>((done) => receiver.listen(0, '127.0.0.1', done));
    try {
      const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
      const set = await s.http({
        method: 'POST',
        path: '/api/v1/client/update-webhooks-url',
        auth: m.auth,
        json: { webhook_url: url },
      });
      expect(set.status).toBe(200);
      // One client here: its share of the slots is all of them.
      const dispatcher = new WebhookDispatcher(s.core.ctx, { concurrency: k, perClient: k });
      // What earlier tests left, k at a time (their last pass may be short of k: answered on a timer).
      const flush = setInterval(() => {
        for (const answer of held.splice(0)) answer();
      }, 20);
      try {
        while ((await dispatcher.runOnce()) > 0);
      } finally {
        clearInterval(flush);
      }
      const delivered = async () =>
        (await s.core.ctx.db.execute(
          sql`select count(*)::int as n from webhook_deliveries where status = 'delivered'`,
        )) as unknown as { rows: Array<{ n: number }> };
      const before = (await delivered()).rows[0]!.n;
      for (let i = 0; i < k; i++) await charge(s, m, card, '1.00');
      let claimed = 0;
      const q = await counted(async () => (claimed = await dispatcher.runOnce()));
      expect(claimed).toBe(k);
      expect(shape(q), shape(q).join('\n')).toEqual([
        expect.stringMatching(/^with due as/),
        'update webhook_deliveries d',
      ]);
      expect((await delivered()).rows[0]!.n - before).toBe(k);
      await dispatcher.stop();
    } finally {
      await new Promise((done) => receiver.close(done));
    }
  });

  it('a merchant changed in the database is seen by the very next request (the lookup cache never goes stale)', async () => {
    const other = await newMerchant(s);
    const customer = await newCustomer(s, other);
    const chargeIt = () =>
      s.http({
        method: 'POST',
        path: `/api/v1/customers/charge/${customer}`,
        auth: other.auth,
        json: { merchant_key: other.merchant_key, amount: 1, order_id: 'stale', preAuth: false },
      });
    expect((await chargeIt()).status).toBe(200);
    await s.core.ctx.db.execute(sql`update merchants set status = 'pending' where id = ${other.merchant_id}`);
    const refused = await chargeIt();
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.body)).toContain('merchant_not_approved');
    await s.core.ctx.db.execute(sql`update merchants set status = 'approved' where id = ${other.merchant_id}`);
    expect((await chargeIt()).status).toBe(200);
  });
});
