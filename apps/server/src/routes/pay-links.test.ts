import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { schema } from '@remit/core';
import { startTestServer, tableCounts, type TestServer } from '../testing/harness.js';
import { newMerchant, type TestMerchant } from '../testing/fixtures.js';
import { stateOf, writePayFixture } from '../testing/pay-dist.js';

let s: TestServer;
let m: TestMerchant;
let other: TestMerchant; // another client
let sibling: TestMerchant; // another merchant of m's client

beforeAll(async () => {
  s = await startTestServer({ payDir: writePayFixture() });
  m = await newMerchant(s);
  other = await newMerchant(s, { business_name: 'Other Shop' });
  sibling = await newMerchant(s, { auth: m.auth, business_name: 'Sibling Shop' });
});
afterAll(() => s.close());

const create = (json: Record<string, unknown>, who: TestMerchant = m) =>
  s.http({
    method: 'POST',
    path: '/api/v1/pay-link',
    auth: who.auth,
    json: { merchant_key: who.merchant_key, ...json },
  });

const del = (linkId: string, who: TestMerchant = m, auth = who.auth) =>
  s.http({ method: 'DELETE', path: `/api/v1/pay-link/${linkId}`, auth, json: { merchant_key: who.merchant_key } });

const linkIdOf = (paymentLink: string) => paymentLink.split('/').pop()!;

async function linkRow(id: string) {
  const [row] = await s.core.ctx.db.select().from(schema.payLinks).where(eq(schema.payLinks.id, id));
  return row;
}
async function txnRow(id: string) {
  const [row] = await s.core.ctx.db.select().from(schema.transactions).where(eq(schema.transactions.id, id));
  return row;
}

describe('POST /pay-link', () => {
  it('creates a link and its pending sale', async () => {
    const res = await create({ amount: '12.50', order_id: 'A-100', invoice_number: 'INV100' });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['data', 'message', 'result']);
    expect(res.body.result).toBe(true);
    expect(typeof res.body.message).toBe('string');
    // The spec's three fields, and link_id beside them (as /requests answers it): the id DELETE takes.
    expect(Object.keys(res.body.data).sort()).toEqual(['link_id', 'order_id', 'payment_link', 'sales_id']);
    const { order_id, link_id, payment_link, sales_id } = res.body.data;
    expect(order_id).toBe('A-100');
    expect(payment_link).toMatch(new RegExp(`^${s.url}/pay/ord_[0-9A-Za-z]{20}$`));
    expect(link_id).toBe(linkIdOf(payment_link));
    expect(sales_id).toMatch(/^txn_[0-9A-Za-z]{20}$/);

    const linkId = link_id;
    expect(await linkRow(linkId)).toMatchObject({
      merchantId: m.merchant_id,
      kind: 'link',
      status: 'open',
      orderId: 'A-100',
      invoiceNumber: 'INV100',
      amountCents: 1250,
      allowCard: true,
      allowAch: true,
      salesId: sales_id,
      deletedAt: null,
    });
    expect(await txnRow(sales_id)).toMatchObject({
      merchantId: m.merchant_id,
      type: 'Sale',
      isStatus: 0,
      status: 'pending',
      paymentMethod: 'card',
      amountCents: 1250,
      feeCents: 0,
      orderCreatedfrom: 'PayLink',
      payLinkId: linkId,
      orderId: 'A-100',
      invoiceNumber: 'INV100',
    });
  });

  it('generates the order id (the link id) when none is given, and accepts a number amount', async () => {
    const res = await create({ amount: 7.5 });
    expect(res.status).toBe(200);
    expect(res.body.data.order_id).toBe(linkIdOf(res.body.data.payment_link));
    expect((await txnRow(res.body.data.sales_id))!.amountCents).toBe(750);
  });

  it('stores the allow flags, also given as text', async () => {
    const res = await create({ amount: '1.00', allow_card: 'false', allow_ach: true });
    expect(res.status).toBe(200);
    expect(await linkRow(linkIdOf(res.body.data.payment_link))).toMatchObject({ allowCard: false, allowAch: true });
  });

  it('accepts a form-encoded body', async () => {
    const res = await s.http({
      method: 'POST',
      path: '/api/v1/pay-link',
      auth: m.auth,
      form: { merchant_key: m.merchant_key, amount: '4.20', allow_ach: 'false', order_id: 'FORM-1' },
    });
    expect(res.status).toBe(200);
    expect(await linkRow(linkIdOf(res.body.data.payment_link))).toMatchObject({
      amountCents: 420,
      allowAch: false,
      orderId: 'FORM-1',
    });
  });

  it('may be created for a merchant not approved yet', async () => {
    const pending = await newMerchant(s, { approve: false, business_name: 'Pending Shop' });
    const res = await create({ amount: '3.00' }, pending);
    expect(res.status).toBe(200);
    const page = await s.http({ method: 'GET', path: new URL(res.body.data.payment_link).pathname });
    expect(page.status).toBe(200);
    expect(stateOf(page.text).view.merchant.accepts_payments).toBe(false);
  });

  it('accepts an order_id of 100 characters', async () => {
    const res = await create({ amount: '1.00', order_id: 'o'.repeat(100) });
    expect(res.status).toBe(200);
    expect(res.body.data.order_id).toBe('o'.repeat(100));
  });

  it.each([
    ['order_id of 101 characters', { amount: '1.00', order_id: 'o'.repeat(101) }, 'order_id'],
    ['invoice_number not alphanumeric', { amount: '1.00', invoice_number: 'INV-1' }, 'invoice_number'],
    ['invoice_number of 101 characters', { amount: '1.00', invoice_number: 'a'.repeat(101) }, 'invoice_number'],
    ['both allow flags false', { amount: '1.00', allow_card: false, allow_ach: false }, 'allow_card'],
    ['amount missing', {}, 'amount'],
    ['negative amount', { amount: '-1.00' }, 'amount'],
    ['zero amount', { amount: '0.00' }, 'amount'],
    ['zero amount as a number', { amount: 0 }, 'amount'],
    ['three decimals', { amount: '1.005' }, 'amount'],
    ['three decimals as a number', { amount: 1.005 }, 'amount'],
    ['huge amount', { amount: '1000000.00' }, 'amount'],
    ['huge amount as a number', { amount: 1e15 }, 'amount'],
    ['amount not a number', { amount: 'ten' }, 'amount'],
    ['amount of another type', { amount: true }, 'amount'],
  ])('400 for %s, and nothing written', async (_name, body, path) => {
    const before = await tableCounts(s.core);
    const res = await create(body);
    expect(res.status).toBe(400);
    expect(res.body.result).toBe(false);
    expect(res.body.code).toBe('invalid_request');
    expect(res.body.message).toContain(path);
    expect(res.body.errors.map((e: { path: string }) => e.path)).toContain(path);
    expect(await tableCounts(s.core)).toEqual(before);
  });

  it('says clearly that one payment method must stay allowed', async () => {
    const res = await create({ amount: '1.00', allow_card: false, allow_ach: false });
    expect(res.body.message).toContain('At least one of allow_card and allow_ach must be true.');
  });

  it('401 for a merchant_key of another client, and nothing written', async () => {
    const before = await tableCounts(s.core);
    const res = await s.http({
      method: 'POST',
      path: '/api/v1/pay-link',
      auth: m.auth,
      json: { merchant_key: other.merchant_key, amount: '5.00' },
    });
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ result: false, code: 'invalid_merchant_key' });
    expect(await tableCounts(s.core)).toEqual(before);
  });
});

describe('DELETE /pay-link/{linkId}', () => {
  it('deletes the link and cancels its pending sale; a second delete says Link not found', async () => {
    const made = await create({ amount: '20.00', order_id: 'DEL-1' });
    const linkId = linkIdOf(made.body.data.payment_link);

    const res = await del(linkId);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: true, link_id: linkId, message: expect.any(String) });
    const row = await linkRow(linkId);
    expect(row!.status).toBe('deleted');
    expect(row!.deletedAt).toBeInstanceOf(Date);
    expect(await txnRow(made.body.data.sales_id)).toMatchObject({ status: 'cancelled', isStatus: 0 });

    const again = await del(linkId);
    expect(again.status).toBe(404);
    expect(again.body).toMatchObject({ result: false, message: 'Link not found', code: 'link_not_found' });

    const page = await s.http({ method: 'GET', path: `/pay/${linkId}` });
    expect(page.status).toBe(410);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(stateOf(page.text)).toMatchObject({ page: 'error', status: 410, code: 'link_cancelled' });
  });

  it('Link not found for an unknown id', async () => {
    const res = await del('ord_doesnotexist000000');
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ result: false, message: 'Link not found', code: 'link_not_found' });
  });

  it("Link not found for another merchant's link, which stays open", async () => {
    const made = await create({ amount: '2.00' }, sibling);
    const linkId = linkIdOf(made.body.data.payment_link);
    const res = await del(linkId, m);
    expect(res.status).toBe(404);
    expect(res.body.message).toBe('Link not found');
    expect((await linkRow(linkId))!.deletedAt).toBeNull();
    expect((await txnRow(made.body.data.sales_id))!.status).toBe('pending');
  });

  it('401 for a merchant_key of another client, and the link stays', async () => {
    const made = await create({ amount: '2.00' });
    const linkId = linkIdOf(made.body.data.payment_link);
    const res = await del(linkId, other, m.auth);
    expect(res.status).toBe(401);
    expect((await linkRow(linkId))!.deletedAt).toBeNull();
  });

  it('two concurrent deletes: one succeeds, one says Link not found', async () => {
    const made = await create({ amount: '2.00' });
    const linkId = linkIdOf(made.body.data.payment_link);
    const results = await Promise.all([del(linkId), del(linkId)]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 404]);
  });

  const YEAR = new Date().getUTCFullYear() + 2;
  const payBy = (linkId: string, body: Record<string, unknown>) =>
    s.http({
      method: 'POST',
      path: `/pay/api/links/${linkId}/pay`,
      json: body,
      headers: { 'idempotency-key': randomUUID() },
    });
  const byCard = {
    method: 'card',
    card: { number: '4242424242424242', exp_month: 12, exp_year: YEAR, cvc: '123', name: 'Ada Lovelace', zip: '94105' },
  };
  const byBank = {
    method: 'ach',
    authorization_accepted: true,
    bank: {
      holder_name: 'Ada Lovelace',
      routing_number: '011000015',
      account_number: '000123456789',
      account_type: 'checking',
    },
  };

  it('409 link_not_deletable for a link paid by card: the receipt page stays and the sale stays completed', async () => {
    const made = await create({ amount: '15.00' });
    const linkId = linkIdOf(made.body.data.payment_link);
    expect((await payBy(linkId, byCard)).status).toBe(200);
    const before = await tableCounts(s.core);

    const res = await del(linkId);
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ result: false, code: 'link_not_deletable' });
    expect(res.body.message).toContain('This link has been paid and cannot be deleted');
    expect(res.body.message).toContain('/order/sales-void');
    expect(await linkRow(linkId)).toMatchObject({ status: 'paid', deletedAt: null });
    expect(await txnRow(made.body.data.sales_id)).toMatchObject({ status: 'completed', isStatus: 2 });
    expect(await tableCounts(s.core)).toEqual(before);
    const page = await s.http({ method: 'GET', path: `/pay/${linkId}` });
    expect(page.status).toBe(200);
  });

  it('409 for a link paid by bank account: the debit stays pending, and the ACH approval completes it', async () => {
    const made = await create({ amount: '16.00' });
    const linkId = linkIdOf(made.body.data.payment_link);
    expect((await payBy(linkId, byBank)).status).toBe(200);

    const res = await del(linkId);
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('link_not_deletable');
    expect(await txnRow(made.body.data.sales_id)).toMatchObject({
      status: 'pending',
      isStatus: 0,
      paymentMethod: 'ach',
    });

    const approved = await s.http({
      method: 'POST',
      path: '/api/v1/update-ach',
      auth: m.auth,
      json: { merchant_key: m.merchant_key, transaction_id: made.body.data.sales_id, new_status: 'approved' },
    });
    expect(approved.status).toBe(200);
    expect(await txnRow(made.body.data.sales_id)).toMatchObject({ status: 'completed', isStatus: 2 });
    expect(await linkRow(linkId)).toMatchObject({ status: 'paid', deletedAt: null });
  });

  it('a delete during a card payment waits for it, then answers 409; the payment stands', async () => {
    const made = await create({ amount: '17.00' });
    const linkId = linkIdOf(made.body.data.payment_link);
    const processor = s.core.ctx.processor;
    const authorize = processor.authorizeCard.bind(processor);
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let entered!: () => void;
    const inNetwork = new Promise<void>((r) => (entered = r));
    processor.authorizeCard = async (...args) => (entered(), await gate, authorize(...args));
    try {
      const paying = payBy(linkId, byCard);
      await inNetwork;
      const deleting = del(linkId);
      await new Promise((r) => setTimeout(r, 100));
      release();
      const [p, d] = await Promise.all([paying, deleting]);
      expect(p.status).toBe(200);
      expect(d.status).toBe(409);
      expect(d.body.code).toBe('link_not_deletable');
    } finally {
      processor.authorizeCard = authorize;
    }
    expect(await txnRow(made.body.data.sales_id)).toMatchObject({ status: 'completed', isStatus: 2 });
    expect(await linkRow(linkId)).toMatchObject({ status: 'paid', deletedAt: null });
  });

  it('a link with an open 3-D Secure challenge can be deleted, and the card it held is forgotten', async () => {
    const made = await create({ amount: '18.00' });
    const linkId = linkIdOf(made.body.data.payment_link);
    await s.core.ctx.db.update(schema.payLinks).set({ require3ds: true }).where(eq(schema.payLinks.id, linkId));
    const started = await payBy(linkId, byCard);
    expect(started.body.status).toBe('challenge');
    expect((await del(linkId)).status).toBe(200);
    const [ch] = await s.core.ctx.db
      .select()
      .from(schema.payChallenges)
      .where(eq(schema.payChallenges.payLinkId, linkId));
    expect(ch).toMatchObject({ status: 'failed', cardEnc: '' });
  });

  it('400 without merchant_key', async () => {
    const res = await s.http({ method: 'DELETE', path: '/api/v1/pay-link/ord_x', auth: m.auth, json: {} });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].path).toBe('merchant_key');
  });
});

describe('GET /pay/{linkId}', () => {
  it('answers the pay page with the link in its state: merchant, amount, order; a strict CSP and no secrets', async () => {
    const made = await create({ amount: '1234.50', order_id: 'ORDER-77', invoice_number: 'INV77' });
    const res = await s.http({ method: 'GET', path: new URL(made.body.data.payment_link).pathname });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    const { page, view } = stateOf(res.text);
    expect(page).toBe('link');
    expect(view).toMatchObject({
      merchant: { name: 'Acme Coffee LLC' },
      order_id: 'ORDER-77',
      invoice_number: 'INV77',
    });
    expect(view.amounts.total.card).toBe(123450);
    expect(res.text).not.toContain(m.merchant_key);
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("default-src 'none'");
    expect(csp).not.toContain('unsafe-inline');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  it('escapes what the client wrote', async () => {
    const made = await create({ amount: '1.00', order_id: '<script>alert("x")</script>' });
    const res = await s.http({ method: 'GET', path: new URL(made.body.data.payment_link).pathname });
    expect(res.text).not.toContain('<script>alert');
    expect(stateOf(res.text).view.order_id).toBe('<script>alert("x")</script>');
  });

  it.each(['ord_doesnotexist000000', 'nonsense', '%3Cb%3E'])('404 page for unknown id %s', async (id) => {
    const res = await s.http({ method: 'GET', path: `/pay/${id}` });
    expect(res.status).toBe(404);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(stateOf(res.text)).toMatchObject({ page: 'error', status: 404, code: 'link_not_found' });
    expect(res.text).not.toContain('<b>');
  });
});

describe('OpenAPI document', () => {
  it('describes the pay link and request endpoints with bodies and 200 responses', async () => {
    const res = await s.http({ method: 'GET', path: '/api/v1/openapi.json', auth: m.auth });
    expect(res.status).toBe(200);
    const paths = res.body.paths;
    for (const [path, method] of [
      ['/api/v1/pay-link', 'post'],
      ['/api/v1/pay-link/{linkId}', 'delete'],
      ['/api/v1/requests', 'post'],
      ['/api/v1/requests/{customerId}', 'post'],
    ] as const) {
      const op = paths[path][method];
      expect(op.tags.length).toBeGreaterThan(0);
      expect(op.requestBody.content['application/json'].schema.properties.merchant_key).toBeDefined();
      expect(op.responses['200']).toBeDefined();
    }
    expect(paths['/api/v1/requests'].post.requestBody.content['application/json'].schema.required.sort()).toEqual([
      'amount',
      'merchant_key',
      'order_id',
    ]);
  });
});
