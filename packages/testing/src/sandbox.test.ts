import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { card, bank } from './test-support.js';
import { call } from './http.js';
import { durationMs } from './duration.js';
import { recipientKey } from './inbox.js';
import { startSandbox, type Sandbox, type SandboxMerchant } from './index.js';

/** The kit's promises beyond the docs' example (docs/examples/testing/vitest): isolation, reset, forced outcomes. */

function api(s: Sandbox, m: SandboxMerchant, path: string, body: object) {
  return call(`${s.url}/api/v1${path}`, 'POST', {
    auth: [s.credentials.clientId, s.credentials.secretKey],
    json: { merchant_key: m.merchantKey, ...body },
  });
}
async function charge(s: Sandbox, m: SandboxMerchant, method: object, amount = 20) {
  const c = await api(s, m, '/customers/add', { first_name: 'Ada', ...method });
  return api(s, m, `/customers/charge/${c.body.data.customer_id}`, {
    amount,
    order_id: `o-${Math.random()}`,
    preAuth: false,
  });
}

describe('durations and recipients', () => {
  it('reads milliseconds and h/d/m/s text, and refuses anything else', () => {
    expect(durationMs('25h')).toBe(25 * 3_600_000);
    expect(durationMs('3d')).toBe(3 * 86_400_000);
    expect(durationMs('1d 2h')).toBe(26 * 3_600_000);
    expect(durationMs(1500)).toBe(1500);
    expect(() => durationMs('soon')).toThrow(/Unreadable duration "soon"/);
    expect(() => durationMs(-1)).toThrow(RangeError);
  });
  it('matches a phone in any US form and an email in any case', () => {
    expect(recipientKey('(415) 555-0123')).toBe(recipientKey('+14155550123'));
    expect(recipientKey('Ada@Example.com')).toBe('ada@example.com');
  });
});

describe.skipIf(process.env.REMIT_TEST_DB === 'postgres')('startSandbox', () => {
  let a: Sandbox;
  let b: Sandbox;
  beforeAll(async () => {
    [a, b] = await Promise.all([startSandbox(), startSandbox()]);
  }, 180_000);
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
  });

  it('verification: a merchant put in a state reads it, with its webhook; cleared reads complete', async () => {
    const m = await a.createMerchant();
    expect((await a.verification(m.merchantId)).status).toBe('complete');
    const held = await a.setVerification(m.merchantId, {
      currently_due: ['individual.verification.document'],
      restricted: true,
    });
    expect(held).toMatchObject({
      status: 'restricted',
      charges_enabled: false,
      disabled_reason: 'requirements.past_due',
      past_due: [{ requirement: 'individual.verification.document', label: 'Identity document of the owner' }],
    });
    expect(await a.verification(m.merchantId)).toEqual(held);
    const sent = await a.webhooks.next('merchant.verification', { where: { merchant_id: m.merchantId } });
    expect(sent.data.verification).toEqual(held);
    expect((await charge(a, m, { card })).status).toBe(409);
    expect((await a.setVerification(m.merchantId, {})).status).toBe('complete');
    expect((await charge(a, m, { card })).status).toBe(200);
  });

  it('two sandboxes share nothing: ports, credentials, merchants, clocks, forced outcomes', async () => {
    expect(a.url).not.toBe(b.url);
    const m = await a.createMerchant();
    const other = await call(`${b.url}/api/v1/merchant`, 'GET', {
      auth: [a.credentials.clientId, a.credentials.secretKey],
    });
    expect(other.status).toBe(401);
    await a.clock.advance('2d');
    expect(Math.round((a.clock.now().getTime() - b.clock.now().getTime()) / 3_600_000)).toBe(48);
    b.fail('decline');
    expect((await charge(a, m, { card })).status).toBe(200);
  });

  it('fail() forces the next outcome once: decline, insufficient funds, timeout', async () => {
    const m = await a.createMerchant();
    a.fail('decline');
    a.fail('insufficient_funds');
    a.fail('timeout');
    const declined = await charge(a, m, { card });
    expect([declined.status, declined.body.code]).toEqual([402, 'card_declined']);
    const poor = await charge(a, m, { card });
    expect([poor.status, poor.body.code]).toEqual([402, 'insufficient_funds']);
    const timedOut = await charge(a, m, { card });
    expect([timedOut.status, timedOut.body.data.status]).toEqual([202, 'processing']);
    expect((await charge(a, m, { card })).status).toBe(200);
    expect(() => a.fail('explode' as never)).toThrow(/Unknown outcome "explode"/);
  });

  it("fail('ach_return') returns the next bank payment: ach.update Declined", async () => {
    const m = await a.createMerchant();
    a.fail('ach_return');
    const debit = await charge(a, m, { bank_account: bank });
    expect(debit.status).toBe(200);
    const returned = await a.webhooks.next('ach.update', {
      where: { tran_id: debit.body.transaction_id },
      timeoutMs: 10_000,
    });
    expect(returned.data).toMatchObject({ status: 'Declined', message: 'Insufficient Funds' });
  });

  it('reset() empties the sandbox and its clock; the credentials and the webhook receiver stay', async () => {
    await a.createMerchant();
    await a.clock.advance('1d');
    await a.reset();
    const list = await call(`${a.url}/api/v1/merchant`, 'GET', {
      auth: [a.credentials.clientId, a.credentials.secretKey],
    });
    expect([list.status, list.body.data]).toEqual([200, []]);
    expect(Math.abs(a.clock.now().getTime() - Date.now())).toBeLessThan(1000);
    expect(a.webhooks.all()).toEqual([]);
    const m = await a.createMerchant({ business_name: 'After Reset LLC' });
    const approval = await a.webhooks.next('merchant.approval', { where: { merchant_id: m.merchantId } });
    expect(approval.data.business_name).toBe('After Reset LLC');
    expect(a.webhooks.rejected()).toEqual([]);
  });

  it('webhooks.next names what it waited for when nothing comes', async () => {
    await expect(a.webhooks.next('preauth', { timeoutMs: 100 })).rejects.toThrow(
      /Timed out after 100 ms waiting for webhook preauth/,
    );
  });
});
