import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../testing/harness.js';
import type { HttpResponse } from '../testing/http.js';
import { newMerchant, validOnboarding, type TestMerchant } from '../testing/fixtures.js';
import { bankAccount, charge, merchantPost, newCustomer, rows } from '../testing/payments.js';

/**
 * Every keyed write route: the replayed answer is the first one byte for byte (status, content
 * type, body text), also after the record it answers changed (a charge voided, a hold captured).
 * Answers naming a transaction are stored by reference to it (idempotency/stored-answer.ts), so
 * those must come back from the record; the table must hold a reference for them.
 */

let s: TestServer;
let m: TestMerchant;
let card: number;
let bank: number;
beforeAll(async () => {
  s = await startTestServer();
  m = await newMerchant(s);
  card = await newCustomer(s, m);
  bank = await newCustomer(s, m, { bank_account: bankAccount() });
}, 180_000);
afterAll(() => s.close());

const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(200, 7)]);
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(200, 1)]);

type Sent = HttpResponse<any>;
interface Case {
  /** The route as the OpenAPI document names it. */
  route: string;
  /** Sends the request with the key; called twice with the same key. */
  send: (key: string) => Promise<Sent>;
  /** Changes the record the answer names before the replay (another request, its own key). */
  between?: (first: Sent) => Promise<unknown>;
  /** The answer names a transaction that stays: it must be stored by reference. */
  byReference?: boolean;
}

const post = (path: string, body: object, key: string, auth = m.auth) =>
  s.http({ method: 'POST', path, auth, json: body, headers: { 'idempotency-key': key } });
const mk = (body: object = {}) => ({ merchant_key: m.merchant_key, ...body });
const order = () => `replay-${Math.random().toString(36).slice(2)}`;
/** What a case's request names, made at its first send: the repeat must send the same request. */
const once = <T>(make: () => Promise<T>) => {
  let made: Promise<T> | undefined;
  return () => (made ??= make());
};

async function deposit(key: string) {
  const fd = new FormData();
  fd.append('amount', '125.40');
  fd.append('merchant_key', m.merchant_key);
  fd.append('device', 'iOS');
  fd.append('front_file', new Blob([new Uint8Array(JPEG)]), 'front.jpg');
  fd.append('back_file', new Blob([new Uint8Array(PNG)]), 'back.png');
  const req = new Request('http://x/', { method: 'POST', body: fd });
  const raw = Buffer.from(await req.arrayBuffer());
  return s.http({
    method: 'POST',
    path: '/api/v1/merchant/remote_deposit_capture',
    auth: m.auth,
    raw,
    headers: { 'content-type': req.headers.get('content-type')!, 'idempotency-key': key },
  });
}

const cases = (): Case[] => {
  const [chargeOrder, linkOrder, requestOrder, customerRequestOrder] = [order(), order(), order(), order()];
  const toApprove = once(() => newMerchant(s, { auth: m.auth, approve: false, business_name: 'Approve Me' }));
  const sale = once(() => charge(s, m, card, '11.00'));
  const refundable = once(() => charge(s, m, card, '12.00'));
  const hold = [
    once(() => charge(s, m, card, '20.00', { preAuth: true })),
    once(() => charge(s, m, card, '21.00', { preAuth: true })),
    once(() => charge(s, m, card, '22.00', { preAuth: true })),
  ];
  const ach = once(() => charge(s, m, bank, '30.00'));
  return [
    {
      route: '/api/v1/onboarding',
      send: (k) => post('/api/v1/onboarding', validOnboarding({ business_name: 'Replay Shop' }), k),
    },
    {
      route: '/api/v1/approve-merchant',
      send: async (k) => post('/api/v1/approve-merchant', { merchant_id: (await toApprove()).merchant_id }, k),
    },
    {
      route: '/api/v1/customers/add',
      send: (k) =>
        post('/api/v1/customers/add', mk({ first_name: 'Grace', last_name: 'Hopper', email: 'grace@example.com' }), k),
    },
    {
      route: '/api/v1/customers/request-card/{customerId}',
      send: (k) => post(`/api/v1/customers/request-card/${card}`, mk(), k),
    },
    {
      route: '/api/v1/customers/charge/{customerId}',
      send: (k) =>
        post(`/api/v1/customers/charge/${card}`, mk({ amount: '42.50', order_id: chargeOrder, preAuth: false }), k),
      between: (first) =>
        merchantPost(s, m, '/order/sales-void', { transaction_id: first.body.transaction_id }, `${chargeOrder}-void`),
      byReference: true,
    },
    {
      route: '/api/v1/order/sales-void',
      send: async (k) => post('/api/v1/order/sales-void', mk({ transaction_id: await sale() }), k),
      byReference: true,
    },
    {
      route: '/api/v1/order/sales-return',
      send: async (k) =>
        post('/api/v1/order/sales-return', mk({ transaction_id: await refundable(), amount: '5.00' }), k),
      byReference: true,
    },
    {
      route: '/api/v1/preauth/update',
      send: async (k) =>
        post(
          '/api/v1/preauth/update',
          mk({
            transaction_id: await hold[0]!(),
            new_authorized_amount: '25.00',
            last_authorized_amount: '20.00',
            order_id: 'replay-hold',
          }),
          k,
        ),
      between: (first) =>
        merchantPost(
          s,
          m,
          '/preauth/capture',
          { transaction_id: first.body.data.transaction_id },
          `${order()}-capture`,
        ),
      byReference: true,
    },
    {
      route: '/api/v1/preauth/capture',
      send: async (k) => post('/api/v1/preauth/capture', mk({ transaction_id: await hold[1]!() }), k),
      byReference: true,
    },
    {
      route: '/api/v1/preauth/void',
      send: async (k) => post('/api/v1/preauth/void', mk({ transaction_id: await hold[2]!() }), k),
      byReference: true,
    },
    {
      route: '/api/v1/update-ach',
      send: async (k) => post('/api/v1/update-ach', mk({ transaction_id: await ach(), new_status: 'approved' }), k),
    },
    {
      route: '/api/v1/pay-link',
      send: (k) => post('/api/v1/pay-link', mk({ amount: '25.00', order_id: linkOrder }), k),
    },
    {
      route: '/api/v1/requests',
      send: (k) =>
        post('/api/v1/requests', mk({ amount: '5.00', order_id: requestOrder, email: 'pay@example.com' }), k),
    },
    {
      route: '/api/v1/requests/{customerId}',
      send: (k) => post(`/api/v1/requests/${card}`, mk({ amount: '6.00', order_id: customerRequestOrder }), k),
    },
    {
      route: '/api/v1/client/update-webhooks-url',
      send: (k) => post('/api/v1/client/update-webhooks-url', { webhook_url: 'https://hooks.example.com/remit' }, k),
    },
    // No delivery to retry here: the 404 is the decision replayed.
    {
      route: '/api/v1/client/webhook-deliveries/{id}/retry',
      send: (k) => post('/api/v1/client/webhook-deliveries/whd_missing/retry', {}, k),
    },
    { route: '/api/v1/merchant/remote_deposit_capture', send: deposit },
    { route: '/sandbox/advance-clock', send: (k) => post('/sandbox/advance-clock', mk({ hours: 1 }), k) },
    { route: '/sandbox/settle', send: (k) => post('/sandbox/settle', mk(), k) },
    // Each call mints a new link: the replay must hand back the first one.
    {
      route: '/api/v1/merchant/verification-link',
      send: (k) => post('/api/v1/merchant/verification-link', { merchant_id: m.merchant_id }, k),
    },
    {
      route: '/sandbox/merchant-verification',
      send: (k) => post('/sandbox/merchant-verification', mk({ currently_due: ['company.tax_id'] }), k),
    },
    // The pay page's calls: no credentials, keyed per link (or card request) by the page.
    {
      route: '/pay/api/links/{linkId}/pay',
      send: async (k) => payPage(`/pay/api/links/${await paidLink()}/pay`, { method: 'card', card: payCard() }, k),
      byReference: true,
    },
    {
      route: '/pay/api/links/{linkId}/challenges/{challengeId}',
      send: async (k) => {
        const { id, challenge } = await challenged();
        return payPage(`/pay/api/links/${id}/challenges/${challenge}`, { outcome: 'complete' }, k);
      },
      byReference: true,
    },
    {
      route: '/pay/api/cards/{token}',
      send: async (k) => payPage(`/pay/api/cards/${await cardToken()}`, { card: payCard('5555555555554444') }, k),
    },
  ];
};

/**
 * The pay page's Stripe calls (PaymentIntent, SetupIntent and their reports) answer only with
 * Stripe as the processor: their replays are compared byte for byte in routes/stripe-intents.test.ts.
 */
const STRIPE_ONLY = [
  '/pay/api/cards/{token}/intent',
  '/pay/api/cards/{token}/intent/report',
  '/pay/api/links/{linkId}/intent',
  '/pay/api/links/{linkId}/intent/report',
];

const payPage = (path: string, body: object, key: string) =>
  s.http({ method: 'POST', path, json: body, headers: { 'idempotency-key': key } });
const payCard = (number = '4242424242424242') => ({
  number,
  exp_month: 12,
  exp_year: new Date().getUTCFullYear() + 2,
  cvc: '123',
  name: 'Ada Lovelace',
  zip: '94105',
});
const linkId = async (amount: string) => {
  const res = await s.http({ method: 'POST', path: '/api/v1/pay-link', auth: m.auth, json: mk({ amount }) });
  return String(res.body.data.payment_link).split('/').pop()!;
};
const paidLink = once(() => linkId('18.00'));
/** A link paid by a card that needs 3-D Secure: the challenge the page then answers. */
const challenged = once(async () => {
  const id = await linkId('19.00');
  const res = await payPage(`/pay/api/links/${id}/pay`, { method: 'card', card: payCard('4000000000003220') }, order());
  return { id, challenge: res.body.challenge.id as string };
});
/** The token of a card request sent to a new customer (the add-card page's link). */
const cardToken = once(async () => {
  const added = await post('/api/v1/customers/add', mk({ first_name: 'Rita', email: 'rita@example.com' }), order());
  const customer = added.body.data.customer_id as number;
  expect((await post(`/api/v1/customers/request-card/${customer}`, mk(), order())).status).toBe(200);
  const [link] = await rows<{ id: string }>(
    s,
    sql`select id from pay_links where customer_id = ${customer} and kind = 'card_request'`,
  );
  return link!.id;
});

describe('a replayed answer is the first one, byte for byte, on every keyed write route (API, sandbox, pay page)', () => {
  it('covers every POST route of /api/v1 and /sandbox', () => {
    const paths = (s.app.swagger() as { paths: Record<string, Record<string, unknown>> }).paths;
    const posts = Object.entries(paths)
      .filter(([p, ops]) => 'post' in ops && ['/api/v1/', '/sandbox/', '/pay/api/'].some((x) => p.startsWith(x)))
      .map(([p]) => p)
      .sort();
    expect([...cases().map((c) => c.route), ...STRIPE_ONLY].sort()).toEqual(posts);
  });

  for (const c of cases()) {
    it(c.route, async () => {
      const key = `replay:${c.route}`;
      const first = await c.send(key);
      expect(first.status, first.text).toBeLessThan(c.byReference ? 300 : 500);
      if (c.between) expect(((await c.between(first)) as Sent).status).toBe(200);
      const again = await c.send(key);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.status).toBe(first.status);
      expect(again.headers['content-type']).toBe(first.headers['content-type']);
      expect(again.text).toBe(first.text);
      const [stored] = await rows<{ response_body: string }>(
        s,
        sql`select response_body from idempotency_keys where key = ${key}`,
      );
      if (c.byReference) expect(stored!.response_body).toMatch(/^a1:txn_[A-Za-z0-9_]+:v2\.[0-9a-f]{12}\./);
      else expect(stored!.response_body).toMatch(/^(a1::)?v2\.[0-9a-f]{12}\./);
    });
  }
});
