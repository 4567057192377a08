import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, validOnboarding, type TestServer } from '@remit/server/testing';
import { Remit, RemitApiError } from './index.js';

/** HTTP tests of the SDK against the real server. */

let s: TestServer;
let creds: [string, string];
let remit: Remit;
let merchantKey: string;
let merchantId: string;

async function rejection(p: Promise<unknown>): Promise<RemitApiError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof RemitApiError) return e;
    throw e;
  }
  throw new Error('expected a RemitApiError');
}

const card = { number: '4242424242424242', exp_month: 12, exp_year: 2040, cvc: '123', zip: '94105' };

beforeAll(async () => {
  s = await startTestServer();
  const [clientId, secretKey] = (creds = await s.credentials());
  remit = new Remit({ baseUrl: s.url, clientId, secretKey });
});
afterAll(() => s.close());

describe('Remit client: merchants', () => {
  it('onboards, lists, reads with the owner call and approves', async () => {
    const onboarded = await remit.onboarding(validOnboarding({ business_name: 'SDK Shop' }));
    expect(onboarded.result).toBe(true);
    expect(onboarded.data.businessname).toBe('SDK Shop');
    expect(onboarded.data.merchant_key).toMatch(/^mk_test_/);
    merchantKey = onboarded.data.merchant_key;

    const list = await remit.merchants.list();
    const mine = list.data.find((m) => m.public_data.public_key === onboarded.data.public_key);
    expect(mine?.merchant_id).toMatch(/^m_/);
    merchantId = mine!.merchant_id;

    const owner = await remit.merchants.get(merchantId);
    expect(owner.data.merchant_key).toBe(merchantKey);

    const approved = await remit.approveMerchant({ merchant_id: merchantId });
    expect(approved).toEqual({ status: true, message: expect.any(String) });
  });

  it('accepts a baseUrl that already ends in /api/v1', async () => {
    const [id, secret] = await s.credentials();
    const other = new Remit({ baseUrl: `${s.api}/`, clientId: id, secretKey: secret });
    expect((await other.merchants.list()).data).toEqual([]);
  });
});

describe('Remit client: errors', () => {
  it('throws RemitApiError with status, code, message and request_id on bad credentials', async () => {
    const bad = new Remit({ baseUrl: s.url, clientId: 'cl_nobody', secretKey: 'sk_test_nothing' });
    const err = await rejection(bad.merchants.list());
    expect(err).toBeInstanceOf(RemitApiError);
    expect(err.status).toBe(401);
    expect(err.code).toBe('unauthorized');
    expect(err.message).toBe('Invalid client credentials.');
    expect(err.request_id).toMatch(/^req_/);
    expect(err.errors).toEqual([]);
  });

  it('carries the field errors of a 400', async () => {
    const err = await rejection(remit.transactions.list({ merchant_key: merchantKey, limit: 0 }));
    expect(err.status).toBe(400);
    expect(err.code).toBe('invalid_request');
    expect(err.errors).toContainEqual({ path: 'limit', message: 'must be a whole number from 1 to 100 (default 20)' });
  });

  it('throws on a `status: false` envelope too', async () => {
    const err = await rejection(remit.approveMerchant({ merchant_id: 'm_unknown' }));
    expect(err.status).toBe(404);
    expect((err.body as { status: boolean }).status).toBe(false);
  });

  it('refuses to build without credentials', () => {
    expect(() => new Remit({ baseUrl: s.url, clientId: '', secretKey: 'x' })).toThrow(TypeError);
  });
});

describe('Remit client: pay links and requests', () => {
  it('creates and deletes a pay link; a second delete is "Link not found"', async () => {
    const link = await remit.payLinks.create({ merchant_key: merchantKey, amount: '12.50', order_id: 'sdk-1' });
    expect(link.data.order_id).toBeTypeOf('string');
    expect(link.data.payment_link).toMatch(/^http/);
    expect(link.data.sales_id).toMatch(/^txn_/);
    const linkId = link.data.payment_link.split('/').pop()!;
    const del = await remit.payLinks.delete(linkId, { merchant_key: merchantKey });
    expect(del.result).toBe(true);
    expect(del.link_id).toBe(linkId);
    const again = await rejection(remit.payLinks.delete(linkId, { merchant_key: merchantKey }));
    expect(again.message).toBe('Link not found');
  });

  it('sends Idempotency-Key: the same key replays, another body conflicts', async () => {
    const body = { merchant_key: merchantKey, amount: 5, order_id: 'idem-1' };
    const first = await remit.payLinks.create(body, { idempotencyKey: 'sdk-idem-1' });
    const replay = await remit.payLinks.create(body, { idempotencyKey: 'sdk-idem-1' });
    expect(replay.data.sales_id).toBe(first.data.sales_id);
    const conflict = await rejection(remit.payLinks.create({ ...body, amount: 6 }, { idempotencyKey: 'sdk-idem-1' }));
    expect(conflict.status).toBe(409);
  });

  it('creates a payment request', async () => {
    const r = await remit.requests.create({ merchant_key: merchantKey, amount: '20.00', order_id: 'sdk-req-1' });
    expect(r.data.order_id).toBe('sdk-req-1');
    expect(r.data.pay_link.endsWith(r.data.link_id)).toBe(true);
  });
});

describe('Remit client: customers and transactions', () => {
  let customerId: number;
  let transactionId: string;

  it('adds, lists and reads a customer', async () => {
    const added = await remit.customers.add({
      merchant_key: merchantKey,
      first_name: 'Grace',
      email: 'grace@example.test',
      card,
    });
    expect(added.data.customer_id).toBeGreaterThan(0);
    customerId = added.data.customer_id;
    const list = await remit.customers.list({ merchant_key: merchantKey });
    expect(list.data.allList.map((c) => c.customer_id)).toContain(customerId);
    const one = await remit.customers.get(customerId, { merchant_key: merchantKey });
    expect(one.data.first_name).toBe('Grace');
    expect(one.data.payment_methods[0]?.last_four).toBe('4242');
  });

  it('charges the customer, and the transaction is listed and readable', async () => {
    expect(customerId).toBeTruthy();
    const charged = await remit.customers.charge(customerId, {
      merchant_key: merchantKey,
      amount: 10,
      order_id: 'sdk-charge-1',
    });
    expect(charged.transaction_id).toMatch(/^txn_/);
    transactionId = charged.transaction_id;

    const list = await remit.transactions.list({ merchant_key: merchantKey, limit: '5', pageNumber: 0 });
    expect(list.total).toBeGreaterThanOrEqual(1);
    const item = list.data.find((x) => x.transaction_id === transactionId);
    expect(item).toMatchObject({ amount: '10.00', type: 'Sale', is_status: 2, order_id: 'sdk-charge-1' });
    expect(item?.other_details.last_four).toBe('4242');

    const one = await remit.transactions.get(transactionId, { merchant_key: merchantKey });
    expect(one.data).toHaveLength(1);
    expect(one.data[0]).toMatchObject({ transaction_id: transactionId, amount: '10.00' });
    expect(one.data[0]?.other_details.lastFourDigits).toBe('4242');
  });

  it('sends GET parameters in the query string over fetch, with no body, and the server applies them', async () => {
    const [id, secret] = await s.credentials();
    const seen: Array<{ url: string; method?: string; body: unknown }> = [];
    const recording = new Remit({
      baseUrl: s.url,
      clientId: id,
      secretKey: secret,
      fetch: (url, init) => {
        seen.push({ url, method: init.method, body: init.body });
        return fetch(url, init);
      },
    });
    const err = await rejection(
      recording.transactions.list({ merchant_key: merchantKey, limit: 1, pageNumber: 0, from_date: '2000-01-01' }),
    );
    // Another client's merchant_key: the server read it from the query string.
    expect(err.code).toBe('invalid_merchant_key');
    expect(seen[0]).toEqual({
      url: `${s.url}/api/v1/merchant/transactions?merchant_key=${encodeURIComponent(merchantKey)}&limit=1&pageNumber=0&from_date=2000-01-01`,
      method: 'GET',
      body: undefined,
    });
    const page = await remit.transactions.list({ merchant_key: merchantKey, limit: 1 });
    expect(page.data).toHaveLength(1);
    expect(page.total).toBeGreaterThanOrEqual(1);
    const both = await remit.transactions.list({ merchant_key: merchantKey, limit: 100 });
    expect(both.data[0]!.transaction_id).toBe(page.data[0]!.transaction_id);
  });

  it('iterates over every transaction by key, one page after another', async () => {
    for (let i = 0; i < 4; i++)
      await remit.customers.charge(customerId, {
        merchant_key: merchantKey,
        amount: 1 + i,
        order_id: `sdk-iterate-${i}`,
      });
    const all = await remit.transactions.list({ merchant_key: merchantKey, limit: 100 });
    expect(all.total).toBeGreaterThan(4);
    const seen: string[] = [];
    const pages: unknown[] = [];
    const counting = new Remit({
      baseUrl: s.url,
      clientId: creds[0],
      secretKey: creds[1],
      fetch: (url, init) => (pages.push(url), fetch(url, init)),
    });
    for await (const t of counting.transactions.iterate({ merchant_key: merchantKey, limit: 2 }))
      seen.push(t.transaction_id);
    expect(seen).toEqual(all.data.map((t) => t.transaction_id));
    // Pages of 2, and one more that comes back empty.
    expect(pages).toHaveLength(Math.ceil(all.total / 2) + (all.total % 2 === 0 ? 1 : 0));
    expect(String(pages[1])).toContain(`starting_after=${seen[1]}`);
  });

  it('lists transactions with an empty page and reads a missing one as 404', async () => {
    const empty = await remit.transactions.list({
      merchant_key: merchantKey,
      from_date: '2000-01-01',
      to_date: '2000-01-02',
    });
    expect(empty).toEqual({ result: true, message: expect.any(String), data: [], total: 0 });
    const err = await rejection(remit.transactions.get('txn_missing', { merchant_key: merchantKey }));
    expect(err.status).toBe(404);
    expect(err.code).toBe('transaction_not_found');
  });

  it('refunds part of the charge', async () => {
    expect(transactionId).toBeTruthy();
    const r = await remit.refunds.create({ merchant_key: merchantKey, transaction_id: transactionId, amount: '1.00' });
    expect(r.data).toMatchObject({ type: 'Refund', amount: 1, linked_txn_id: transactionId, Status: 'Success' });
  });

  it('voids the charge', async () => {
    expect(customerId).toBeTruthy();
    const charged = await remit.customers.charge(customerId, {
      merchant_key: merchantKey,
      amount: '3.00',
      order_id: 'sdk-void-1',
    });
    const v = await remit.voids.create({ merchant_key: merchantKey, transaction_id: charged.transaction_id });
    expect(v.data).toMatchObject({ type: 'Void', linked_txn_id: charged.transaction_id });
  });

  it('preauthorizes, updates and captures', async () => {
    expect(customerId).toBeTruthy();
    const held = await remit.customers.charge(customerId, {
      merchant_key: merchantKey,
      amount: '50.00',
      order_id: 'sdk-pre-1',
      preAuth: true,
    });
    const up = await remit.preauth.update({
      merchant_key: merchantKey,
      transaction_id: held.transaction_id,
      last_authorized_amount: '50.00',
      new_authorized_amount: '60.00',
      order_id: 'sdk-pre-1',
    });
    expect(up.data).toMatchObject({ Status: 'Approved', Authorized: '60.00', transaction_id: held.transaction_id });
    const cap = await remit.preauth.capture({ merchant_key: merchantKey, transaction_id: held.transaction_id });
    expect(cap.data.transaction_id).toBe(held.transaction_id);
  });

  it('voids a preauthorization', async () => {
    expect(customerId).toBeTruthy();
    const held = await remit.customers.charge(customerId, {
      merchant_key: merchantKey,
      amount: 7,
      order_id: 'sdk-pre-2',
      preAuth: true,
    });
    const v = await remit.preauth.void({ merchant_key: merchantKey, transaction_id: held.transaction_id });
    expect(v.data.linked_txn_id).toBe(held.transaction_id);
  });
});

describe('Remit client: ACH, deposits, webhooks, sandbox', () => {
  it('approves an ACH transaction', async () => {
    const bank = { routing_number: '011000015', account_number: '000123456789', account_type: 'checking' as const };
    const added = await remit.customers.add({ merchant_key: merchantKey, first_name: 'Ach', bank_account: bank });
    const charged = await remit.customers.charge(added.data.customer_id, {
      merchant_key: merchantKey,
      amount: 25,
      order_id: 'sdk-ach-1',
    });
    const r = await remit.updateAch({
      merchant_key: merchantKey,
      transaction_id: charged.transaction_id,
      new_status: 'approved',
    });
    expect(r.result).toBe(true);
  });

  it('submits a remote deposit with two images (multipart)', async () => {
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]);
    const r = await remit.remoteDepositCapture({
      merchant_key: merchantKey,
      amount: 42.5,
      device: 'iOS',
      front_file: { data: png, filename: 'front.png', contentType: 'image/png' },
      back_file: { data: png, filename: 'back.png', contentType: 'image/png' },
    });
    expect(r.data.amount).toBe('42.50');
    expect(r.data.transactionId).toMatch(/^txn_/);
  });

  it('registers a webhook URL and reads the delivery log', async () => {
    const r = await remit.updateWebhooksUrl({ webhook_url: 'http://127.0.0.1:9/hook' });
    expect(r.status).toBe(true);
    expect(r.signing_secret).toMatch(/^whsec_/);
    const log = await remit.webhooks.deliveries({ limit: 5 });
    expect(log.status).toBe(true);
    expect(Array.isArray(log.data.deliveries)).toBe(true);
  });

  it('advances the sandbox clock and settles', async () => {
    const a = await remit.sandbox.advanceClock({ merchant_key: merchantKey, hours: 25 });
    expect(a.data).toMatchObject({ merchant_id: merchantId, offset_hours: 25 });
    const st = await remit.sandbox.settle({ merchant_key: merchantKey });
    expect(st.data.merchant_id).toBe(merchantId);
    expect(st.data.settled_count).toBe(st.data.transaction_ids.length);
  });

  it('reads the sandbox inbox', async () => {
    await remit.requests.create({
      merchant_key: merchantKey,
      amount: '3.00',
      order_id: 'sdk-sms-1',
      phone_number: '4155550142',
    });
    const inbox = await remit.sandbox.messages({ merchant_key: merchantKey, channel: 'sms' });
    expect(inbox.data.messages.map((m) => m.recipient)).toContain('+14155550142');
  });
});
