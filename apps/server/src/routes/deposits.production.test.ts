import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createCredentials,
  recordCheckDepositAccount,
  type CheckDepositInput,
  type CheckDepositProvider,
} from '@remit/core';
import { startTestServer, tableCounts, type TestServer } from '../testing/harness.js';
import { validOnboarding, type TestMerchant } from '../testing/fixtures.js';
import { rows } from '../testing/payments.js';
import { emulatedStripe, startStripeEmulator, type StripeEmulator } from '../testing/stripe-emulator.js';

/**
 * Check deposits on production servers whose processor is Stripe (the emulator): Stripe takes no
 * checks, so its approval gives the merchant no check-deposit account. Without a provider a deposit
 * is refused with the spec's error, nothing written or sent; with a vendor plugged into the port
 * and the merchant's account recorded by the operator, it goes to the vendor.
 */

const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(200, 7)]);
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(200, 1)]);

/** A remote-deposit vendor as a connector would be: no accounts of its own making, every deposit kept. */
function recordingVendor() {
  const received: Array<{ deposit: CheckDepositInput; key: string }> = [];
  const provider: CheckDepositProvider = {
    name: 'acme-rdc',
    async submit(deposit, opts) {
      received.push({ deposit, key: opts.idempotencyKey });
      return { reference: `rdc_${received.length}` };
    },
  };
  return { provider, received };
}

let emu: StripeEmulator;
let none: TestServer;
let vendored: TestServer;
const vendor = recordingVendor();
beforeAll(async () => {
  emu = await startStripeEmulator();
  [none, vendored] = await Promise.all([
    startTestServer({ env: 'production', processor: emulatedStripe(emu) }),
    startTestServer({ env: 'production', processor: emulatedStripe(emu), checkDeposits: vendor.provider }),
  ]);
});
afterAll(async () => {
  await Promise.all([none?.close(), vendored?.close()]);
  await emu?.close();
});

/** Onboarded and approved by Stripe's review (`account.updated`), as in production. */
async function approvedByStripe(s: TestServer): Promise<TestMerchant> {
  const creds = await createCredentials(s.core.ctx);
  const auth: [string, string] = [creds.client_id, creds.secret_key];
  const res = await s.http({ method: 'POST', path: '/api/v1/onboarding', auth, json: validOnboarding({}) });
  expect(res.status, res.text).toBe(201);
  const [row] = await rows<{ id: string; stripe_account_id: string }>(
    s,
    sql`select id, stripe_account_id from merchants where public_key = ${res.body.data.public_key}`,
  );
  const event = JSON.stringify(emu.reviewAccount(row!.stripe_account_id, true));
  const hook = await fetch(`${s.url}/stripe/webhooks`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'stripe-signature': emu.sign(event) },
    body: event,
  });
  expect(((await hook.json()) as { handled: string }).handled).toBe('applied');
  return { auth, merchant_key: res.body.data.merchant_key, public_key: res.body.data.public_key, merchant_id: row!.id };
}

async function deposit(s: TestServer, m: TestMerchant, amount = '42.00') {
  const fd = new FormData();
  fd.append('amount', amount);
  fd.append('merchant_key', m.merchant_key);
  fd.append('device', 'Android');
  fd.append('front_file', new Blob([new Uint8Array(JPEG)]), 'front.jpg');
  fd.append('back_file', new Blob([new Uint8Array(PNG)]), 'back.png');
  const req = new Request('http://x/', { method: 'POST', body: fd });
  return s.http({
    method: 'POST',
    path: '/api/v1/merchant/remote_deposit_capture',
    auth: m.auth,
    raw: Buffer.from(await req.arrayBuffer()),
    headers: { 'content-type': req.headers.get('content-type')! },
  });
}

const accountOf = async (s: TestServer, id: string) =>
  (
    await rows<{ ach_provider_id: string | null; check_deposit_provider: string | null; status: string }>(
      s,
      sql`select ach_provider_id, check_deposit_provider, status from merchants where id = ${id}`,
    )
  )[0]!;

describe('production with Stripe and no check-deposit provider', () => {
  it('Stripe approval gives no check-deposit account; a deposit gets the spec error, nothing written, no event', async () => {
    const m = await approvedByStripe(none);
    expect(await accountOf(none, m.merchant_id)).toEqual({
      ach_provider_id: null,
      check_deposit_provider: null,
      status: 'approved',
    });
    const before = await tableCounts(none.core);
    const res = await deposit(none, m);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ result: false, code: 'ach_account_not_found' });
    expect(res.body.message).toMatch(/^ACH merchant or account detail not found/);
    expect(await tableCounts(none.core)).toEqual(before);
  });

  it("an account made up at an earlier approval (achp_…, kept as the simulator's) does not count", async () => {
    const m = await approvedByStripe(none);
    await rows(
      none,
      sql`update merchants set ach_provider_id = 'achp_madeup', check_deposit_provider = 'simulator' where id = ${m.merchant_id}`,
    );
    const before = await tableCounts(none.core);
    const res = await deposit(none, m);
    expect(res.body).toMatchObject({ result: false, code: 'ach_account_not_found' });
    expect(await tableCounts(none.core)).toEqual(before);
  });

  it('the operator cannot record an account while no provider is configured', async () => {
    const m = await approvedByStripe(none);
    await expect(recordCheckDepositAccount(none.core.ctx, m.merchant_id, 'rdc-1')).rejects.toThrow(
      /No check-deposit provider is configured/,
    );
    expect((await accountOf(none, m.merchant_id)).ach_provider_id).toBeNull();
  });
});

describe('production with Stripe and a remote-deposit vendor behind the port', () => {
  it('refused until the operator records the account; then the deposit goes to the vendor, pending, images stored', async () => {
    const m = await approvedByStripe(vendored);
    expect((await accountOf(vendored, m.merchant_id)).ach_provider_id).toBeNull();
    expect((await deposit(vendored, m)).body.code).toBe('ach_account_not_found');
    expect(vendor.received).toHaveLength(0);

    await recordCheckDepositAccount(vendored.core.ctx, m.merchant_id, 'rdc-778');
    expect(await accountOf(vendored, m.merchant_id)).toMatchObject({
      ach_provider_id: 'rdc-778',
      check_deposit_provider: 'acme-rdc',
    });
    const res = await deposit(vendored, m, '42.00');
    expect(res.status, res.text).toBe(200);
    const id = res.body.data.transactionId;
    expect(vendor.received).toHaveLength(1);
    const [{ deposit: sent, key }] = vendor.received as [{ deposit: CheckDepositInput; key: string }];
    expect(sent).toMatchObject({ account: 'rdc-778', transactionId: id, amountCents: 4200, device: 'Android' });
    expect(sent.images.map((i) => [i.side, i.contentType, i.data.length])).toEqual([
      ['front', 'image/jpeg', JPEG.length],
      ['back', 'image/png', PNG.length],
    ]);
    expect(key).toBe(`remit_deposit_${id}`);
    const [txn] = await rows(
      vendored,
      sql`select status, gateway_ref, payment_method from transactions where id = ${id}`,
    );
    expect(txn).toEqual({ status: 'pending', gateway_ref: 'rdc_1', payment_method: 'ach' });
    const [n] = await rows<{ n: number }>(
      vendored,
      sql`select count(*)::int as n from check_images where transaction_id = ${id}`,
    );
    expect(n!.n).toBe(2);
  });
});
