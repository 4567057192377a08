// A merchant's integration test with Vitest and @remit/testing: a payment and its webhook, an SMS
// payment request, settlement by the sandbox clock and a refund, all offline. (docs/testing.md)
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox, type SandboxMerchant } from '@remit/testing';

let sandbox: Sandbox;
let merchant: SandboxMerchant;

beforeAll(async () => {
  sandbox = await startSandbox();
}, 120_000);
afterAll(() => sandbox?.stop());
beforeEach(async () => {
  await sandbox.reset();
  merchant = await sandbox.createMerchant();
});

/** The code under test would be your own API client; plain fetch keeps the example short. */
async function api(method: string, path: string, body?: object) {
  const { clientId, secretKey } = sandbox.credentials;
  const res = await fetch(`${sandbox.url}/api/v1${path}`, {
    method,
    headers: { authorization: `Basic ${btoa(`${clientId}:${secretKey}`)}`, 'content-type': 'application/json' },
    body: body && JSON.stringify({ merchant_key: merchant.merchantKey, ...body }),
  });
  return { status: res.status, body: await res.json() };
}

const card = {
  number: '4242424242424242',
  exp_month: 12,
  exp_year: new Date().getFullYear() + 3,
  cvc: '123',
  zip: '94105',
};

async function chargeNewCustomer(amount: number, order_id: string) {
  const customer = await api('POST', '/customers/add', { first_name: 'Ada', last_name: 'Lovelace', card });
  return api('POST', `/customers/charge/${customer.body.data.customer_id}`, { amount, order_id, preAuth: false });
}

describe('checkout', () => {
  it('a payment is charged and its webhook arrives, signed', async () => {
    const charge = await chargeNewCustomer(25, 'order-1');
    expect(charge.status).toBe(200);

    const event = await sandbox.webhooks.next('payment.success', { where: { order_id: 'order-1' } });
    expect(event.data).toMatchObject({
      transaction_id: charge.body.transaction_id,
      amount: 25,
      merchant_id: merchant.merchantId,
    });
  });

  it('a payment request reaches the customer by SMS with its pay link', async () => {
    const request = await api('POST', '/requests', {
      amount: '40.00',
      order_id: 'order-2',
      phone_number: '(415) 555-0123',
    });
    expect(request.status).toBe(200);

    const sms = await sandbox.messages.next({ to: '+14155550123' });
    expect(sms.links).toContain(request.body.data.pay_link);
  });

  it('after the daily cutoff the payment is settled, and a full refund after 24 hours is a void', async () => {
    const charge = await chargeNewCustomer(30, 'order-3');
    await sandbox.clock.advance('25h');

    const voided = await api('POST', '/order/sales-void', { transaction_id: charge.body.transaction_id });
    expect(voided.body.message).toBe('The transaction has been settled, a void is not allowed.');

    const refund = await api('POST', '/order/sales-return', {
      transaction_id: charge.body.transaction_id,
      amount: '30.00',
    });
    expect(refund.body.data.type).toBe('Void');
    await sandbox.webhooks.next('payment.void', { where: { linked_txn_id: charge.body.transaction_id } });
  });

  it('a partial refund the same day is a refund', async () => {
    const charge = await chargeNewCustomer(30, 'order-4');
    const refund = await api('POST', '/order/sales-return', {
      transaction_id: charge.body.transaction_id,
      amount: '10.00',
    });
    expect(refund.body.data).toMatchObject({ type: 'Refund', amount: 10 });
    await sandbox.webhooks.next('payment.refund', { where: { parent_transaction_id: charge.body.transaction_id } });
  });

  it('a declined card is told apart from a success', async () => {
    sandbox.fail('decline');
    const charge = await chargeNewCustomer(12, 'order-5');
    expect(charge.status).toBe(402);
    expect(charge.body.result).toBe(false);
  });
});
