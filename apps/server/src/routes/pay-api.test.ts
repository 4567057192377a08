import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { payLinkViewSchema, payRequestSchema, payResultSchema, type PayRequest } from '@remit/contract';
import { digest } from '@remit/core';
import { eventually, startReceiver, type Receiver } from '@remit/core/testing';
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
let rx: Receiver;
beforeAll(async () => {
  s = await startTestServer({ now: noonClock(), workers: { messages: { pollMs: 10 }, webhooks: { pollMs: 10 } } });
  rx = await startReceiver();
  m = await newMerchant(s);
  await s.http({
    method: 'POST',
    path: '/api/v1/client/update-webhooks-url',
    auth: m.auth,
    json: { webhook_url: rx.url },
  });
  pending = await newMerchant(s, { auth: m.auth, approve: false, business_name: 'Pending Pies' });
});
afterAll(async () => {
  await s.close();
  await rx.close();
});

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
  const isRequest =
    'order_id' in body ||
    Object.keys(body).some((k) => !['amount', 'allow_card', 'allow_ach', 'invoice_number', 'embed_origin'].includes(k));
  const res = await s.http({
    method: 'POST',
    path: isRequest ? '/api/v1/requests' : '/api/v1/pay-link',
    auth: who.auth,
    json: {
      merchant_key: who.merchant_key,
      amount: '10.00',
      ...(isRequest ? { order_id: `o-${randomUUID()}` } : {}),
      ...body,
    },
  });
  if (res.status !== 200) throw new Error(`link failed: ${res.status} ${res.text}`);
  return isRequest ? res.body.data.link_id : String(res.body.data.payment_link).split('/').pop()!;
}

const view = (id: string) => s.http({ method: 'GET', path: `/pay/api/links/${id}` });
const pay = (id: string, body: PayRequest | Record<string, unknown>, key: string | null = randomUUID()) =>
  s.http({
    method: 'POST',
    path: `/pay/api/links/${id}/pay`,
    json: body,
    headers: key ? { 'idempotency-key': key } : {},
  });
const payCard = (id: string, number?: string) => pay(id, { method: 'card', card: card(number) });
const answer = (id: string, challengeId: string, outcome: string, key = randomUUID()) =>
  s.http({
    method: 'POST',
    path: `/pay/api/links/${id}/challenges/${challengeId}`,
    json: { outcome },
    headers: { 'idempotency-key': key },
  });

async function saleOfLink(id: string) {
  const [r] = await rows(s, sql`select sales_id from pay_links where id = ${id}`);
  return txnRow(s, r!.sales_id);
}

describe('GET /pay/api/links/{link_id}', () => {
  it('answers the link view of the contract: merchant, order, itemized amounts, methods', async () => {
    const id = await link({
      amount: '100.00',
      tax: '8.25',
      surcharge: '3.00',
      discount: '10.00',
      pass_fee: true,
      invoice_number: 'INV9',
      description: 'Catering',
      order_id: 'ORD-9',
    });
    const res = await view(id);
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(payLinkViewSchema.parse(res.body)).toEqual(res.body);
    expect(res.body).toEqual({
      link_id: id,
      kind: 'request',
      status: 'open',
      merchant: {
        name: 'Acme Coffee LLC',
        logo_url: null,
        primary_color: null,
        stylesheet: null,
        accepts_payments: true,
        restricted: false,
      },
      order_id: 'ORD-9',
      invoice_number: 'INV9',
      description: 'Catering',
      // subtotal 101.25; card fee 2.9% + 0.30 = 3.236… → 3.24; ACH 1% = 1.01 (1.0125 rounded)
      amounts: {
        currency: 'USD',
        amount: 10000,
        tax: 825,
        surcharge: 300,
        discount: 1000,
        subtotal: 10125,
        fee: { card: 324, ach: 101 },
        total: { card: 10449, ach: 10226 },
      },
      methods: { card: true, ach: true },
      preauth: false,
      require_3ds: false,
      embed_origin: null,
      frame_ancestors: ['*'], // sandbox, no allowed origins: any page may frame it
      receipt: null,
      // The simulator: Remit's own card fields (Stripe's with REMIT_PROCESSOR=stripe, stripe-intents.test.ts).
      card_entry: { kind: 'remit' },
      sandbox: true,
      pending_verification_url: null,
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
    expect(await txnRow(s, r.transaction_id)).toMatchObject({
      type: 'Sale',
      is_status: 2,
      status: 'completed',
      amount: 2500,
      fee: 103,
      net: 2397,
      payment_method: 'card',
    });
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

/** Every transaction row of a link (its sale and any declined attempts), oldest first. */
const linkTxns = (id: string) =>
  rows(
    s,
    sql`select id, type, is_status, status, amount_cents::int as amount, card_brand, last_four, decline_reason from transactions where pay_link_id = ${id} order by created_at, id`,
  );

describe('each sandbox test card', () => {
  it.each([
    ['4242424242424242', 'Visa'],
    ['5555555555554444', 'Mastercard'],
    ['378282246310005', 'Amex'],
    ['6011111111111117', 'Discover'],
  ])('%s (%s) is approved', async (number, brand) => {
    const id = await link({ amount: '12.34' });
    const res = await pay(id, {
      method: 'card',
      card: card(number.replace(/(\d{4})/g, '$1 ').trim(), number.startsWith('37') ? { cvc: '1234' } : {}),
    });
    expect(res.status).toBe(200);
    expect(res.body.receipt).toMatchObject({ status: 'succeeded', brand, last_four: number.slice(-4), amount: 1234 });
  });

  it.each([
    ['4000000000000002', 'card_declined', 'Your card was declined.'],
    ['4000000000009995', 'insufficient_funds', 'Your card has insufficient funds.'],
    ['4000000000000069', 'expired_card', 'Your card has expired.'],
    ['4000000000000127', 'incorrect_cvc', "Your card's security code is incorrect."],
  ])(
    '%s is declined 402 %s with its reason; the link stays open and another card pays it',
    async (number, code, message) => {
      const id = await link({ amount: '7.00' });
      const res = await payCard(id, number);
      expect(res.status).toBe(402);
      expect(res.body).toEqual({ result: false, message, code, request_id: expect.any(String) });
      const [sale, declined] = await linkTxns(id);
      expect(sale).toMatchObject({ is_status: 0, status: 'pending' });
      // The attempt is on the merchant's record; the customer is told only why.
      expect(declined).toMatchObject({
        is_status: 3,
        status: 'declined',
        amount: 700,
        last_four: number.slice(-4),
        decline_reason: message,
      });
      expect((await view(id)).body.status).toBe('open');
      const retry = await payCard(id);
      expect(retry.status).toBe(200);
      expect(retry.body.receipt.transaction_id).toBe(sale!.id);
    },
  );

  it('refuses a card that is not a sandbox test card (400) and a number failing Luhn, naming the field', async () => {
    const id = await link();
    const other = await payCard(id, '4111111111111111');
    expect(other.status).toBe(400);
    expect(other.body.code).toBe('card_not_accepted');
    expect(other.body.message).toContain('4242424242424242');
    expect(other.body.errors).toEqual([{ path: 'card.number', message: other.body.message }]);
    const luhn = await payCard(id, '4242424242424241');
    expect(luhn.status).toBe(400);
    expect(luhn.body).toMatchObject({ code: 'invalid_card_number', errors: [{ path: 'card.number' }] });
    expect(await linkTxns(id)).toHaveLength(1);
  });
});

describe('3-D Secure', () => {
  it('4000000000003220 answers a challenge and charges nothing; complete charges it', async () => {
    const id = await link({ amount: '30.00' });
    const before = await tableCounts(s.core);
    const res = await payCard(id, '4000000000003220');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      status: 'challenge',
      challenge: { id: expect.stringMatching(/^chl_/), brand: 'Visa', last_four: '3220' },
    });
    expect(await tableCounts(s.core)).toEqual(before);
    expect((await saleOfLink(id)).is_status).toBe(0);
    const done = await answer(id, res.body.challenge.id, 'complete');
    expect(done.status).toBe(200);
    expect(done.body.receipt).toMatchObject({ status: 'succeeded', brand: 'Visa', last_four: '3220', amount: 3000 });
    expect(await saleOfLink(id)).toMatchObject({ is_status: 2, amount: 3000 });
    const again = await answer(id, res.body.challenge.id, 'complete');
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('link_already_paid');
  });

  it('fail answers 402 three_ds_failed; the link stays open; the challenge cannot be answered twice', async () => {
    const id = await link({ amount: '30.00' });
    const ch = (await payCard(id, '4000000000003220')).body.challenge;
    const failed = await answer(id, ch.id, 'fail');
    expect(failed.status).toBe(402);
    expect(failed.body).toMatchObject({
      result: false,
      code: 'three_ds_failed',
      message: '3-D Secure authentication failed. Try again, or use another card.',
    });
    expect((await view(id)).body.status).toBe('open');
    expect(await linkTxns(id)).toHaveLength(1);
    const twice = await answer(id, ch.id, 'complete');
    expect(twice.status).toBe(409);
    expect(twice.body.code).toBe('challenge_answered');
    expect((await payCard(id)).status).toBe(200);
  });

  it('require_3ds challenges every card; the challenge of another link is not found', async () => {
    const id = await link({ amount: '5.00', require_3ds: true });
    expect((await view(id)).body.require_3ds).toBe(true);
    const res = await payCard(id);
    expect(res.body).toMatchObject({ status: 'challenge', challenge: { brand: 'Visa', last_four: '4242' } });
    const other = await link({ amount: '5.00' });
    const foreign = await answer(other, res.body.challenge.id, 'complete');
    expect(foreign.status).toBe(404);
    expect(foreign.body.code).toBe('challenge_not_found');
    expect((await answer(id, 'chl_nope', 'complete')).status).toBe(404);
    const done = await answer(id, res.body.challenge.id, 'complete');
    expect(done.body.receipt).toMatchObject({ status: 'succeeded', last_four: '4242' });
  });

  it('the card waiting for its challenge is stored encrypted, without its CVC', async () => {
    const id = await link();
    await payCard(id, '4000000000003220');
    const [ch] = await rows(s, sql`select card_enc from pay_challenges where pay_link_id = ${id}`);
    expect(ch!.card_enc).not.toContain('4000000000003220');
    expect(ch!.card_enc).not.toContain('3220');
    const kept = JSON.parse(s.core.ctx.vault.decrypt(ch!.card_enc));
    expect(kept).not.toHaveProperty('cvc');
    expect(kept.number).toBe('4000000000003220');
    // A second attempt replaces the open challenge; answering forgets the card.
    const second = (await payCard(id, '4000000000003220')).body.challenge;
    expect((await answer(id, second.id, 'complete')).status).toBe(200);
    const after = await rows(
      s,
      sql`select status, card_enc from pay_challenges where pay_link_id = ${id} order by status`,
    );
    expect(after).toEqual([
      { status: 'completed', card_enc: '' },
      { status: 'failed', card_enc: '' },
    ]);
  });
});

describe('bank account (ACH)', () => {
  const payBank = (id: string, b = bank(), extra: Record<string, unknown> = {}) =>
    pay(id, { method: 'ach', bank: b, authorization_accepted: true, ...extra });

  it('is a pending debit; approval completes it and fires payment.success with link_id', async () => {
    const id = await link({ amount: '250.00' });
    const res = await payBank(id);
    expect(res.status).toBe(200);
    expect(res.body.receipt).toMatchObject({
      status: 'pending',
      method: 'ach',
      brand: 'ACH',
      last_four: '6789',
      auth_code: '',
      amount: 25000,
    });
    const sale = await saleOfLink(id);
    // ACH pricing: 1% of 250.00
    expect(sale).toMatchObject({
      type: 'Sale',
      payment_method: 'ach',
      is_status: 0,
      status: 'pending',
      amount: 25000,
      fee: 250,
      net: 24750,
    });
    expect((await view(id)).body).toMatchObject({ status: 'paid', receipt: { status: 'pending' } });
    const ok = await s.http({
      method: 'POST',
      path: '/api/v1/update-ach',
      auth: m.auth,
      json: { merchant_key: m.merchant_key, transaction_id: sale.id, new_status: 'approved' },
    });
    expect(ok.status).toBe(200);
    expect((await txnRow(s, sale.id)).is_status).toBe(2);
    expect(await eventsOf(s, m.merchant_id, 'payment.success')).toContainEqual(
      expect.objectContaining({ transaction_id: sale.id, link_id: id, brand: 'ACH', amount: 250 }),
    );
  });

  it('an account ending 0000 is returned when the debit is resolved', async () => {
    const id = await link({ amount: '40.00' });
    expect((await payBank(id, bank('000111110000'))).status).toBe(200);
    const sale = await saleOfLink(id);
    await s.http({
      method: 'POST',
      path: '/api/v1/update-ach',
      auth: m.auth,
      json: { merchant_key: m.merchant_key, transaction_id: sale.id, new_status: 'approved' },
    });
    expect(await txnRow(s, sale.id)).toMatchObject({ is_status: 6, status: 'returned' });
  });

  it('checks the routing number (ABA checksum), the account number and the accepted authorization', async () => {
    const id = await link();
    const before = await tableCounts(s.core);
    const routing = await payBank(id, { ...bank(), routing_number: '011000016' });
    expect(routing.status).toBe(400);
    expect(routing.body.errors).toEqual([
      { path: 'bank.routing_number', message: 'is not a valid ABA routing number (checksum failed)' },
    ]);
    const account = await payBank(id, { ...bank(), account_number: '12' });
    expect(account.body.errors).toEqual([{ path: 'bank.account_number', message: 'must be 4 to 17 digits' }]);
    const holder = await payBank(id, { ...bank(), holder_name: ' ' });
    expect(holder.body.errors[0].path).toBe('bank.holder_name');
    const unaccepted = await payBank(id, bank(), { authorization_accepted: false });
    expect(unaccepted.status).toBe(400);
    expect(unaccepted.body.errors[0].path).toBe('authorization_accepted');
    expect(await tableCounts(s.core)).toEqual(before);
  });

  it('only the methods the link allows', async () => {
    const cardOnly = await link({ amount: '5.00', allow_ach: false });
    expect((await view(cardOnly)).body.methods).toEqual({ card: true, ach: false });
    const r1 = await payBank(cardOnly);
    expect(r1.status).toBe(400);
    expect(r1.body.code).toBe('method_not_allowed');
    const achOnly = await link({ amount: '5.00', allow_card: false });
    const r2 = await payCard(achOnly);
    expect(r2.status).toBe(400);
    expect(r2.body.code).toBe('method_not_allowed');
    expect((await payBank(achOnly)).status).toBe(200);
  });
});

describe('a preauth link', () => {
  it('places an authorization (is_status 1) and fires preauth {merchant_id, guid, amount, order_id, customer_id: 0} to the webhook', async () => {
    const id = await link({ amount: '80.00', preauth: true, order_id: 'PRE-1' });
    expect((await view(id)).body).toMatchObject({ preauth: true, methods: { card: true, ach: false } });
    const res = await payCard(id);
    expect(res.status).toBe(200);
    expect(res.body.receipt).toMatchObject({ status: 'authorized', amount: 8000 });
    const guid = res.body.receipt.transaction_id;
    expect(await txnRow(s, guid)).toMatchObject({
      type: 'PreAuth',
      is_status: 1,
      status: 'authorized',
      authorized: 8000,
    });
    await rx.waitFor((all) => all.some((r) => JSON.parse(r.body).event_type === 'preauth'));
    const event = rx.received
      .map((r) => JSON.parse(r.body))
      .find((e) => e.event_type === 'preauth' && e.data.guid === guid);
    expect(event.data).toEqual({ merchant_id: m.merchant_id, guid, amount: 80, order_id: 'PRE-1', customer_id: 0 });
    expect(await eventsOf(s, m.merchant_id, 'payment.success')).not.toContainEqual(
      expect.objectContaining({ transaction_id: guid }),
    );
    // The guid captures it.
    const cap = await s.http({
      method: 'POST',
      path: '/api/v1/preauth/capture',
      auth: m.auth,
      json: { merchant_key: m.merchant_key, transaction_id: guid },
    });
    expect(cap.status).toBe(200);
    expect(await eventsOf(s, m.merchant_id, 'payment.success')).toContainEqual(
      expect.objectContaining({ transaction_id: guid, link_id: id }),
    );
  });

  it('a customer authorization request carries the customer_id as a number', async () => {
    const add = await s.http({
      method: 'POST',
      path: '/api/v1/customers/add',
      auth: m.auth,
      json: { merchant_key: m.merchant_key, first_name: 'Grace', email: 'grace@example.com' },
    });
    const customerId = add.body.data.customer_id;
    const req = await s.http({
      method: 'POST',
      path: `/api/v1/requests/${customerId}`,
      auth: m.auth,
      json: { merchant_key: m.merchant_key, amount: '15.00', order_id: 'PRE-2', preauth: true },
    });
    const id = req.body.data.link_id;
    expect((await view(id)).body.kind).toBe('authorization');
    const res = await payCard(id);
    const [event] = (await eventsOf(s, m.merchant_id, 'preauth')).filter(
      (e) => e.guid === res.body.receipt.transaction_id,
    );
    expect(event).toEqual({
      merchant_id: m.merchant_id,
      guid: res.body.receipt.transaction_id,
      amount: 15,
      order_id: 'PRE-2',
      customer_id: customerId,
    });
    expect(typeof event.customer_id).toBe('number');
  });

  it('isRequestCard: the card the customer paid with is also kept on the customer (encrypted)', async () => {
    const add = await s.http({
      method: 'POST',
      path: '/api/v1/customers/add',
      auth: m.auth,
      json: { merchant_key: m.merchant_key, first_name: 'Kat', phone_number: '4155550111' },
    });
    const customerId = add.body.data.customer_id;
    const req = await s.http({
      method: 'POST',
      path: `/api/v1/requests/${customerId}`,
      auth: m.auth,
      json: { merchant_key: m.merchant_key, amount: '6.00', order_id: 'IRC-1', isRequestCard: true },
    });
    const res = await payCard(req.body.data.link_id, '5555555555554444');
    expect(res.status).toBe(200);
    const methods = await rows(
      s,
      sql`select brand, last4, is_default, number_enc from payment_methods where customer_id = ${customerId}`,
    );
    expect(methods).toHaveLength(1);
    expect(methods[0]).toMatchObject({ brand: 'Mastercard', last4: '4444', is_default: true });
    expect(methods[0]!.number_enc).not.toContain('5555555555554444');
    const again = await s.http({
      method: 'POST',
      path: `/api/v1/customers/charge/${customerId}`,
      auth: m.auth,
      json: { merchant_key: m.merchant_key, amount: '2.00', order_id: 'IRC-2' },
    });
    expect(again.body.data).toMatchObject({ card_brand: 'Mastercard', last_four: '4444', is_status: 2 });
  });

  it('cannot be made without cards: 400 preauth_needs_card, nothing written', async () => {
    const before = await tableCounts(s.core);
    const res = await s.http({
      method: 'POST',
      path: '/api/v1/requests',
      auth: m.auth,
      json: { merchant_key: m.merchant_key, amount: '5.00', order_id: 'PRE-ACH', preauth: true, allow_card: false },
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'preauth_needs_card', errors: [{ path: 'allow_card' }] });
    expect(await tableCounts(s.core)).toEqual(before);
  });

  it('cannot be paid by bank account', async () => {
    const id = await link({ preauth: true });
    const res = await pay(id, { method: 'ach', bank: bank(), authorization_accepted: true });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('method_not_allowed');
  });
});

describe('totals', () => {
  const req = { amount: '100.00', tax: '8.25', surcharge: '3.00', discount: '10.00', pass_fee: true };

  it('card: amount + tax + surcharge − discount + the card fee, charged to the cent', async () => {
    const id = await link(req);
    const res = await payCard(id);
    expect(res.body.receipt.amount).toBe(10449);
    // The merchant pays its own fee on what was charged: 2.9% of 104.49 + 0.30 = 3.33
    expect(await saleOfLink(id)).toMatchObject({ amount: 10449, fee: 333, net: 10116 });
    expect(await eventsOf(s, m.merchant_id, 'payment.success')).toContainEqual(
      expect.objectContaining({ link_id: id, amount: 104.49, fee_amount: 3.33, net_amount: 101.16 }),
    );
  });

  it('ACH: the same subtotal plus the ACH fee (1%), priced with ACH pricing', async () => {
    const id = await link(req);
    const res = await pay(id, { method: 'ach', bank: bank(), authorization_accepted: true });
    expect(res.body.receipt.amount).toBe(10226);
    expect(await saleOfLink(id)).toMatchObject({ amount: 10226, fee: 102, net: 10124 });
  });

  it('without pass_fee the customer pays the subtotal by either method', async () => {
    const id = await link({ ...req, pass_fee: false });
    expect((await view(id)).body.amounts).toMatchObject({
      fee: { card: 0, ach: 0 },
      total: { card: 10125, ach: 10125 },
    });
    expect((await payCard(id)).body.receipt.amount).toBe(10125);
  });
});

describe('one charge per link', () => {
  it('two concurrent POSTs with the same Idempotency-Key: one charge, both get the same receipt', async () => {
    const id = await link({ amount: '9.99' });
    const key = randomUUID();
    const body = { method: 'card' as const, card: card() };
    const [a, b] = await Promise.all([pay(id, body, key), pay(id, body, key)]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(a.body).toEqual(b.body);
    expect([a.headers['idempotent-replayed'], b.headers['idempotent-replayed']].filter(Boolean)).toEqual(['true']);
    const txns = await linkTxns(id);
    expect(txns).toHaveLength(1);
    expect(txns[0]).toMatchObject({ is_status: 2 });
    expect((await eventsOf(s, m.merchant_id, 'payment.success')).filter((e) => e.link_id === id)).toHaveLength(1);
    // A reload's retry with the same key replays too.
    const replay = await pay(id, body, key);
    expect(replay.status).toBe(200);
    expect(replay.body).toEqual(a.body);
  });

  it('two concurrent POSTs with different keys: one charge, the other 409 link_already_paid', async () => {
    const id = await link({ amount: '9.99' });
    const results = await Promise.all([
      payCard(id),
      payCard(id),
      pay(id, { method: 'ach', bank: bank(), authorization_accepted: true }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409]);
    for (const r of results.filter((r) => r.status === 409)) {
      expect(r.body).toMatchObject({
        result: false,
        code: 'link_already_paid',
        message: 'This link has already been paid.',
      });
    }
    const txns = await linkTxns(id);
    expect(txns).toHaveLength(1);
    expect(txns[0]!.is_status === 2 || txns[0]!.status === 'pending').toBe(true);
  });

  it('the same key with another body is 409 idempotency_key_reused; a key is scoped to its link', async () => {
    const id = await link();
    const key = randomUUID();
    const first = await pay(id, { method: 'card', card: card('4000000000000002') }, key);
    expect(first.status).toBe(402);
    const reused = await pay(id, { method: 'card', card: card() }, key);
    expect(reused.status).toBe(409);
    expect(reused.body.code).toBe('idempotency_key_reused');
    const other = await link();
    expect((await pay(other, { method: 'card', card: card() }, key)).status).toBe(200);
  });

  it('the stored request fingerprint is keyed (no plain hash of a card number) and the stored answer encrypted', async () => {
    const id = await link();
    const key = randomUUID();
    const body = { method: 'card' as const, card: card() };
    expect((await pay(id, body, key)).status).toBe(200);
    const [row] = await rows(
      s,
      sql`select request_hash, response_body from idempotency_keys where client_id = ${`pay:${id}`} and key = ${key}`,
    );
    const raw = `POST /pay/api/links/${id}/pay\n${JSON.stringify(payRequestSchema.parse(body))}`;
    expect(row!.request_hash).not.toBe(digest(raw));
    expect(row!.request_hash).toBe(digest(s.core.ctx.vault.mac(raw)));
    expect(row!.response_body).not.toContain('4242');
  });

  it('a pay POST without Idempotency-Key is 400 and writes nothing', async () => {
    const id = await link();
    const before = await tableCounts(s.core);
    const res = await pay(id, { method: 'card', card: card() }, null);
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([
      { path: 'idempotency-key', message: 'is required: 1 to 255 characters, one key per payment attempt' },
    ]);
    expect(await tableCounts(s.core)).toEqual(before);
  });
});

describe('receipt by email', () => {
  it('a payment request with an email gets its receipt through the message outbox (the sandbox inbox)', async () => {
    const id = await link({
      amount: '42.00',
      email: 'grace@example.com',
      name: 'Grace Hopper',
      invoice_number: 'INV42',
    });
    const res = await payCard(id);
    expect(res.body.receipt.emailed_to).toBe('g***@example.com');
    const msg = await eventually(async () => {
      const inbox = await s.http({
        method: 'GET',
        path: '/sandbox/messages?recipient=grace%40example.com&channel=email',
        auth: m.auth,
      });
      return inbox.body.data.messages.find(
        (x: { subject: string; status: string }) =>
          x.subject.startsWith('Receipt') && x.status === 'delivered_to_inbox',
      );
    });
    expect(msg.subject).toBe('Receipt from Acme Coffee LLC: $42.00');
    expect(msg.pay_link_id).toBe(id);
    for (const part of [msg.body_text, msg.body_html]) {
      for (const t of [
        'Grace Hopper',
        '$42.00',
        'Visa ending 4242',
        res.body.receipt.transaction_id,
        res.body.receipt.auth_code,
        'INV42',
      ])
        expect(part).toContain(t);
      expect(part).not.toContain('4242424242424242');
    }
  });

  it('a plain pay link (no email) sends none', async () => {
    const id = await link({ amount: '3.00' });
    await payCard(id);
    const [n] = await rows(s, sql`select count(*)::int as c from messages where pay_link_id = ${id}`);
    expect(n!.c).toBe(0);
  });
});

describe('links that cannot be paid', () => {
  it('unknown: 404 link_not_found; malformed ids too', async () => {
    for (const id of ['ord_doesnotexist000000', 'nonsense', 'ord_%3Cb%3E']) {
      const v = await view(id);
      expect(v.status).toBe(404);
      expect(v.body).toMatchObject({
        result: false,
        code: 'link_not_found',
        message: 'This payment link does not exist. Check the address you were sent.',
      });
      expect((await payCard(id)).status).toBe(404);
    }
  });

  it('deleted by the merchant: 410 link_cancelled, and nothing is charged', async () => {
    const id = await link();
    await s.http({
      method: 'DELETE',
      path: `/api/v1/pay-link/${id}`,
      auth: m.auth,
      json: { merchant_key: m.merchant_key },
    });
    const v = await view(id);
    expect(v.status).toBe(410);
    expect(v.body).toMatchObject({
      code: 'link_cancelled',
      message: 'The merchant cancelled this payment link; it can no longer be paid.',
    });
    const before = await tableCounts(s.core);
    const p = await payCard(id);
    expect(p.status).toBe(410);
    expect(await tableCounts(s.core)).toEqual(before);
  });

  it("a pending merchant's link shows but refuses payment with a clear message", async () => {
    const id = await link({ amount: '5.00' }, pending);
    expect((await view(id)).body.merchant).toEqual({
      name: 'Pending Pies',
      logo_url: null,
      primary_color: null,
      stylesheet: null,
      accepts_payments: false,
      restricted: false,
    });
    const before = await tableCounts(s.core);
    const res = await payCard(id);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      code: 'merchant_not_approved',
      message: 'This merchant cannot take payments yet. Try again later or contact the merchant.',
    });
    expect(await tableCounts(s.core)).toEqual(before);
  });

  it('a paid link refuses a second payment: 409 link_already_paid', async () => {
    const id = await link();
    await payCard(id);
    const res = await payCard(id);
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('link_already_paid');
  });
});

describe('embed_origin', () => {
  it('is recorded from POST /pay-link and POST /requests and shown in the view', async () => {
    const a = await link({ amount: '1.00', embed_origin: 'https://shop.example.com' });
    expect((await view(a)).body.embed_origin).toBe('https://shop.example.com');
    const b = await link({ amount: '1.00', order_id: 'EMB-1', embed_origin: 'http://localhost:5173' });
    expect((await view(b)).body.embed_origin).toBe('http://localhost:5173');
  });

  it.each([
    'https://shop.example.com/',
    'https://shop.example.com/pay',
    'javascript:alert(1)',
    '*',
    'shop.example.com',
    'https://u:p@shop.example.com',
    42,
  ])('refuses %s with 400 and writes nothing', async (embed_origin) => {
    const before = await tableCounts(s.core);
    for (const [path, extra] of [
      ['/api/v1/pay-link', {}],
      ['/api/v1/requests', { order_id: `x-${randomUUID()}` }],
    ] as const) {
      const res = await s.http({
        method: 'POST',
        path,
        auth: m.auth,
        json: { merchant_key: m.merchant_key, amount: '1.00', embed_origin, ...extra },
      });
      expect(res.status).toBe(400);
      expect(res.body.errors[0].path).toBe('embed_origin');
    }
    expect(await tableCounts(s.core)).toEqual(before);
  });
});
