import { eventDataSchemas, EVENT_TYPES } from '@remit/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bank, card, freePort } from './test-support.js';
import { call } from './http.js';
import { startSandbox, type Sandbox, type SandboxMerchant } from './index.js';

/**
 * The /testing controls over HTTP, as a test in another language calls them: each one, its bad
 * input (a 400 that changes nothing), its credentials, and the pinned webhook receiver's GET.
 * From the sources; packages/testing/src/controls.pack.test.ts runs them from the tarball.
 */

describe.skipIf(process.env.REMIT_TEST_DB === 'postgres')('the /testing controls of startSandbox()', () => {
  let s: Sandbox;
  let m: SandboxMerchant;
  let webhooksPort: number;
  let auth: [string, string];
  const t = (method: string, path: string, json?: unknown, as = auth) =>
    call(`${s.url}/testing${path}`, method, { auth: as, json });
  const api = (path: string, body: object) =>
    call(`${s.url}/api/v1${path}`, 'POST', { auth, json: { merchant_key: m.merchantKey, ...body } });
  const charge = async (method: object, order: string, amount = 20) => {
    const c = await api('/customers/add', { first_name: 'Ada', ...method });
    return api(`/customers/charge/${c.body.data.customer_id}`, { amount, order_id: order, preAuth: false });
  };

  beforeAll(async () => {
    webhooksPort = await freePort();
    s = await startSandbox({ webhooksPort });
    auth = [s.credentials.clientId, s.credentials.secretKey];
    m = await s.createMerchant();
  }, 180_000);
  afterAll(() => s?.stop());

  it('pins the webhook receiver on --webhooks-port; a GET on it lists what it received', async () => {
    expect(s.webhooks.url).toBe(`http://127.0.0.1:${webhooksPort}/webhooks`);
    await s.webhooks.next('merchant.approval', { where: { merchant_id: m.merchantId } });
    const listed = await call(s.webhooks.url, 'GET');
    expect(listed.status).toBe(200);
    const approval = listed.body.received.find((e: { event_type: string }) => e.event_type === 'merchant.approval');
    expect(approval).toMatchObject({ event_type: 'merchant.approval', data: { merchant_id: m.merchantId } });
    expect(approval.id).toMatch(/^evt_/);
    expect(listed.body.rejected).toEqual([]);
  });

  it('the OpenAPI document lists the controls under the Testing tag', async () => {
    const doc = await call(`${s.url}/api/v1/openapi.json`, 'GET');
    const testing = Object.entries(doc.body.paths as Record<string, Record<string, { tags: string[] }>>)
      .filter(([path]) => path.startsWith('/testing'))
      .flatMap(([path, ops]) =>
        Object.entries(ops).map(([method, op]) => [`${method.toUpperCase()} ${path}`, op.tags]),
      );
    expect(Object.fromEntries(testing)).toEqual({
      'POST /testing/fail': ['Testing'],
      'POST /testing/reset': ['Testing'],
      'POST /testing/merchants': ['Testing'],
      'POST /testing/clock/advance': ['Testing'],
      'GET /testing/webhooks/next': ['Testing'],
      'GET /testing/messages/next': ['Testing'],
      'POST /testing/trigger': ['Testing'],
    });
    expect(doc.body.tags.map((tag: { name: string }) => tag.name)).toContain('Testing');
  });

  it('answers 401 without credentials and 403 to another client of the sandbox', async () => {
    const none = await call(`${s.url}/testing/reset`, 'POST');
    expect([none.status, none.body.code]).toEqual([401, 'unauthorized']);
    const other = await call<{ client_id: string; secret_key: string }>(`${s.url}/portal/api/credentials`, 'POST');
    const refused = await t('POST', '/fail', { outcome: 'decline' }, [other.body.client_id, other.body.secret_key]);
    expect([refused.status, refused.body.code]).toEqual([403, 'not_sandbox_credentials']);
    // Nothing was queued: the next payment goes through.
    expect((await charge({ card }, 'after-403')).status).toBe(200);
  });

  it('POST /testing/fail insufficient_funds: the charge declines and payment.failed arrives through /testing/webhooks/next', async () => {
    const forced = await t('POST', '/fail', { outcome: 'insufficient_funds' });
    expect(forced.status).toBe(200);
    expect(forced.body.data).toEqual({ outcome: 'insufficient_funds', queued: ['insufficient_funds'] });
    const declined = await charge({ card }, 'order-poor', 20);
    expect([declined.status, declined.body.code]).toEqual([402, 'insufficient_funds']);
    const next = await t('GET', '/webhooks/next?type=payment.failed&timeout_ms=10000');
    expect(next.status).toBe(200);
    expect(next.body.data.event_type).toBe('payment.failed');
    expect(next.body.data.data).toEqual({
      transaction_id: declined.body.transaction_id,
      merchant_id: m.merchantId,
      order_id: 'order-poor',
      amount: 20,
      code: 'insufficient_funds',
      message: 'Your card has insufficient funds.',
      method: 'card',
    });
    // Taken: the next call does not hand it out again.
    const again = await t('GET', '/webhooks/next?type=payment.failed&timeout_ms=200');
    expect([again.status, again.body.code]).toEqual([408, 'wait_timed_out']);
    expect(again.body.message).toBe('No payment.failed webhook arrived within 200 ms.');
  });

  it("POST /testing/fail ach_return: the bank returns the debit, ach.update Declined and payment.failed method 'ach'", async () => {
    expect((await t('POST', '/fail', { outcome: 'ach_return' })).status).toBe(200);
    const debit = await charge({ bank_account: bank }, 'order-bank', 31);
    expect(debit.status).toBe(200);
    const failed = await t('GET', '/webhooks/next?type=payment.failed&timeout_ms=10000');
    expect(failed.body.data.data).toEqual({
      transaction_id: debit.body.transaction_id,
      merchant_id: m.merchantId,
      order_id: 'order-bank',
      amount: 31,
      code: 'ach_returned',
      message: 'Insufficient Funds',
      method: 'ach',
    });
  });

  it("a payment request's link declined on the pay page: payment.failed names the attempt and the request's order", async () => {
    const request = await api('/requests', {
      amount: '15.00',
      order_id: 'order-request',
      phone_number: '(415) 555-0142',
    });
    const linkId = String(request.body.data.pay_link).split('/').pop();
    const paid = await fetch(`${s.url}/pay/api/links/${linkId}/pay`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'idempotency-key': `attempt-${Date.now()}` },
      body: JSON.stringify({ method: 'card', card: { ...card, number: '4000000000000002', name: 'Ada Lovelace' } }),
    }).then(async (r) => ({ status: r.status, body: (await r.json()) as { code: string } }));
    expect([paid.status, paid.body.code]).toEqual([402, 'card_declined']);
    const failed = await t('GET', '/webhooks/next?type=payment.failed&timeout_ms=10000');
    expect(failed.body.data.data).toMatchObject({
      merchant_id: m.merchantId,
      order_id: 'order-request',
      amount: 15,
      code: 'card_declined',
      message: 'Your card was declined.',
      method: 'card',
    });
    expect(failed.body.data.data.transaction_id).toMatch(/^txn_/);
  });

  it('refuses bad input with a 400 that changes nothing', async () => {
    const bad = await t('POST', '/fail', { outcome: 'explode' });
    expect([bad.status, bad.body.code]).toEqual([400, 'invalid_request']);
    expect(bad.body.errors[0].path).toBe('outcome');
    for (const by of ['soon', -5, '', 'x'.repeat(101), '20000w'])
      expect((await t('POST', '/clock/advance', { by })).status, String(by)).toBe(400);
    expect((await t('POST', '/clock/advance', {})).status).toBe(400);
    expect((await t('GET', '/webhooks/next?timeout_ms=-1')).status).toBe(400);
    expect((await t('GET', '/webhooks/next?timeout_ms=999999999')).status).toBe(400);
    expect((await t('GET', '/webhooks/next?type=payment.exploded')).status).toBe(400);
    expect((await t('GET', '/messages/next?channel=fax')).status).toBe(400);
    expect((await t('POST', '/trigger', { event_type: 'nothing' })).status).toBe(400);
    const wrongKey = await t('POST', '/trigger', { event_type: 'ach.update', merchant_key: 'mk_test_nobody' });
    expect([wrongKey.status, wrongKey.body.code]).toEqual([401, 'invalid_merchant_key']);
    // No outcome was queued and the clock did not move.
    expect((await charge({ card }, 'after-400')).status).toBe(200);
    expect(Math.abs(s.clock.now().getTime() - Date.now())).toBeLessThan(2000);
  });

  it('POST /testing/clock/advance moves the sandbox clock', async () => {
    const before = s.clock.now().getTime();
    const moved = await t('POST', '/clock/advance', { by: '25h' });
    expect(moved.status).toBe(200);
    expect(moved.body.data.advanced_ms).toBe(25 * 3_600_000);
    expect(new Date(moved.body.data.now).getTime() - before).toBeGreaterThanOrEqual(25 * 3_600_000);
    expect((await t('POST', '/clock/advance', { by: 60_000 })).body.data.advanced_ms).toBe(60_000);
    expect(s.clock.now().getTime() - before).toBeGreaterThanOrEqual(25 * 3_600_000 + 60_000);
  });

  it('GET /testing/messages/next hands out the SMS of a payment request, once; 408 when nothing comes', async () => {
    const request = await api('/requests', { amount: '40.00', order_id: 'order-sms', phone_number: '(415) 555-0199' });
    expect(request.status).toBe(200);
    const sms = await t('GET', `/messages/next?to=${encodeURIComponent('+14155550199')}&channel=sms&timeout_ms=10000`);
    expect(sms.status).toBe(200);
    expect(sms.body.data).toMatchObject({ channel: 'sms', to: '+14155550199', merchant_id: m.merchantId });
    expect(sms.body.data.links[0]).toBe(request.body.data.pay_link);
    const none = await t('GET', `/messages/next?to=${encodeURIComponent('+14155550199')}&timeout_ms=300`);
    expect([none.status, none.body.code]).toEqual([408, 'wait_timed_out']);
    expect(none.body.message).toBe('No message to +14155550199 arrived within 300 ms.');
  });

  it('a long-poll waits for what comes later, and one the caller left takes nothing', async () => {
    const abandoned = new AbortController();
    const left = fetch(`${s.url}/testing/webhooks/next?type=preauth.void&timeout_ms=30000`, {
      headers: { authorization: `Basic ${Buffer.from(auth.join(':')).toString('base64')}` },
      signal: abandoned.signal,
    }).catch(() => null);
    await new Promise((r) => setTimeout(r, 200));
    abandoned.abort();
    await left;
    const waiting = t('GET', '/webhooks/next?type=preauth.void&timeout_ms=20000');
    await new Promise((r) => setTimeout(r, 200));
    const sent = await t('POST', '/trigger', { event_type: 'preauth.void', merchant_key: m.merchantKey });
    const got = await waiting;
    expect(got.status).toBe(200);
    expect(got.body.data.id).toBe(sent.body.data.event_id);
  });

  it('POST /testing/trigger sends every documented event, signed, with data of its contract shape', async () => {
    for (const type of EVENT_TYPES) {
      const sent = await t('POST', '/trigger', { event_type: type, merchant_key: m.merchantKey });
      expect(sent.status, type).toBe(200);
      // Earlier events of the type (a charge's payment.success, the merchant's approval) come first.
      let got = await t('GET', `/webhooks/next?type=${type}&timeout_ms=10000`);
      while (got.status === 200 && got.body.data.id !== sent.body.data.event_id)
        got = await t('GET', `/webhooks/next?type=${type}&timeout_ms=10000`);
      expect(got.status, type).toBe(200);
      expect(got.body.data.event_type).toBe(type);
      expect(got.body.data.data).toEqual(sent.body.data.data);
      expect(eventDataSchemas[type].parse(got.body.data.data), type).toEqual(got.body.data.data);
    }
    expect(s.webhooks.rejected()).toEqual([]);
    const ach = s.webhooks.all().find((e) => e.event_type === 'ach.update' && e.data.status === 'Approved');
    expect(ach?.data).toMatchObject({ merchant_id: m.merchantId, message: 'Approved' });
    expect(ach?.data.tran_id).toMatch(/^txn_/);
  });

  it('POST /testing/reset empties the sandbox; the same credentials keep working', async () => {
    expect((await t('POST', '/fail', { outcome: 'decline' })).status).toBe(200);
    const reset = await t('POST', '/reset');
    expect([reset.status, reset.body.data]).toEqual([200, { client_id: s.credentials.clientId }]);
    const list = await call(`${s.url}/api/v1/merchant`, 'GET', { auth });
    expect([list.status, list.body.data]).toEqual([200, []]);
    expect(Math.abs(s.clock.now().getTime() - Date.now())).toBeLessThan(2000);
    expect((await t('GET', '/webhooks/next?timeout_ms=100')).status).toBe(408);
    // The forced decline went with the reset; a merchant made now (over HTTP) is paid normally.
    expect((await t('POST', '/merchants', { email: 'not-an-email' })).status).toBe(400);
    const made = await t('POST', '/merchants', { business_name: 'After Reset LLC' });
    expect(made.status).toBe(200);
    expect(Object.keys(made.body.data).sort()).toEqual(['merchant_id', 'merchant_key', 'public_key']);
    m = {
      merchantKey: made.body.data.merchant_key,
      merchantId: made.body.data.merchant_id,
      publicKey: made.body.data.public_key,
    };
    const approved = await t('GET', '/webhooks/next?type=merchant.approval&timeout_ms=10000');
    expect(approved.body.data.data).toMatchObject({ merchant_id: m.merchantId, business_name: 'After Reset LLC' });
    expect((await charge({ card }, 'after-reset')).status).toBe(200);
    // Without a merchant_key, the event names the sandbox's merchant.
    const sent = await t('POST', '/trigger', { event_type: 'merchant.approval' });
    expect(sent.body.data.data).toMatchObject({ merchant_id: m.merchantId, company_id: s.credentials.clientId });
  });
});
