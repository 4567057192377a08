import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { bankAccountInput, cardInput } from '@remit/contract';
import {
  createCredentials,
  createProcessor,
  createSimulator,
  PROCESSOR_UNAVAILABLE_MESSAGE,
  schema,
  storeBankAccount,
  storeCard,
} from '@remit/core';
import { loadConfig } from './config.js';
import { startTestServer, tableCounts, type TestServer } from './testing/harness.js';
import { validOnboarding } from './testing/fixtures.js';
import { startProcess } from './testing/process.js';
import { seededDataDir } from './testing/data-dir.js';

// Random: a production start refuses a guessable key.
const key = randomBytes(32).toString('hex');

describe('REMIT_PROCESSOR', () => {
  it('defaults to the simulator in sandbox and to none in production', () => {
    expect(loadConfig({ REMIT_ENCRYPTION_KEY: key }).processor.name).toBe('simulator');
    expect(loadConfig({ REMIT_ENCRYPTION_KEY: key, REMIT_ENV: 'production' }).processor.name).toBe('none');
    expect(loadConfig({ REMIT_ENCRYPTION_KEY: key, REMIT_PROCESSOR: 'none' }).processor.name).toBe('none');
  });

  it('refuses an unknown name, and the simulator in production, naming the variable', () => {
    expect(() => loadConfig({ REMIT_ENCRYPTION_KEY: key, REMIT_PROCESSOR: 'paypal' })).toThrow(
      'REMIT_PROCESSOR must be one of simulator, stripe, none, not paypal',
    );
    expect(() =>
      loadConfig({ REMIT_ENCRYPTION_KEY: key, REMIT_ENV: 'production', REMIT_PROCESSOR: 'simulator' }),
    ).toThrow(/^REMIT_PROCESSOR=simulator is the sandbox simulator/);
  });

  it('stripe needs its secret key, and in production its webhook and publishable keys; it works in both environments', () => {
    expect(() => loadConfig({ REMIT_ENCRYPTION_KEY: key, REMIT_PROCESSOR: 'stripe' })).toThrow(
      /needs STRIPE_SECRET_KEY/,
    );
    const stripe = { REMIT_ENCRYPTION_KEY: key, REMIT_PROCESSOR: 'stripe', STRIPE_SECRET_KEY: 'sk_test_abc' };
    expect(loadConfig(stripe).processor.name).toBe('stripe');
    expect(() => loadConfig({ ...stripe, REMIT_ENV: 'production' })).toThrow(/needs STRIPE_WEBHOOK_SECRET/);
    expect(() => loadConfig({ ...stripe, REMIT_ENV: 'production', STRIPE_WEBHOOK_SECRET: 'whsec_x' })).toThrow(
      /needs STRIPE_PUBLISHABLE_KEY/,
    );
    const live = {
      ...stripe,
      REMIT_ENV: 'production',
      STRIPE_WEBHOOK_SECRET: 'whsec_x',
      STRIPE_PUBLISHABLE_KEY: 'pk_test_abc',
    };
    expect(loadConfig(live).processor.name).toBe('stripe');
    // The pay page loads Stripe.js from Stripe unless REMIT_STRIPE_JS_URL says otherwise.
    expect(loadConfig(live).processor.cardEntry).toEqual({
      publishableKey: 'pk_test_abc',
      jsUrl: 'https://js.stripe.com/v3/',
    });
    expect(loadConfig({ ...live, REMIT_STRIPE_JS_URL: 'http://127.0.0.1:9/v3/' }).processor.cardEntry?.jsUrl).toBe(
      'http://127.0.0.1:9/v3/',
    );
    expect(() => loadConfig({ ...stripe, REMIT_STRIPE_API_URL: 'ftp://stripe.test' })).toThrow(
      /REMIT_STRIPE_API_URL must be an http or https URL/,
    );
  });

  it('the processor that refuses answers every payment call with 503 processor_unavailable', async () => {
    const none = createProcessor('none', 'production');
    const refusal = { kind: 'unavailable', code: 'processor_unavailable', message: PROCESSOR_UNAVAILABLE_MESSAGE };
    const k = { idempotencyKey: 'k' };
    const card = { number: '4242424242424242', expMonth: 1, expYear: 2040 };
    await expect(none.authorizeCard(card, 100, { capture: true, now: new Date(), ...k })).rejects.toMatchObject(
      refusal,
    );
    await expect(
      none.startAchDebit({ routingNumber: '011000015', accountNumber: '1234', amountCents: 100, ...k }),
    ).rejects.toMatchObject(refusal);
    await expect(none.capture({ gatewayRef: 'g', amountCents: 100, ...k })).rejects.toMatchObject(refusal);
    await expect(none.cancel({ gatewayRef: 'g', ...k })).rejects.toMatchObject(refusal);
    await expect(none.refund({ gatewayRef: 'g', amountCents: 100, reference: 'r', ...k })).rejects.toMatchObject(
      refusal,
    );
    await expect(none.incrementAuthorization({ gatewayRef: 'g', amountCents: 200, ...k })).rejects.toMatchObject(
      refusal,
    );
    await expect(none.tokenizeCard(card, k)).rejects.toMatchObject(refusal);
    expect(() => none.checkCardNumber('4242424242424242')).toThrow(PROCESSOR_UNAVAILABLE_MESSAGE);
  });
});

describe('production with no connector', () => {
  let p: TestServer;
  let auth: [string, string];
  let merchantKey: string;
  let cardCustomer: number;
  let bankCustomer: number;

  beforeAll(async () => {
    p = await startTestServer({ env: 'production' });
    const creds = await createCredentials(p.core.ctx);
    auth = [creds.client_id, creds.secret_key];
    const onboarded = await p.http({ method: 'POST', path: '/api/v1/onboarding', auth, json: validOnboarding() });
    expect(onboarded.status).toBe(201);
    merchantKey = onboarded.body.data.merchant_key;
    // The acquirer approved it (production has no approve-merchant) ...
    const { db } = p.core.ctx;
    await db
      .update(schema.merchants)
      .set({ status: 'approved', approvedAt: new Date() })
      .where(eq(schema.merchants.clientId, creds.client_id));
    const [merchant] = await db.select().from(schema.merchants).where(eq(schema.merchants.clientId, creds.client_id));
    // ... and customers stored a card and a bank account earlier (when a connector accepted them).
    const add = async (first_name: string) => {
      const res = await p.http({
        method: 'POST',
        path: '/api/v1/customers/add',
        auth,
        json: { merchant_key: merchantKey, first_name },
      });
      expect(res.status).toBe(200);
      return res.body.data.customer_id as number;
    };
    cardCustomer = await add('Card');
    bankCustomer = await add('Bank');
    const now = new Date();
    const card = cardInput.parse({
      number: '4242424242424242',
      exp_month: 12,
      exp_year: now.getUTCFullYear() + 2,
      cvc: '123',
    });
    const accepted = { ...p.core.ctx, processor: createSimulator() };
    await storeCard(db, accepted, { merchantId: merchant!.id, customerId: cardCustomer, now }, card, 'Visa');
    const bank = bankAccountInput.parse({
      routing_number: '011000015',
      account_number: '000123456789',
      account_type: 'checking',
    });
    await storeBankAccount(
      db,
      p.core.ctx,
      { merchantId: merchant!.id, customerId: bankCustomer, now, defaultHolder: 'Bank' },
      bank,
    );
  });
  afterAll(() => p?.close());

  for (const [what, customer, extra] of [
    ['a card sale', () => cardCustomer, {}],
    ['a card preauthorization', () => cardCustomer, { preAuth: true }],
    ['an ACH debit', () => bankCustomer, {}],
  ] as const) {
    it(`${what} is refused with 503 processor_unavailable and nothing is written`, async () => {
      const before = await tableCounts(p.core);
      const res = await p.http({
        method: 'POST',
        path: `/api/v1/customers/charge/${customer()}`,
        auth,
        json: { merchant_key: merchantKey, amount: '10.00', order_id: 'no-connector', ...extra },
      });
      expect(res.status).toBe(503);
      expect(res.body).toMatchObject({
        result: false,
        code: 'processor_unavailable',
        message: PROCESSOR_UNAVAILABLE_MESSAGE,
      });
      expect(res.body.message).toContain('REMIT_PROCESSOR');
      expect(await tableCounts(p.core)).toEqual(before);
    });
  }
});

describe('start-up', () => {
  let dataDir = '';
  beforeAll(async () => {
    dataDir = await seededDataDir('remit-processor');
  });
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  // A real process: its start (tsx, migrations) can take a while on a busy machine.
  it('a production server with no connector, let start for a trial, says so in its log when it starts', {
    timeout: 120_000,
  }, async () => {
    const server = await startProcess('apps/server/src/main.ts', {
      REMIT_ENV: 'production',
      REMIT_ENCRYPTION_KEY: key,
      REMIT_DATA_DIR: dataDir,
      DATABASE_URL: '',
      REMIT_PROCESSOR: '',
      REMIT_WORKERS: 'off',
      PUBLIC_URL: 'https://pay.example.com',
      REMIT_ALLOW_NO_PROCESSOR: 'true',
      REMIT_ALLOW_NO_EMAIL: 'true',
      REMIT_ALLOW_NO_SMS: 'true',
    });
    try {
      const warning = server
        .output()
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as { level: number; msg: string; processor?: string })
        .find((l) => l.processor === 'none');
      expect(warning).toMatchObject({ level: 40 });
      expect(warning!.msg).toBe(
        'No payment processor is configured (REMIT_PROCESSOR): this production server refuses every payment with 503 processor_unavailable until a real connector is configured.',
      );
    } finally {
      await server.stop('SIGTERM');
    }
  });

  it('a sandbox server with the simulator prints no such warning', { timeout: 120_000 }, async () => {
    const sandboxDir = await seededDataDir('remit-processor-sandbox');
    onTestFinished(() => rmSync(sandboxDir, { recursive: true, force: true }));
    const server = await startProcess('apps/server/src/main.ts', {
      REMIT_ENV: 'sandbox',
      REMIT_ENCRYPTION_KEY: key,
      REMIT_DATA_DIR: sandboxDir,
      DATABASE_URL: '',
      REMIT_PROCESSOR: '',
      REMIT_WORKERS: 'off',
      LOG_LEVEL: 'info',
    });
    try {
      expect(server.output()).toContain('"processor":"simulator"');
      expect(server.output()).not.toContain('No payment processor is configured');
    } finally {
      await server.stop('SIGTERM');
    }
  });
});
