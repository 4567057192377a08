import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { payLinkViewSchema, payResultSchema, type PayRequest } from '@remit/contract';
import { eventually } from '../../../../packages/core/src/events/test-support.js';
import { newMerchant, type TestMerchant } from '../testing/fixtures.js';
import { startTestServer, tableCounts, type TestServer } from '../testing/harness.js';
import { eventsOf, noonClock, rows, txnRow } from '../testing/payments.js';

/**
 * The pay page's public calls, over HTTP against the real server: what a customer paying a link
 * gets back, what is stored and which events fire.
 */

let s: TestServer;
let m: TestMerchant;
let pending: TestMerchant;
beforeAll(async () => {
  s = await startTestServer({ now: noonClock(), workers: { messages: { pollMs: 10 } } });
  m = await newMerchant(s);
  pending = await newMerchant(s, { auth: m.auth, approve: false, business_name: 'Pending Pies' });
});
afterAll(() => s.close());

const YEAR = new Date().getUTCFullYear() + 2;
const card = (number = '4242424242424242', extra: Record<string, unknown> = {}) => ({
  number,
  exp_month: 12,
  exp_year: YEAR,
  cvc: '123',
  name: 'Ada Lovelace',
  zip: '94105',
  ...extra,
});
const bank = (account_number = '000123456789') => ({
  holder_name: 'Ada Lovelace',
  routing_number: '011000015',
  account_number,
  account_type: 'checking' as const,
});

/** A pay link (`POST /pay-link`) or payment request (`POST /requests`); returns its link id. */
async function link(body: Record<string, unknown> = {}, who: TestMerchant = m): Promise<string> {
  const isRequest = 'order_id' in body || Object.keys(body).some((k) => !['amount', 'allow_card', 'allow_ach', 'invoice_number', 'embed_origin'].includes(k));
  const res = await s.http({
    method: 'POST',
    path: isRequest ? '/api/v1/requests' : '/api/v1/pay-link',
    auth: who.auth,
    json: { merchant_key: who.merchant_key, amount: '10.00', ...(isRequest ? { order_id: `o-${randomUUID()}` } : {}), ...body },
  });
  if (res.status !== 200) throw new Error(`link failed: ${res.status} ${res.text}`);
  return isRequest ? res.body.data.link_id : String(res.body.data.payment_link).split('/').pop()!;
}

const view = (id: string) => s.http({ method: 'GET', path: `/pay/api/links/${id}` });
const pay = (id: string, body: PayRequest | Record<string, unknown>, key: string | null = randomUUID()) =>
  s.http({ method: 'POST', path: `/pay/api/links/${id}/pay`, json: body, headers: key ? { 'idempotency-key': key } : {} });
const payCard = (id: string, number?: string) => pay(id, { method: 'card', card: card(number) });
const answer = (id: string, challengeId: string, outcome: string, key = randomUUID()) =>
  s.http({ method: 'POST', path: `/pay/api/links/${id}/challenges/${challengeId}`, json: { outcome }, headers: { 'idempotency-key': key } });

async function saleOfLink(id: string) {
  const [r] = await rows(s, sql`select sales_id from pay_links where id = ${id}`);
  return txnRow(s, r!.sales_id);
}

describe('GET /pay/api/links/{link_id}', () => {
  it('answers the link view of the contract: merchant, order, itemized amounts, methods', async () => {
    const id = await link({ amount: '100.00', tax: '8.25', surcharge: '3.00', discount: '10.00', pass_fee: true, invoice_number: 'INV9', description: 'Catering', order_id: 'ORD-9' });
    const res = await view(id);
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(payLinkViewSchema.parse(res.body)).toEqual(res.body);
    expect(res.body).toEqual({
      link_id: id,
      kind: 'request',
      status: 'open',
      merchant: { name: 'Acme Coffee LLC', logo_url: null, primary_color: null, accepts_payments: true },
      order_id: 'ORD-9',
      invoice_number: 'INV9',
      description: 'Catering',
      // subtotal 101.25; card fee 2.9% + 0.30 = 3.236… → 3.24; ACH 1% = 1.01 (1.0125 rounded)
      amounts: { currency: 'USD', amount: 10000, tax: 825, surcharge: 300, discount: 1000, subtotal: 10125, fee: { card: 324, ach: 101 }, total: { card: 10449, ach: 10226 } },
      methods: { card: true, ach: true },
      preauth: false,
      require_3ds: false,
      embed_origin: null,
      receipt: null,
    });
  });
});

describe('POST /pay/api/links/{link_id}/pay by card', () => {
  it('approves 4242…: the sale completes, payment.success carries link_id, the view shows the receipt', async () => {
    const id = await link({ amount: '25.00' });
    const res = await payCard(id);
    expect(res.status).toBe(200);
    expect(payResultSchema.parse(res.body)).toEqual(res.body);
    const r = res.body.receipt;
    expect(res.body).toEqual({
      status: 'paid',
      receipt: {
        transaction_id: expect.stringMatching(/^txn_/),
        status: 'succeeded',
        method: 'card',
        currency: 'USD',
        amount: 2500,
        brand: 'Visa',
        last_four: '4242',
        auth_code: expect.stringMatching(/^\d{6}$/),
        date: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        order_id: id,
        invoice_number: null,
        merchant_name: 'Acme Coffee LLC',
        emailed_to: null,
      },
    });
    expect(await txnRow(s, r.transaction_id)).toMatchObject({ type: 'Sale', is_status: 2, status: 'completed', amount: 2500, fee: 103, net: 2397, payment_method: 'card' });
    expect(await eventsOf(s, m.merchant_id, 'payment.success')).toContainEqual({
      transaction_id: r.transaction_id,
      merchant_id: m.merchant_id,
      amount: 25,
      net_amount: 23.97,
      fee_amount: 1.03,
      order_id: id,
      last_four: '4242',
      brand: 'Visa',
      link_id: id,
    });
    const after = await view(id);
    expect(after.body).toMatchObject({ status: 'paid', receipt: r });
  });
});
