import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { TestServer } from './harness.js';
import type { TestMerchant } from './fixtures.js';
import { rows } from './payments.js';
import { stripeJsConfirmSetup, type StripeEmulator, type StripeJsPayWith } from './stripe-emulator.js';

/**
 * A customer with a card stored as an operator's customer would get one with Stripe: a card
 * request, the add-card page's SetupIntent confirmed as Stripe.js does it, and the page's report.
 * Answers the customer id.
 */
export async function stripeCardCustomer(
  s: TestServer,
  m: TestMerchant,
  emu: StripeEmulator,
  number = '4242424242424242',
): Promise<number> {
  return stripeCustomer(s, m, emu, { card: number });
}

/** The same with a bank account, verified at once (Financial Connections) in Stripe's fields. */
export const stripeBankCustomer = (s: TestServer, m: TestMerchant, emu: StripeEmulator): Promise<number> =>
  stripeCustomer(s, m, emu, { bank: 'instant' });

async function stripeCustomer(
  s: TestServer,
  m: TestMerchant,
  emu: StripeEmulator,
  pay: StripeJsPayWith,
): Promise<number> {
  const added = await s.http({
    method: 'POST',
    path: '/api/v1/customers/add',
    auth: m.auth,
    json: { merchant_key: m.merchant_key, first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' },
  });
  if (added.status !== 200) throw new Error(`customers/add failed: ${added.status} ${added.text}`);
  const customer: number = added.body.data.customer_id;
  const asked = await s.http({
    method: 'POST',
    path: `/api/v1/customers/request-card/${customer}`,
    auth: m.auth,
    json: { merchant_key: m.merchant_key },
  });
  if (asked.status !== 200) throw new Error(`request-card failed: ${asked.status} ${asked.text}`);
  const [link] = await rows<{ id: string }>(
    s,
    sql`select id from pay_links where kind = 'card_request' and customer_id = ${customer} order by created_at desc limit 1`,
  );
  const token = link!.id;
  const opened = await s.http({
    method: 'POST',
    path: `/pay/api/cards/${token}/intent`,
    json: {},
    headers: { 'idempotency-key': randomUUID() },
  });
  if (opened.status !== 200) throw new Error(`card intent failed: ${opened.status} ${opened.text}`);
  const confirmed = await stripeJsConfirmSetup(emu, opened.body.client_secret, pay);
  if (confirmed.error) throw new Error(`confirmSetup failed: ${confirmed.error.message}`);
  const setup = String(opened.body.client_secret).split('_secret_')[0];
  const saved = await s.http({
    method: 'POST',
    path: `/pay/api/cards/${token}/intent/report`,
    json: { setup_intent: setup },
    headers: { 'idempotency-key': randomUUID() },
  });
  if (saved.status !== 200) throw new Error(`card report failed: ${saved.status} ${saved.text}`);
  return customer;
}
