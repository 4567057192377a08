import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
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

let seq = 0;
const orderId = () => `REQ-${Date.now()}-${++seq}`;

const request = (json: Record<string, unknown>, who: TestMerchant = m) =>
  s.http({
    method: 'POST',
    path: '/api/v1/requests',
    auth: who.auth,
    json: { merchant_key: who.merchant_key, order_id: orderId(), ...json },
  });

const linkRow = async (id: string) =>
  (await s.core.ctx.db.select().from(schema.payLinks).where(eq(schema.payLinks.id, id)))[0];
const txnForLink = async (linkId: string) =>
  s.core.ctx.db.select().from(schema.transactions).where(eq(schema.transactions.payLinkId, linkId));
const messagesForLink = async (linkId: string) =>
  s.core.ctx.db.select().from(schema.messages).where(eq(schema.messages.payLinkId, linkId));

describe('POST /requests', () => {
  it('creates the request, its pending sale, and queues the SMS and the email', async () => {
    const res = await request({
      order_id: 'ORD-1',
      amount: '100.00',
      tax: '8.25',
      surcharge: '3.00',
      discount: '10.00',
      phone_number: '(415) 555-0199',
      email: 'ada@example.com',
      name: 'Ada',
      description: 'Catering for 12',
      invoice_number: 'INV2024',
      require_3ds: true,
      allow_ach: false,
      sub_merchant_key: 'mk_test_sub',
    });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['data', 'message', 'result']);
    expect(res.body.result).toBe(true);
    expect(res.body.message).toBe('Payment request created and sent by SMS and email.');
    expect(Object.keys(res.body.data).sort()).toEqual(['link_id', 'order_id', 'pay_link']);
    const { order_id, link_id, pay_link } = res.body.data;
    expect(order_id).toBe('ORD-1');
    expect(link_id).toMatch(/^ord_[0-9A-Za-z]{20}$/);
    expect(pay_link).toBe(`${s.url}/pay/${link_id}`);
    expect(pay_link.endsWith(link_id)).toBe(true);

    const link = await linkRow(link_id);
    expect(link).toMatchObject({
      merchantId: m.merchant_id,
      kind: 'request',
      status: 'open',
      orderId: 'ORD-1',
      invoiceNumber: 'INV2024',
      amountCents: 10000,
      taxCents: 825,
      surchargeCents: 300,
      discountCents: 1000,
      allowCard: true,
      allowAch: false,
      preauth: false,
      passFee: false,
      require3ds: true,
      description: 'Catering for 12',
      customerName: 'Ada',
      email: 'ada@example.com',
      phoneNumber: '+14155550199',
    });
    // The sub-merchant key is a secret: never stored as given.
    expect(link!.subMerchantKey).not.toContain('mk_test_sub');

    const txns = await txnForLink(link_id);
    expect(txns).toHaveLength(1);
    expect(txns[0]).toMatchObject({
      id: link!.salesId,
      type: 'Sale',
      isStatus: 0,
      status: 'pending',
      paymentMethod: 'card',
      amountCents: 10125, // 100.00 + 8.25 + 3.00 - 10.00
      feeCents: 0,
      orderCreatedfrom: 'Request',
      orderId: 'ORD-1',
    });

    const msgs = await messagesForLink(link_id);
    const sms = msgs.find((x) => x.channel === 'sms')!;
    const email = msgs.find((x) => x.channel === 'email')!;
    expect(msgs).toHaveLength(2);
    expect(sms).toMatchObject({ recipient: '+14155550199', status: 'pending', merchantId: m.merchant_id });
    expect(sms.bodyText).toContain(pay_link);
    expect(sms.bodyText).toContain('$101.25');
    expect(sms.bodyText).toContain('Acme Coffee LLC');
    expect(email).toMatchObject({ recipient: 'ada@example.com', status: 'pending' });
    expect(email.subject).toBe('Payment request from Acme Coffee LLC: $101.25');
    for (const part of [email.bodyText, email.bodyHtml!]) {
      expect(part).toContain(pay_link);
      expect(part).toContain('Ada');
      expect(part).toContain('Catering for 12');
      expect(part).toContain('$101.25');
    }
    expect(email.bodyHtml).toContain('<html');
  });

  it('the pay page itemizes tax, surcharge and discount', async () => {
    const res = await request({
      amount: '100.00',
      tax: '8.25',
      surcharge: '3.00',
      discount: '10.00',
      description: 'Catering',
    });
    const page = await s.http({ method: 'GET', path: `/pay/${res.body.data.link_id}` });
    expect(page.status).toBe(200);
    const { view } = stateOf(page.text);
    expect(view).toMatchObject({
      merchant: { name: 'Acme Coffee LLC' },
      description: 'Catering',
      order_id: res.body.data.order_id,
    });
    expect(view.amounts).toMatchObject({
      amount: 10000,
      tax: 825,
      surcharge: 300,
      discount: 1000,
      subtotal: 10125,
      total: { card: 10125, ach: 10125 },
    });
    expect(page.text).not.toContain('ada@example.com');
  });

  it('pass_fee adds the card fee (2.9% + 0.30) to what the customer pays', async () => {
    const res = await request({ amount: '10.00', pass_fee: true, email: 'b@example.com' });
    expect(res.status).toBe(200);
    const [txn] = await txnForLink(res.body.data.link_id);
    expect(txn!.amountCents).toBe(1059);
    const [msg] = await messagesForLink(res.body.data.link_id);
    expect(msg!.subject).toContain('$10.59');
  });

  it('preauth opens a pending PreAuth and the messages ask for an authorization', async () => {
    const res = await request({ amount: '50.00', preauth: true, phone_number: '+14155550123' });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Payment request created and sent by SMS.');
    const [txn] = await txnForLink(res.body.data.link_id);
    expect(txn).toMatchObject({
      type: 'PreAuth',
      isStatus: 0,
      status: 'pending',
      amountCents: 5000,
      orderCreatedfrom: 'Request',
    });
    expect((await linkRow(res.body.data.link_id))!.preauth).toBe(true);
    const [sms] = await messagesForLink(res.body.data.link_id);
    expect(sms!.bodyText).toContain('authorization of $50.00');
  });

  it('sends nothing without phone_number or email; blank ones mean absent', async () => {
    const res = await request({ amount: '5.00', phone_number: '', email: '', name: '', invoice_number: '' });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Payment request created successfully.');
    expect(await messagesForLink(res.body.data.link_id)).toHaveLength(0);
  });

  it('accepts zero tax, surcharge and discount, and numbers for amounts', async () => {
    const res = await request({ amount: 12.5, tax: 0, surcharge: '0', discount: '0.00' });
    expect(res.status).toBe(200);
    const [txn] = await txnForLink(res.body.data.link_id);
    expect(txn!.amountCents).toBe(1250);
  });

  it('accepts an order_id of 100 characters and an invoice_number of 100 letters and digits', async () => {
    const res = await request({ amount: '1.00', order_id: 'x'.repeat(100), invoice_number: 'A1'.repeat(50) });
    expect(res.status).toBe(200);
    expect(res.body.data.order_id).toBe('x'.repeat(100));
  });

  it.each([
    ['order_id missing', { order_id: undefined, amount: '1.00' }, 'order_id'],
    ['order_id empty', { order_id: '', amount: '1.00' }, 'order_id'],
    ['order_id of 101 characters', { order_id: 'x'.repeat(101), amount: '1.00' }, 'order_id'],
    ['invoice_number with a dash', { amount: '1.00', invoice_number: 'INV-1' }, 'invoice_number'],
    ['invoice_number with a space', { amount: '1.00', invoice_number: 'INV 1' }, 'invoice_number'],
    ['invoice_number of 101 characters', { amount: '1.00', invoice_number: '1'.repeat(101) }, 'invoice_number'],
    ['both allow flags false', { amount: '1.00', allow_card: false, allow_ach: false }, 'allow_card'],
    ['amount missing', {}, 'amount'],
    ['negative amount', { amount: '-5.00' }, 'amount'],
    ['zero amount', { amount: '0' }, 'amount'],
    ['three decimals', { amount: '5.001' }, 'amount'],
    ['huge amount', { amount: '99999999999.00' }, 'amount'],
    ['negative tax', { amount: '5.00', tax: '-1.00' }, 'tax'],
    ['tax with three decimals', { amount: '5.00', tax: '0.001' }, 'tax'],
    ['negative discount', { amount: '5.00', discount: -1 }, 'discount'],
    ['surcharge not an amount', { amount: '5.00', surcharge: 'abc' }, 'surcharge'],
    ['a bad phone number', { amount: '5.00', phone_number: '12345' }, 'phone_number'],
    ['a bad email', { amount: '5.00', email: 'not-an-email' }, 'email'],
    ['preauth not a boolean', { amount: '5.00', preauth: 'maybe' }, 'preauth'],
    ['description too long', { amount: '5.00', description: 'd'.repeat(501) }, 'description'],
    ['name too long', { amount: '5.00', name: 'n'.repeat(101) }, 'name'],
  ])('400 for %s, and nothing written', async (_name, body, path) => {
    const before = await tableCounts(s.core);
    const res = await request(body);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ result: false, code: 'invalid_request' });
    expect(res.body.errors.map((e: { path: string }) => e.path)).toContain(path);
    expect(res.body.message).toContain(path);
    expect(await tableCounts(s.core)).toEqual(before);
  });

  it('400 when the discount leaves nothing to pay', async () => {
    const before = await tableCounts(s.core);
    for (const discount of ['10.00', '15.00']) {
      const res = await request({ amount: '10.00', discount });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ result: false, code: 'amount_not_positive' });
      expect(res.body.message).toContain('must be more than 0');
    }
    expect(await tableCounts(s.core)).toEqual(before);
  });

  it('400 when tax and surcharge push the total above the merchant limit', async () => {
    const res = await request({ amount: '999999.99', tax: '1.00' });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('amount_over_limit');
  });

  it('409 order_id_exists for an order_id the merchant already used; others may use it', async () => {
    const id = orderId();
    expect((await request({ order_id: id, amount: '1.00' })).status).toBe(200);
    const before = await tableCounts(s.core);
    const dup = await request({ order_id: id, amount: '2.00', email: 'c@example.com' });
    expect(dup.status).toBe(409);
    expect(dup.body).toMatchObject({ result: false, code: 'order_id_exists' });
    expect(dup.body.message).toContain(id);
    expect(await tableCounts(s.core)).toEqual(before);
    // Another merchant of the same client, and a plain pay link of the same merchant, are free to use it.
    expect((await request({ order_id: id, amount: '1.00' }, sibling)).status).toBe(200);
    const link = await s.http({
      method: 'POST',
      path: '/api/v1/pay-link',
      auth: m.auth,
      json: { merchant_key: m.merchant_key, amount: '1.00', order_id: id },
    });
    expect(link.status).toBe(200);
  });

  it('concurrent requests with one order_id: exactly one wins', async () => {
    const id = orderId();
    const results = await Promise.all(
      Array.from({ length: 8 }, () => request({ order_id: id, amount: '3.00', phone_number: '4155550100' })),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 409, 409, 409, 409, 409, 409, 409]);
    for (const r of results.filter((r) => r.status === 409)) expect(r.body.code).toBe('order_id_exists');
    const links = await s.core.ctx.db
      .select()
      .from(schema.payLinks)
      .where(and(eq(schema.payLinks.merchantId, m.merchant_id), eq(schema.payLinks.orderId, id)));
    expect(links).toHaveLength(1);
    expect(await txnForLink(links[0]!.id)).toHaveLength(1);
    expect(await messagesForLink(links[0]!.id)).toHaveLength(1);
    const orphans = await s.core.ctx.db
      .select()
      .from(schema.transactions)
      .where(and(eq(schema.transactions.merchantId, m.merchant_id), eq(schema.transactions.orderId, id)));
    expect(orphans).toHaveLength(1);
  });

  it('401 for a merchant_key of another client, and nothing written', async () => {
    const before = await tableCounts(s.core);
    const res = await s.http({
      method: 'POST',
      path: '/api/v1/requests',
      auth: m.auth,
      json: { merchant_key: other.merchant_key, order_id: orderId(), amount: '5.00', email: 'x@example.com' },
    });
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ result: false, code: 'invalid_merchant_key' });
    expect(await tableCounts(s.core)).toEqual(before);
  });

  it('the link can be deleted with DELETE /pay-link', async () => {
    const res = await request({ amount: '5.00' });
    const del = await s.http({
      method: 'DELETE',
      path: `/api/v1/pay-link/${res.body.data.link_id}`,
      auth: m.auth,
      json: { merchant_key: m.merchant_key },
    });
    expect(del.status).toBe(200);
    expect((await s.http({ method: 'GET', path: `/pay/${res.body.data.link_id}` })).status).toBe(410);
  });
});

describe('POST /requests/{customerId} (authorization request)', () => {
  const addCustomer = async (json: Record<string, unknown>, who: TestMerchant = m) => {
    const res = await s.http({
      method: 'POST',
      path: '/api/v1/customers/add',
      auth: who.auth,
      json: { merchant_key: who.merchant_key, ...json },
    });
    if (res.status !== 200) throw new Error(`customers/add failed: ${res.status} ${res.text}`);
    return res.body.data.customer_id as number;
  };

  const authRequest = (
    customerId: number | string,
    json: Record<string, unknown>,
    who: TestMerchant = m,
    headers = {},
  ) =>
    s.http({
      method: 'POST',
      path: `/api/v1/requests/${customerId}`,
      auth: who.auth,
      headers,
      json: { merchant_key: who.merchant_key, order_id: orderId(), amount: '25.00', ...json },
    });

  let both: number; // email and phone
  let emailOnly: number;
  let theirs: number; // a customer of the sibling merchant
  beforeAll(async () => {
    both = await addCustomer({
      first_name: 'Grace',
      last_name: 'Hopper',
      email: 'grace@example.com',
      phone_number: '415-555-0142',
    });
    emailOnly = await addCustomer({ first_name: 'Alan', email: 'alan@example.com' });
    theirs = await addCustomer({ first_name: 'Other', email: 'other@example.com' }, sibling);
  });

  it('sends the customer a pay link by SMS and email and opens a pending sale', async () => {
    const res = await authRequest(both, { order_id: 'AUTH-1', isRequestCard: true, invoice_number: 'INV9' }, m, {
      api_key: 'anything',
    });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['data', 'message', 'result']);
    expect(res.body.result).toBe(true);
    expect(res.body.message).toBe('Authorization request created and sent by SMS and email.');
    expect(Object.keys(res.body.data).sort()).toEqual(['link_id', 'order_id', 'pay_link', 'sales_id']);
    const { order_id, link_id, pay_link, sales_id } = res.body.data;
    expect(order_id).toBe('AUTH-1');
    expect(link_id).toMatch(/^ord_[0-9A-Za-z]{20}$/);
    expect(pay_link).toBe(`${s.url}/pay/${link_id}`);
    expect(sales_id).toMatch(/^txn_[0-9A-Za-z]{20}$/);

    expect(await linkRow(link_id)).toMatchObject({
      kind: 'customer_request',
      customerId: both,
      isRequestCard: true,
      invoiceNumber: 'INV9',
      amountCents: 2500,
      salesId: sales_id,
      customerName: 'Grace Hopper',
    });
    const [txn] = await txnForLink(link_id);
    expect(txn).toMatchObject({
      id: sales_id,
      type: 'Sale',
      isStatus: 0,
      status: 'pending',
      amountCents: 2500,
      feeCents: 0,
      customerId: both,
      orderCreatedfrom: 'CustomerRequest',
    });
    const msgs = await messagesForLink(link_id);
    expect(msgs.map((x) => [x.channel, x.recipient]).sort()).toEqual([
      ['email', 'grace@example.com'],
      ['sms', '+14155550142'],
    ]);
    for (const x of msgs) {
      expect(x.bodyText).toContain(pay_link);
      expect(x.bodyText).toContain('Grace');
      expect(x.bodyText).toContain('$25.00');
    }
    expect(msgs.find((x) => x.channel === 'email')!.bodyHtml).toContain(pay_link);
  });

  it('sends only what the customer has; preauth opens a PreAuth', async () => {
    const res = await authRequest(emailOnly, { preauth: true, allow_card: true, allow_ach: false });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Authorization request created and sent by email.');
    const msgs = await messagesForLink(res.body.data.link_id);
    expect(msgs.map((x) => x.channel)).toEqual(['email']);
    const [txn] = await txnForLink(res.body.data.link_id);
    expect(txn!.type).toBe('PreAuth');
  });

  it('404 customer_not_found for a customer of another merchant or an unknown one, and nothing written', async () => {
    const before = await tableCounts(s.core);
    for (const id of [theirs, 2_000_000_000]) {
      const res = await authRequest(id, {});
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ result: false, code: 'customer_not_found' });
    }
    expect(await tableCounts(s.core)).toEqual(before);
  });

  it('400 customer_has_no_contact for a customer without email or phone, and nothing written', async () => {
    const silent = await addCustomer({ first_name: 'Quiet' });
    const before = await tableCounts(s.core);
    const res = await authRequest(silent, {});
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ result: false, code: 'customer_has_no_contact' });
    expect(await tableCounts(s.core)).toEqual(before);
  });

  it.each(['abc', '0', '-1', '1.5', '99999999999'])('400 for customerId %s', async (id) => {
    const res = await authRequest(id, {});
    expect(res.status).toBe(400);
    expect(res.body.errors[0].path).toBe('customerId');
  });

  it.each([
    ['both allow flags false', { allow_card: false, allow_ach: false }, 'allow_card'],
    ['order_id of 101 characters', { order_id: 'x'.repeat(101) }, 'order_id'],
    ['order_id missing', { order_id: undefined }, 'order_id'],
    ['amount missing', { amount: undefined }, 'amount'],
    ['three decimals', { amount: '1.999' }, 'amount'],
    ['invoice_number not alphanumeric', { invoice_number: 'a/b' }, 'invoice_number'],
    ['isRequestCard not a boolean', { isRequestCard: 'yes please' }, 'isRequestCard'],
  ])('400 for %s, and nothing written', async (_name, body, path) => {
    const before = await tableCounts(s.core);
    const res = await authRequest(both, body);
    expect(res.status).toBe(400);
    expect(res.body.errors.map((e: { path: string }) => e.path)).toContain(path);
    expect(await tableCounts(s.core)).toEqual(before);
  });

  it('401 for a merchant_key of another client, and nothing written', async () => {
    const before = await tableCounts(s.core);
    const res = await s.http({
      method: 'POST',
      path: `/api/v1/requests/${both}`,
      auth: m.auth,
      json: { merchant_key: other.merchant_key, order_id: orderId(), amount: '5.00' },
    });
    expect(res.status).toBe(401);
    expect(await tableCounts(s.core)).toEqual(before);
  });

  it('replays with the same Idempotency-Key (the api_key header schema keeps other headers)', async () => {
    const headers = { 'idempotency-key': `k-${orderId()}`, api_key: 'x' };
    const body = { order_id: orderId() };
    const first = await authRequest(both, body, m, headers);
    const before = await tableCounts(s.core);
    const second = await authRequest(both, body, m, headers);
    expect(second.status).toBe(200);
    expect(second.body).toEqual(first.body);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(await tableCounts(s.core)).toEqual(before);
  });
});
