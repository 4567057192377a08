import { afterAll, beforeAll, expect, it } from 'vitest';
import { openCore } from '@remit/core';
import { buildApp } from './app.js';
import { coreOptions, loadConfig } from './config.js';
import { validOnboarding } from './testing/fixtures.js';
import { basicAuth, send } from './testing/http.js';
import { startStripeEmulator, stripeJsConfirmPayment, type StripeEmulator } from './testing/stripe-emulator.js';
import { runCliCaptured, stripeCliEnv } from './testing/cli.js';

/**
 * `npm run remit -- payments reconcile` with Stripe: a link paid on its page whose report and
 * events never reached Remit. The command lists the PaymentIntent as money kept without a
 * record, records it, and lists nothing the second time.
 */
let emu: StripeEmulator;
let env: Record<string, string>;
let drop: () => Promise<void>;
beforeAll(async () => {
  emu = await startStripeEmulator();
  ({ env, drop } = await stripeCliEnv(emu, 'remit_cli_reconcile'));
});
afterAll(async () => {
  await drop?.();
  await emu?.close();
});

const cli = (...args: string[]) => runCliCaptured(args, env);

/** A link paid at Stripe with the server running (on PGlite one process owns the folder: closed before the CLI runs). */
async function paidWithoutRecord(auth: string): Promise<{ linkId: string; pi: string }> {
  const core = await openCore({ ...coreOptions(loadConfig(env)), publicUrl: 'http://127.0.0.1' });
  const app = await buildApp(core);
  const base = await app.listen({ port: 0, host: '127.0.0.1' });
  try {
    const call = (method: string, path: string, json?: object, headers: Record<string, string> = {}) =>
      send<any>({ method, url: `${base}${path}`, headers: { authorization: auth, ...headers }, json });
    const onboarded = await call('POST', '/api/v1/onboarding', validOnboarding());
    expect(onboarded.status).toBe(201);
    const merchants = await call('GET', '/api/v1/merchant');
    const merchant = merchants.body.data.find(
      (m: { public_data: { public_key: string } }) => m.public_data.public_key === onboarded.body.data.public_key,
    );
    expect((await call('POST', '/api/v1/approve-merchant', { merchant_id: merchant.merchant_id })).status).toBe(200);
    const link = await call('POST', '/api/v1/pay-link', {
      merchant_key: onboarded.body.data.merchant_key,
      amount: '12.34',
    });
    const linkId = String(link.body.data.payment_link).split('/').pop()!;
    const intent = await call('POST', `/pay/api/links/${linkId}/intent`, {}, { 'idempotency-key': `k-${linkId}` });
    expect(intent.status).toBe(200);
    const pi = String(intent.body.client_secret).split('_secret_')[0]!;
    // The customer pays; the page closes before it reports, and no event reaches Remit (no endpoint).
    emu.dropEvents(pi, 10);
    const paid = await stripeJsConfirmPayment(emu, intent.body.client_secret, { card: '4242424242424242' });
    expect(paid.paymentIntent).toMatchObject({ status: 'succeeded' });
    return { linkId, pi };
  } finally {
    await app.close();
    await core.close();
  }
}

it('payments reconcile lists the PaymentIntent that kept money without a record, and records it once', async () => {
  const made = await cli('credentials', 'create', '--json');
  expect(made.code).toBe(0);
  const { client_id, secret_key } = JSON.parse(made.out);
  const { linkId, pi } = await paidWithoutRecord(basicAuth(client_id, secret_key));

  const first = await cli('payments', 'reconcile');
  expect(first).toMatchObject({ code: 0, err: '' });
  expect(first.out).toContain('payment intents listed: 1\n');
  expect(first.out).toContain('payment intents not matching: 1\n');
  expect(first.out).toContain(`  ${pi} link ${linkId} 1234 cents succeeded: money_without_record, recorded\n`);

  const json = await cli('payments', 'reconcile', '--json');
  expect(json.code).toBe(0);
  expect(JSON.parse(json.out).intents).toEqual({ listed: 1, mismatches: [] });
  const again = await cli('payments', 'reconcile');
  expect(again.out).toContain('payment intents not matching: 0\n');
});
