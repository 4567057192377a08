import { afterAll, beforeAll, expect, it } from 'vitest';
import { openCore, type StripeProcessor } from '@remit/core';
import { buildApp } from './app.js';
import { coreOptions, loadConfig } from './config.js';
import { newMerchant } from './testing/fixtures.js';
import type { TestServer } from './testing/harness.js';
import { gatewayRefOf, merchantPost } from './testing/payments.js';
import { stripeCardCustomer } from './testing/stripe-cards.js';
import { basicAuth, send } from './testing/http.js';
import { startStripeEmulator, type StripeEmulator } from './testing/stripe-emulator.js';
import { runCliCaptured, stripeCliEnv } from './testing/cli.js';
import { registerPayPageDomain } from './wallet-domain.js';

/**
 * The operator's side of Stripe: `payments reconcile` exits 1 when Stripe refused a refund Remit had
 * answered as done, `payments refused` lists it; `wallets register-domain` registers the pay page's
 * domain once, as the server does at start.
 */
let emu: StripeEmulator;
let env: Record<string, string>;
let drop: () => Promise<void>;
beforeAll(async () => {
  emu = await startStripeEmulator();
  ({ env, drop } = await stripeCliEnv(emu, 'remit_cli_refused', { PUBLIC_URL: 'https://pay.example.com' }));
});
afterAll(async () => {
  await drop?.();
  await emu?.close();
});

const cli = (...args: string[]) => runCliCaptured(args, env);

/** A card sale refunded through the API while Stripe answered 5xx, then refunded in full at Stripe (on PGlite one process owns the folder: closed before the CLI runs). */
async function refundStripeWillRefuse(auth: [string, string]): Promise<{ sale: string; refund: string; pi: string }> {
  const core = await openCore({ ...coreOptions(loadConfig(env)), publicUrl: 'http://127.0.0.1' });
  const app = await buildApp(core);
  const base = await app.listen({ port: 0, host: '127.0.0.1' });
  try {
    // The server as the test helpers reach it.
    const s = {
      core,
      http: ({ path, auth: a, headers, ...rest }: Parameters<TestServer['http']>[0]) =>
        send({
          ...rest,
          url: `${base}${path}`,
          headers: { ...(a ? { authorization: basicAuth(...a) } : {}), ...headers },
        }),
    } as unknown as TestServer;
    const m = await newMerchant(s, { auth });
    const customer = await stripeCardCustomer(s, m, emu);
    const sold = await merchantPost(s, m, `/customers/charge/${customer}`, { amount: '20.00', order_id: 'cli' });
    expect(sold.status).toBe(200);
    const sale = sold.body.transaction_id as string;
    const pi = await gatewayRefOf(s, sale);
    emu.failRequests(/^\/v1\/refunds$/, 3, 503);
    const refund = await merchantPost(s, m, '/order/sales-return', { transaction_id: sale, amount: '5.00' });
    expect(refund.status).toBe(200);
    await (core.ctx.processor as StripeProcessor).stripe.refunds.create({
      payment_intent: pi,
      amount: 2000,
      reverse_transfer: true,
    });
    return { sale, refund: refund.body.data.transaction_id, pi };
  } finally {
    await app.close();
    await core.close();
  }
}

it('payments reconcile exits 1 naming the refused refund; payments refused lists it; the next pass exits 0', async () => {
  const made = await cli('credentials', 'create', '--json');
  const { client_id, secret_key } = JSON.parse(made.out);
  const { sale, refund, pi } = await refundStripeWillRefuse([client_id, secret_key]);

  const first = await cli('payments', 'reconcile');
  expect(first.code).toBe(1);
  expect(first.out).toContain('calls refused: 1\n');
  const cause =
    'Stripe: StripeInvalidRequestError amount_too_large: Refund amount ($5.00) is greater than unrefunded amount on charge ($0.00)';
  expect(first.err).toMatch(
    new RegExp(
      `^refused: \\S+Z  refund   ${refund} of ${sale}  m_\\S+  5  ${pi}  ${cause.replace(/[$().]/g, '\\$&')}\\n`,
    ),
  );
  expect(first.err).toContain(
    '1 capture, void or refund refused by the processor: its record is failed (payments refused).\n',
  );

  const listed = await cli('payments', 'refused');
  expect(listed.code).toBe(0);
  expect(listed.out.split('\n').filter(Boolean)).toHaveLength(1);
  expect(listed.out).toContain(`refund   ${refund} of ${sale}`);
  expect(listed.err).toBe('1 call refused by the processor.\n');
  const json = JSON.parse((await cli('payments', 'refused', '--json')).out);
  expect(json).toEqual([
    expect.objectContaining({ operation: 'refund', transaction_id: refund, original_transaction_id: sale, cause }),
  ]);

  const again = await cli('payments', 'reconcile', '--json');
  expect(again.code).toBe(0);
  expect(JSON.parse(again.out)).toMatchObject({ calls: { confirmed: 0, refused: 0, left: 0 }, refusals: [] });
}, 300_000);

it("wallets register-domain: the pay page's domain created once at Stripe, found again after", async () => {
  const creates = () => emu.requests.filter((r) => r.method === 'POST' && r.path === '/v1/payment_method_domains');
  const first = await cli('wallets', 'register-domain');
  expect(first.code).toBe(0);
  const [d] = [...emu.paymentMethodDomains.values()];
  expect(d).toMatchObject({ domain_name: 'pay.example.com', enabled: true });
  expect(first.out).toBe(`pay.example.com: created (${d!.id}); Apple Pay active, Google Pay active\n`);
  const second = await cli('wallets', 'register-domain', 'pay.example.com', '--json');
  expect(JSON.parse(second.out)).toEqual({
    domain: 'pay.example.com',
    id: d!.id,
    outcome: 'registered',
    apple_pay: 'active',
    google_pay: 'active',
  });
  // At start the server does the same: found, nothing created.
  const core = await openCore(coreOptions(loadConfig(env)));
  try {
    const lines: string[] = [];
    const log = {
      info: (_: object, msg: string) => lines.push(msg),
      warn: (_: object, msg: string) => lines.push(msg),
    };
    expect(await registerPayPageDomain(core.ctx, log)).toMatchObject({ outcome: 'registered' });
    expect(lines).toEqual(["the pay page's domain is registered for wallets (registered)"]);
    // Disabled in Stripe's Dashboard: enabled again, still one.
    await (core.ctx.processor as StripeProcessor).stripe.paymentMethodDomains.update(d!.id, { enabled: false });
    expect(await registerPayPageDomain(core.ctx, log)).toMatchObject({ outcome: 'enabled', id: d!.id });
    expect(emu.paymentMethodDomains.get(d!.id)).toMatchObject({ enabled: true });
    // A loopback PUBLIC_URL names no domain wallets can run on: nothing is asked.
    expect(await registerPayPageDomain({ ...core.ctx, publicUrl: 'http://127.0.0.1:8080' }, log)).toBeNull();
  } finally {
    await core.close();
  }
  expect(creates()).toHaveLength(1);
  expect(emu.paymentMethodDomains.size).toBe(1);

  const other = await cli('wallets', 'register-domain', 'Shop.Example.org');
  expect(other.out).toMatch(/^shop\.example\.org: created \(pmd_/);
  expect(creates()).toHaveLength(2);
  const bad = await runCliCaptured(['wallets', 'register-domain'], { ...env, PUBLIC_URL: 'http://localhost:8080' });
  expect(bad).toMatchObject({ code: 1, out: '' });
  expect(bad.err).toBe('PUBLIC_URL (http://localhost:8080) names no domain wallets can run on: give one.\n');
  expect(await cli('wallets', 'register-domain', '127.0.0.1')).toMatchObject({
    code: 1,
    err: '127.0.0.1 names no domain wallets can run on.\n',
  });
}, 300_000);
