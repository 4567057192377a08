import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { startTestServer, type TestServer } from '../testing/harness.js';
import { newMerchant, type TestMerchant } from '../testing/fixtures.js';
import { merchantPost, noonClock, rows, TEST_CARD } from '../testing/payments.js';
import { stripeCardCustomer } from '../testing/stripe-cards.js';
import {
  emulatedStripe,
  startStripeEmulator,
  stripeJsConfirmPayment,
  type StripeEmulator,
} from '../testing/stripe-emulator.js';

/**
 * With Stripe, no card number is ever in the database, nor in what Remit sends Stripe: a stored
 * card is Stripe's token and the last four; numbers go from the browser to Stripe only. The whole database is dumped (pg_dump on Postgres; every table's rows as text on
 * PGlite, which pg_dump cannot reach) after a card is stored, charged, and another paid on the pay page.
 */

let emu: StripeEmulator;
let s: TestServer;
let m: TestMerchant;
beforeAll(async () => {
  emu = await startStripeEmulator({ refuseRawCardData: true });
  const processor = emulatedStripe(emu);
  s = await startTestServer({ now: noonClock(), processor });
  m = await newMerchant(s);
});
afterAll(async () => {
  await s?.close();
  await emu?.close();
});

/** Everything the database holds, as text. */
async function dumpDatabase(): Promise<string> {
  if (s.databaseUrl)
    return execFileSync('pg_dump', ['--no-owner', s.databaseUrl], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  const tables = await rows<{ name: string }>(
    s,
    sql`select table_schema || '.' || table_name as name from information_schema.tables where table_schema not in ('pg_catalog', 'information_schema')`,
  );
  expect(tables.length).toBeGreaterThan(10);
  const parts: string[] = [];
  for (const { name } of tables) {
    const [schema, table] = name.split('.');
    const r = await rows<{ t: string | null }>(
      s,
      sql`select string_agg(row_to_json(x)::text, E'\n') as t from ${sql.identifier(schema!)}.${sql.identifier(table!)} x`,
    );
    parts.push(`-- ${name}\n${r[0]?.t ?? ''}`);
  }
  return parts.join('\n');
}

it('cards stored, charged and paid with Stripe: no card number in the database, nor in any request Remit sent Stripe', async () => {
  const stored = '4242424242424242';
  const customer = await stripeCardCustomer(s, m, emu, stored);
  const charged = await merchantPost(
    s,
    m,
    `/customers/charge/${customer}`,
    { amount: '12.00', order_id: 'scan' },
    'scan-charge-1',
  );
  expect(charged.status).toBe(200);
  const paid = String(
    (
      await s.http({
        method: 'POST',
        path: '/api/v1/pay-link',
        auth: m.auth,
        json: { merchant_key: m.merchant_key, amount: '5.00' },
      })
    ).body.data.payment_link,
  )
    .split('/')
    .pop()!;
  const typed = '5555555555554444';
  const opened = await s.http({
    method: 'POST',
    path: `/pay/api/links/${paid}/intent`,
    json: {},
    headers: { 'idempotency-key': randomUUID() },
  });
  await stripeJsConfirmPayment(emu, opened.body.client_secret, { card: typed });
  const res = await s.http({
    method: 'POST',
    path: `/pay/api/links/${paid}/intent/report`,
    json: { payment_intent: String(opened.body.client_secret).split('_secret_')[0] },
    headers: { 'idempotency-key': randomUUID() },
  });
  expect(res.body).toMatchObject({ status: 'paid' });
  // And a number sent to Remit anyway is refused before anything is stored or sent.
  const refused = await s.http({
    method: 'POST',
    path: `/pay/api/links/${paid}/pay`,
    json: {
      method: 'card',
      card: {
        number: '4000056655665556',
        exp_month: 12,
        exp_year: TEST_CARD.exp_year,
        cvc: '123',
        name: 'Ada',
        zip: '94105',
      },
    },
    headers: { 'idempotency-key': randomUUID() },
  });
  expect(refused.body.code).toBe('card_entry_by_processor');

  // Both numbers reached Stripe from the "browser" (the publishable key), never from Remit (the secret key).
  const numbers = (auth: 'secret' | 'publishable') =>
    emu.requests
      .filter((r) => r.auth === auth && r.path === '/v1/payment_methods')
      .map((r) => (r.params.card as { number?: string } | undefined)?.number);
  expect(numbers('publishable')).toEqual(expect.arrayContaining([stored, typed]));
  expect(numbers('secret')).toEqual([]);
  const sentByRemit = JSON.stringify(emu.requests.filter((r) => r.auth === 'secret').map((r) => r.params));
  for (const pan of [stored, typed, '4000056655665556']) expect(sentByRemit).not.toContain(pan);

  const dump = await dumpDatabase();
  expect(dump).toContain('payment_methods');
  for (const pan of [stored, typed, '4000056655665556']) {
    expect(dump).not.toContain(pan);
    // Nor split by formatting (spaces or dashes between the groups of four).
    expect(dump).not.toMatch(new RegExp(pan.match(/.{4}/g)!.join('[ -]?')));
  }
  const [method] = await rows<{ number_enc: string; last4: string }>(
    s,
    sql`select number_enc, last4 from payment_methods where customer_id = ${customer}`,
  );
  expect(method!.last4).toBe('4242');
  expect(s.core.ctx.vault.decrypt(method!.number_enc)).toMatch(/^token:cus_\w+\/pm_\w+$/);
});
