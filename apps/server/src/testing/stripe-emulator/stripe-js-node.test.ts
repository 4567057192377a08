import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startStripeEmulator,
  stripeJsConfirmPayment,
  stripeJsConfirmSetup,
  type StripeEmulator,
} from '../stripe-emulator.js';

/**
 * The emulator's wire as the server (official `stripe` SDK, secret key) and the browser (Stripe.js's
 * calls, publishable key + client secret) both use it: every outcome Stripe's test cards and banks
 * give, and the events it delivers signed to a webhook endpoint.
 */

let emu: StripeEmulator;
let stripe: Stripe;
let hook: Server;
const received: Stripe.Event[] = [];
let destination: string;

beforeAll(async () => {
  emu = await startStripeEmulator();
  const url = new URL(emu.url);
  stripe = new Stripe(emu.secretKey, {
    host: url.hostname,
    port: Number(url.port),
    protocol: 'http',
    maxNetworkRetries: 0,
  });
  hook = createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      // The signature is checked with the SDK's own verifier, as Remit's route does.
      received.push(stripe.webhooks.constructEvent(raw, String(req.headers['stripe-signature']), emu.webhookSecret));
      res.end('{}');
    });
  });
  await new Promise<void>((r) => hook.listen(0, '127.0.0.1', r));
  emu.deliverTo(`http://127.0.0.1:${(hook.address() as AddressInfo).port}/`);
  const account = await stripe.accounts.create({
    type: 'custom',
    business_profile: { name: 'Ada Bakery' },
    external_account: {
      object: 'bank_account',
      country: 'US',
      currency: 'usd',
      routing_number: '110000000',
      account_number: '000123456789',
    },
  } as Stripe.AccountCreateParams);
  destination = account.id;
});
afterAll(async () => {
  await new Promise<void>((r) => hook?.close(() => r()));
  await emu?.close();
});

const linkIntent = (extra: Partial<Stripe.PaymentIntentCreateParams> = {}) =>
  stripe.paymentIntents.create(
    {
      amount: 1000,
      currency: 'usd',
      allowed_payment_method_types: ['card', 'us_bank_account'],
      application_fee_amount: 59,
      transfer_data: { destination },
      metadata: { remit_link: `ord_${Math.random().toString(36).slice(2)}`, remit_key: 'k1' },
      ...extra,
    },
    { idempotencyKey: `link-${Math.random()}` },
  );
const typesFor = async (pid: string) => {
  await emu.eventsSettled();
  return received.filter((e) => (e.data.object as { id: string }).id === pid).map((e) => e.type);
};

describe('a PaymentIntent the server creates and the browser confirms', () => {
  it('4242: succeeds; the fee and destination are kept; the events arrive signed, in order', async () => {
    const pi = await linkIntent();
    expect(pi).toMatchObject({
      status: 'requires_payment_method',
      application_fee_amount: 59,
      transfer_data: { destination },
      client_secret: expect.stringMatching(new RegExp(`^${pi.id}_secret_`)),
    });
    const r = await stripeJsConfirmPayment(emu, pi.client_secret!, { card: '4242424242424242' });
    expect(r.error).toBeUndefined();
    expect(r.paymentIntent).toMatchObject({ id: pi.id, status: 'succeeded', amount_received: 1000 });
    // The browser's view has no metadata or money flows; the server's has them.
    expect(r.paymentIntent!.metadata).toBeUndefined();
    expect(await stripe.paymentIntents.retrieve(pi.id, { expand: ['payment_method'] })).toMatchObject({
      status: 'succeeded',
      metadata: pi.metadata,
      payment_method: { type: 'card', card: { brand: 'visa', last4: '4242' } },
    });
    expect(await typesFor(pi.id)).toEqual(['payment_intent.created', 'payment_intent.succeeded']);
    expect(emu.requests.filter((q) => q.path === '/v1/payment_methods').at(-1)!.auth).toBe('publishable');
  });

  it("4000000000000002: declined with Stripe's error; the same PaymentIntent then takes another card", async () => {
    const pi = await linkIntent();
    const r = await stripeJsConfirmPayment(emu, pi.client_secret!, { card: '4000000000000002' });
    expect(r.error).toMatchObject({
      type: 'card_error',
      code: 'card_declined',
      decline_code: 'generic_decline',
      message: 'Your card was declined.',
      payment_intent: { id: pi.id, status: 'requires_payment_method' },
    });
    expect((await stripeJsConfirmPayment(emu, pi.client_secret!, { card: '4000000000009995' })).error).toMatchObject({
      decline_code: 'insufficient_funds',
      message: 'Your card has insufficient funds.',
    });
    expect(
      (await stripeJsConfirmPayment(emu, pi.client_secret!, { card: '4242424242424242' })).paymentIntent,
    ).toMatchObject({ status: 'succeeded' });
    expect(await typesFor(pi.id)).toEqual([
      'payment_intent.created',
      'payment_intent.payment_failed',
      'payment_intent.payment_failed',
      'payment_intent.succeeded',
    ]);
  });

  it('3-D Secure (4000002500003155) passed, and (4000000000003220) failed', async () => {
    const a = await linkIntent();
    expect(
      (await stripeJsConfirmPayment(emu, a.client_secret!, { card: '4000002500003155', threeDs: 'complete' }))
        .paymentIntent,
    ).toMatchObject({ status: 'succeeded' });
    expect(await typesFor(a.id)).toEqual([
      'payment_intent.created',
      'payment_intent.requires_action',
      'payment_intent.succeeded',
    ]);
    const b = await linkIntent();
    const r = await stripeJsConfirmPayment(emu, b.client_secret!, { card: '4000000000003220', threeDs: 'fail' });
    expect(r.error).toMatchObject({
      code: 'payment_intent_authentication_failure',
      payment_intent: { status: 'requires_payment_method' },
    });
    expect(await typesFor(b.id)).toEqual([
      'payment_intent.created',
      'payment_intent.requires_action',
      'payment_intent.payment_failed',
    ]);
  });

  it('capture_method manual: held (requires_capture), then captured by the server', async () => {
    const pi = await linkIntent({ capture_method: 'manual' });
    expect(
      (await stripeJsConfirmPayment(emu, pi.client_secret!, { card: '4242424242424242' })).paymentIntent,
    ).toMatchObject({ status: 'requires_capture', amount_received: 0 });
    expect(await stripe.paymentIntents.capture(pi.id)).toMatchObject({ status: 'succeeded', amount_received: 1000 });
    expect(await typesFor(pi.id)).toEqual([
      'payment_intent.created',
      'payment_intent.amount_capturable_updated',
      'payment_intent.succeeded',
    ]);
  });

  it('setup_future_usage off_session: the card is attached to the customer for later charges', async () => {
    const customer = await stripe.customers.create({ email: 'ada@example.com' });
    const pi = await linkIntent({ customer: customer.id, setup_future_usage: 'off_session' });
    const r = await stripeJsConfirmPayment(emu, pi.client_secret!, { card: '4242424242424242' });
    const methods = await stripe.paymentMethods.list({ customer: customer.id, type: 'card' });
    expect(methods.data.map((m) => m.id)).toEqual([r.paymentIntent!.payment_method]);
    const later = await stripe.paymentIntents.create({
      amount: 700,
      currency: 'usd',
      customer: customer.id,
      payment_method: methods.data[0]!.id,
      off_session: true,
      confirm: true,
    });
    expect(later.status).toBe('succeeded');
  });

  it('the server updates the amount before payment; the charge shows the card; a paid intent cannot change', async () => {
    const pi = await linkIntent();
    expect(await stripe.paymentIntents.update(pi.id, { amount: 1250, application_fee_amount: 66 })).toMatchObject({
      amount: 1250,
      application_fee_amount: 66,
    });
    await stripeJsConfirmPayment(emu, pi.client_secret!, { card: '4242424242424242' });
    expect(await stripe.paymentIntents.retrieve(pi.id, { expand: ['latest_charge'] })).toMatchObject({
      amount_received: 1250,
      latest_charge: { payment_method_details: { type: 'card', card: { brand: 'visa', last4: '4242' } } },
    });
    await expect(stripe.paymentIntents.update(pi.id, { amount: 900 })).rejects.toMatchObject({
      code: 'payment_intent_unexpected_state',
    });
  });

  it('cancel: canceled, with its event; a browser cannot confirm it any more', async () => {
    const pi = await linkIntent();
    expect(await stripe.paymentIntents.cancel(pi.id)).toMatchObject({ status: 'canceled' });
    expect((await stripeJsConfirmPayment(emu, pi.client_secret!, { card: '4242424242424242' })).error).toMatchObject({
      code: 'payment_intent_unexpected_state',
    });
    expect(await typesFor(pi.id)).toEqual(['payment_intent.created', 'payment_intent.canceled']);
  });
});

describe('US bank accounts', () => {
  it('instant verification (Financial Connections): processing at once, then settled', async () => {
    const pi = await linkIntent();
    const r = await stripeJsConfirmPayment(emu, pi.client_secret!, { bank: 'instant' });
    expect(r.paymentIntent).toMatchObject({ status: 'processing' });
    emu.settleAch(pi.id, 'succeeded');
    expect(await typesFor(pi.id)).toEqual([
      'payment_intent.created',
      'payment_intent.processing',
      'payment_intent.succeeded',
    ]);
  });

  it('microdeposits: requires_action with the hosted page; a wrong code is refused; the right one → processing; settled failed', async () => {
    const pi = await linkIntent();
    const r = await stripeJsConfirmPayment(emu, pi.client_secret!, { bank: 'microdeposits' });
    expect(r.paymentIntent).toMatchObject({
      status: 'requires_action',
      next_action: {
        type: 'verify_with_microdeposits',
        verify_with_microdeposits: { microdeposit_type: 'descriptor_code' },
      },
    });
    const page = r.paymentIntent!.next_action.verify_with_microdeposits.hosted_verification_url as string;
    expect(page).toBe(`${emu.url}/microdeposit/${pi.id}`);
    expect(await (await fetch(page)).text()).toContain('Descriptor code');
    const wrong = await fetch(page, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'descriptor_code=SM00XX',
    });
    expect(wrong.status).toBe(400);
    expect(await wrong.text()).toContain('You have 2 verification attempts remaining.');
    // Stripe's API takes the amounts too.
    await expect(stripe.paymentIntents.verifyMicrodeposits(pi.id, { amounts: [32, 45] })).resolves.toMatchObject({
      status: 'processing',
    });
    expect(() => emu.settleAch(pi.id, 'failed')).not.toThrow();
    expect(emu.paymentIntents.get(pi.id)).toMatchObject({
      status: 'requires_payment_method',
      last_payment_error: { code: 'payment_method_microdeposit_failed' },
    });
    expect(await typesFor(pi.id)).toEqual([
      'payment_intent.created',
      'payment_intent.requires_action',
      'payment_intent.processing',
      'payment_intent.payment_failed',
    ]);
  });

  it('a bank payment without a mandate from the browser is refused', async () => {
    const pi = await linkIntent();
    const pm = await fetch(`${emu.url}/v1/payment_methods`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `key=${emu.publishableKey}&type=us_bank_account&us_bank_account[routing_number]=110000000&us_bank_account[account_number]=000123456789`,
    }).then((r) => r.json());
    const res = await fetch(`${emu.url}/v1/payment_intents/${pi.id}/confirm`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `key=${emu.publishableKey}&client_secret=${pi.client_secret}&payment_method=${pm.id}`,
    });
    expect(res.status).toBe(400);
    expect((await res.json()).error).toMatchObject({ param: 'mandate_data', code: 'parameter_missing' });
  });
});

describe('SetupIntents', () => {
  it('a card saved for off-session use: succeeded, attached to the customer, setup_intent.succeeded sent', async () => {
    const customer = await stripe.customers.create({});
    const si = await stripe.setupIntents.create({
      customer: customer.id,
      usage: 'off_session',
      allowed_payment_method_types: ['card'],
      metadata: { remit_card_request: 'cr_1' },
    });
    const r = await stripeJsConfirmSetup(emu, si.client_secret!, { card: '4242424242424242' });
    expect(r.setupIntent).toMatchObject({ id: si.id, status: 'succeeded' });
    expect(await stripe.paymentMethods.retrieve(r.setupIntent!.payment_method)).toMatchObject({
      customer: customer.id,
      card: { last4: '4242' },
    });
    expect(await typesFor(si.id)).toEqual(['setup_intent.created', 'setup_intent.succeeded']);
  });

  it('3-D Secure failed and a decline: Stripe.js errors; a bank by microdeposits succeeds once verified', async () => {
    const customer = await stripe.customers.create({});
    const si = await stripe.setupIntents.create({
      customer: customer.id,
      allowed_payment_method_types: ['card', 'us_bank_account'],
    });
    expect(
      (await stripeJsConfirmSetup(emu, si.client_secret!, { card: '4000002500003155', threeDs: 'fail' })).error,
    ).toMatchObject({ code: 'setup_intent_authentication_failure' });
    expect((await stripeJsConfirmSetup(emu, si.client_secret!, { card: '4000000000000002' })).error).toMatchObject({
      code: 'card_declined',
      setup_intent: { id: si.id },
    });
    const r = await stripeJsConfirmSetup(emu, si.client_secret!, { bank: 'microdeposits' });
    expect(r.setupIntent).toMatchObject({
      status: 'requires_action',
      next_action: { type: 'verify_with_microdeposits' },
    });
    expect(await stripe.setupIntents.verifyMicrodeposits(si.id, { descriptor_code: 'SM11AA' })).toMatchObject({
      status: 'succeeded',
    });
    expect(await typesFor(si.id)).toEqual([
      'setup_intent.created',
      'setup_intent.requires_action',
      'setup_intent.setup_failed',
      'setup_intent.setup_failed',
      'setup_intent.requires_action',
      'setup_intent.succeeded',
    ]);
  });
});

describe('keys', () => {
  it("the publishable key does only what Stripe.js does, and only with the intent's client secret", async () => {
    const pi = await linkIntent();
    const asBrowser = (path: string, body = '') =>
      fetch(`${emu.url}${path}`, {
        method: body ? 'POST' : 'GET',
        headers: { authorization: `Bearer ${emu.publishableKey}`, 'content-type': 'application/x-www-form-urlencoded' },
        ...(body ? { body } : {}),
      });
    const list = await asBrowser('/v1/payment_intents');
    expect(list.status).toBe(401);
    expect((await list.json()).error.message).toMatch(/cannot be made with a publishable API key/);
    const wrong = await asBrowser(`/v1/payment_intents/${pi.id}?client_secret=${pi.id}_secret_guess`);
    expect(wrong.status).toBe(400);
    expect((await wrong.json()).error).toMatchObject({ param: 'client_secret' });
    const right = await asBrowser(`/v1/payment_intents/${pi.id}?client_secret=${pi.client_secret}`);
    expect(await right.json()).toMatchObject({ id: pi.id, amount: 1000, client_secret: pi.client_secret });
    expect((await asBrowser(`/v1/payment_intents/${pi.id}/cancel`, 'x=1')).status).toBe(401);
  });

  it("refuseRawCardData: a card number sent with the secret key gets Stripe's raw card data error; Stripe.js still works", async () => {
    const strict = await startStripeEmulator({ refuseRawCardData: true });
    try {
      const url = new URL(strict.url);
      const sdk = new Stripe(strict.secretKey, {
        host: url.hostname,
        port: Number(url.port),
        protocol: 'http',
        maxNetworkRetries: 0,
      });
      const refused = await sdk.paymentMethods
        .create({ type: 'card', card: { number: '4242424242424242', exp_month: 12, exp_year: 2040, cvc: '123' } })
        .catch((e: Stripe.errors.StripeError) => e);
      expect(refused).toMatchObject({
        type: 'StripeInvalidRequestError',
        statusCode: 400,
        message: expect.stringMatching(/^Sending credit card numbers directly to the Stripe API is generally unsafe/),
      });
      const pi = await sdk.paymentIntents.create({ amount: 500, currency: 'usd' });
      expect(
        (await stripeJsConfirmPayment(strict, pi.client_secret!, { card: '4242424242424242' })).paymentIntent,
      ).toMatchObject({ status: 'succeeded' });
    } finally {
      await strict.close();
    }
  });
});

describe('reconciliation and test controls', () => {
  it('search by metadata and created, list pages, and intents() as the truth', async () => {
    const link = `ord_recon_${Date.now()}`;
    const made: Stripe.PaymentIntent[] = [];
    for (let i = 0; i < 3; i++) made.push(await linkIntent({ metadata: { remit_link: link, remit_key: `rk_${i}` } }));
    await stripeJsConfirmPayment(emu, made[1]!.client_secret!, { card: '4242424242424242' });
    const since = made[0]!.created;
    const found = await stripe.paymentIntents.search({
      query: `metadata['remit_link']:'${link}' AND created>=${since}`,
      limit: 2,
    });
    expect(found.data).toHaveLength(2);
    expect(found.has_more).toBe(true);
    const rest = await stripe.paymentIntents.search({
      query: `metadata['remit_link']:'${link}' AND created>=${since}`,
      limit: 2,
      page: found.next_page!,
    });
    expect([...found.data, ...rest.data].map((p) => p.id).sort()).toEqual(made.map((p) => p.id).sort());
    expect(
      (
        await stripe.paymentIntents.search({ query: `metadata['remit_link']:'${link}' AND status:'succeeded'` })
      ).data.map((p) => p.id),
    ).toEqual([made[1]!.id]);
    const all: string[] = [];
    for await (const p of stripe.paymentIntents.list({ created: { gte: since }, limit: 2 })) all.push(p.id);
    expect(all).toEqual(expect.arrayContaining(made.map((p) => p.id)));
    expect(emu.intents().find((x) => x.id === made[1]!.id)).toEqual({
      id: made[1]!.id,
      status: 'succeeded',
      amount: 1000,
      amount_received: 1000,
      amount_refunded: 0,
      capture_method: 'automatic',
      metadata: { remit_link: link, remit_key: 'rk_1' },
    });
  });

  it('dropEvents loses the next event about an intent; holdEvents + sendLate delivers it afterwards', async () => {
    const a = await linkIntent();
    emu.dropEvents(a.id);
    await stripeJsConfirmPayment(emu, a.client_secret!, { card: '4242424242424242' });
    expect(await typesFor(a.id)).toEqual(['payment_intent.created']);
    expect(
      emu.deliveries.filter((d) => (d.event.data.object as { id: string }).id === a.id).map((d) => d.outcome),
    ).toEqual([200, 'dropped']);

    const b = await linkIntent();
    emu.holdEvents(b.id);
    await stripeJsConfirmPayment(emu, b.client_secret!, { card: '4242424242424242' });
    expect(await typesFor(b.id)).toEqual(['payment_intent.created']);
    const late = await emu.sendLate(b.id);
    expect(late.map((e) => e.type)).toEqual(['payment_intent.succeeded']);
    expect(await typesFor(b.id)).toEqual(['payment_intent.created', 'payment_intent.succeeded']);
  });

  it('serves the Stripe.js stand-in as a script, and answers browsers from any origin', async () => {
    const js = await fetch(emu.jsUrl);
    expect(js.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(await js.text()).toContain('window.Stripe = Stripe');
    const pre = await fetch(`${emu.url}/v1/payment_methods`, {
      method: 'OPTIONS',
      headers: { origin: 'http://127.0.0.1:1', 'access-control-request-method': 'POST' },
    });
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-origin')).toBe('*');
  });
});
