import { createHash, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { startTestServer, type TestServer } from '../testing/harness.js';
import { newMerchant } from '../testing/fixtures.js';
import { deliverStripeEvent, onboardStripeMerchant, type StripeMerchant } from '../testing/stripe-merchants.js';
import { eventsOf, merchantPost, noonClock, rows } from '../testing/payments.js';
import { stripeCardCustomer } from '../testing/stripe-cards.js';
import { emulatedStripe, startStripeEmulator, type StripeEmulator } from '../testing/stripe-emulator.js';

/**
 * What Stripe still needs from a merchant, over HTTP against the Stripe emulator: the account's
 * requirements in `GET /merchant`, `merchant.verification` once per change, the verification link
 * (a fresh Account Link at each visit, Stripe's return re-reading the account), and a merchant
 * whose charges Stripe holds off refusing new payments (409 merchant_restricted) until lifted.
 */

let emu: StripeEmulator;
let s: TestServer;
let auth: [string, string];
const NOW = noonClock();
// Generous: a loaded machine starts a server slowly.
beforeAll(async () => {
  emu = await startStripeEmulator();
  s = await startTestServer({ now: NOW, processor: emulatedStripe(emu) });
  auth = await s.credentials();
}, 180_000);
afterAll(async () => {
  await s?.close();
  await emu?.close();
});

type Onboarded = StripeMerchant;
const onboard = () => onboardStripeMerchant(s, auth);
const deliver = async (event: object) => {
  const res = await deliverStripeEvent(s, emu, event);
  expect(res.status).toBe(200);
  return res.body.handled as string;
};

const merchant = async (id: string) =>
  (await s.http({ method: 'GET', path: `/api/v1/merchant/${id}`, auth })).body.data;
const statusOf = async (id: string) =>
  (await rows<{ status: string }>(s, sql`select status from merchants where id = ${id}`))[0]!.status;

const DEADLINE = 1_900_000_000;
const UPCOMING = 1_950_000_000;
const DOC = 'individual.verification.document';

describe('verification: the account as Stripe holds it, in GET /merchant and merchant.verification', () => {
  it('requirements with errors and a deadline are shown, with labels; the webhook is sent once', async () => {
    const m = await onboard();
    expect((await merchant(m.merchant_id)).verification).toMatchObject({ status: 'pending_review', currently_due: [] });
    const asked = emu.requireOf(m.account, {
      requirements: {
        currently_due: [DOC, 'company.tax_id'],
        eventually_due: [DOC, 'company.tax_id', 'person_1Abc.verification.additional_document'],
        past_due: [],
        pending_verification: ['representative.dob.day'],
        errors: [{ requirement: DOC, code: 'verification_document_expired', reason: 'The document has expired.' }],
        current_deadline: DEADLINE,
        disabled_reason: 'requirements.pending_verification',
      },
      future_requirements: {
        eventually_due: ['company.verification.proof_of_registration'],
        current_deadline: UPCOMING,
      },
    });
    expect(await deliver(asked)).toBe('applied');
    const expected = {
      status: 'action_required',
      currently_due: [
        { requirement: 'company.tax_id', label: 'Tax ID number (EIN) of the business' },
        { requirement: DOC, label: 'Identity document of the owner' },
      ],
      eventually_due: [
        { requirement: 'company.tax_id', label: 'Tax ID number (EIN) of the business' },
        { requirement: DOC, label: 'Identity document of the owner' },
        {
          requirement: 'person_1Abc.verification.additional_document',
          label: 'Additional identity document (proof of address) of a person of the business',
        },
      ],
      past_due: [],
      pending_verification: [{ requirement: 'representative.dob.day', label: 'Date of birth of the representative' }],
      errors: [
        {
          requirement: DOC,
          label: 'Identity document of the owner',
          code: 'verification_document_expired',
          reason: 'The document has expired.',
        },
      ],
      deadline: new Date(DEADLINE * 1000).toISOString(),
      disabled_reason: 'requirements.pending_verification',
      charges_enabled: false,
      payouts_enabled: false,
      upcoming: {
        eventually_due: [
          { requirement: 'company.verification.proof_of_registration', label: 'Proof of registration of the business' },
        ],
        deadline: new Date(UPCOMING * 1000).toISOString(),
      },
    };
    expect((await merchant(m.merchant_id)).verification).toEqual(expected);
    const listed = (await s.http({ method: 'GET', path: '/api/v1/merchant', auth })).body.data;
    expect(listed.find((x: { merchant_id: string }) => x.merchant_id === m.merchant_id).verification).toEqual(expected);
    expect(await eventsOf(s, m.merchant_id, 'merchant.verification')).toEqual([
      { merchant_id: m.merchant_id, verification: expected },
    ]);

    // The same account again, under another event id: nothing sent.
    expect(await deliver(emu.event('account.updated', structuredClone(emu.accounts.get(m.account)!)))).toBe('ignored');
    expect(await eventsOf(s, m.merchant_id, 'merchant.verification')).toHaveLength(1);
    expect(await statusOf(m.merchant_id)).toBe('pending');
  });

  it('enabled by Stripe: approved once, the verification reads complete; a rejection reads rejected', async () => {
    const m = await onboard();
    const enabled = emu.requireOf(m.account, {
      charges_enabled: true,
      payouts_enabled: true,
      requirements: { currently_due: [], errors: [], current_deadline: null, disabled_reason: null },
    });
    expect(await deliver(enabled)).toBe('applied');
    expect(await deliver(emu.event('account.updated', structuredClone(emu.accounts.get(m.account)!)))).toBe('ignored');
    expect(await statusOf(m.merchant_id)).toBe('approved');
    expect(await eventsOf(s, m.merchant_id, 'merchant.approval')).toHaveLength(1);
    const sent = await eventsOf(s, m.merchant_id, 'merchant.verification');
    expect(sent.map((e) => e.verification.status)).toEqual(['complete']);
    expect((await merchant(m.merchant_id)).verification).toMatchObject({
      status: 'complete',
      charges_enabled: true,
      payouts_enabled: true,
    });

    const other = await onboard();
    const rejected = emu.requireOf(other.account, { requirements: { disabled_reason: 'rejected.fraud' } });
    expect(await deliver(rejected)).toBe('applied');
    expect((await merchant(other.merchant_id)).verification).toMatchObject({
      status: 'rejected',
      disabled_reason: 'rejected.fraud',
    });
  });
});

describe('a merchant whose charges Stripe holds off takes no new payment', () => {
  let m: Onboarded;
  let card: number;
  const order = () => `o-${randomUUID()}`;
  const newLink = () =>
    merchantPost(s, m, '/pay-link', { amount: '10.00' }).then((r) => {
      expect(r.status).toBe(200);
      return String(r.body.data.payment_link).split('/').pop()!;
    });
  const intent = (linkId: string) =>
    s.http({
      method: 'POST',
      path: `/pay/api/links/${linkId}/intent`,
      json: {},
      headers: { 'idempotency-key': randomUUID() },
    });
  const restrict = () =>
    deliver(
      emu.requireOf(m.account, {
        charges_enabled: false,
        requirements: { past_due: [DOC], currently_due: [DOC], disabled_reason: 'requirements.past_due' },
      }),
    );
  const lift = () =>
    deliver(
      emu.requireOf(m.account, {
        charges_enabled: true,
        requirements: { past_due: [], currently_due: [], disabled_reason: null },
      }),
    );

  beforeAll(async () => {
    m = await onboard();
    expect(await deliver(emu.reviewAccount(m.account, true))).toBe('applied');
    card = await stripeCardCustomer(s, m, emu);
  });

  it('restricted: 409 merchant_restricted with the reason everywhere a payment starts; nothing made at Stripe; refunds and voids go through', async () => {
    const sale = await merchantPost(s, m, `/customers/charge/${card}`, { amount: '20.00', order_id: order() });
    expect(sale.status).toBe(200);
    const other = await merchantPost(s, m, `/customers/charge/${card}`, { amount: '8.00', order_id: order() });
    const openLink = await newLink();

    expect(await restrict()).toBe('applied');
    expect(await statusOf(m.merchant_id)).toBe('approved');
    expect((await merchant(m.merchant_id)).verification).toMatchObject({
      status: 'restricted',
      disabled_reason: 'requirements.past_due',
      charges_enabled: false,
      past_due: [{ requirement: DOC, label: 'Identity document of the owner' }],
    });
    const intentsBefore = emu.paymentIntents.size;
    const refusal = {
      result: false,
      code: 'merchant_restricted',
      message:
        'This business cannot take payments right now: the payment processor has paused its charges (requirements.past_due).',
    };
    const tries = [
      await intent(openLink),
      await merchantPost(s, m, '/pay-link', { amount: '10.00' }),
      await merchantPost(s, m, '/requests', { amount: '5.00', order_id: order(), email: 'payer@example.com' }),
      await merchantPost(s, m, `/customers/charge/${card}`, { amount: '5.00', order_id: order() }),
      await merchantPost(s, m, `/customers/charge/${card}`, { amount: '5.00', order_id: order(), preAuth: true }),
    ];
    for (const res of tries) {
      expect(res.status, res.text).toBe(409);
      expect(res.body).toMatchObject(refusal);
    }
    expect(emu.paymentIntents.size).toBe(intentsBefore);
    // The pay page says so instead of opening Stripe's fields.
    const view = await s.http({ method: 'GET', path: `/pay/api/links/${openLink}` });
    expect(view.body.merchant).toMatchObject({ accepts_payments: false, restricted: true });

    const refund = await merchantPost(s, m, '/order/sales-return', {
      transaction_id: sale.body.data.transaction_id,
      amount: '5.00',
    });
    expect(refund.status, refund.text).toBe(200);
    const voided = await merchantPost(s, m, '/order/sales-void', { transaction_id: other.body.data.transaction_id });
    expect(voided.status, voided.text).toBe(200);

    // Lifted by Stripe: payments again, without a step; approved only the once.
    expect(await lift()).toBe('applied');
    expect((await merchant(m.merchant_id)).verification.status).toBe('complete');
    expect((await intent(openLink)).status).toBe(200);
    expect(emu.paymentIntents.size).toBe(intentsBefore + 1);
    const again = await merchantPost(s, m, `/customers/charge/${card}`, { amount: '5.00', order_id: order() });
    expect(again.status, again.text).toBe(200);
    expect((await s.http({ method: 'GET', path: `/pay/api/links/${openLink}` })).body.merchant).toMatchObject({
      accepts_payments: true,
      restricted: false,
    });
    expect(await eventsOf(s, m.merchant_id, 'merchant.approval')).toHaveLength(1);
    expect((await eventsOf(s, m.merchant_id, 'merchant.verification')).map((e) => e.verification.status)).toEqual([
      'complete',
      'restricted',
      'complete',
    ]);
  });
});

describe('the verification link', () => {
  const create = (json: unknown, who: [string, string] = auth) =>
    s.http({ method: 'POST', path: '/api/v1/merchant/verification-link', auth: who, json });
  const visit = (path: string) => s.http({ method: 'GET', path, headers: { accept: 'text/html' } });
  const linkCount = async () =>
    (await rows<{ c: number }>(s, sql`select count(*)::int as c from verification_links`))[0]!.c;

  it('201 {url, expires_at}: on our origin, valid for days, the token kept only as its digest', async () => {
    const m = await onboard();
    const res = await create({ merchant_id: m.merchant_id, return_url: 'https://platform.example/back?m=1' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      result: true,
      message: 'Verification link created.',
      data: {
        url: expect.stringMatching(/^http:\/\/127\.0\.0\.1(:\d+)?\/verify\/vfy_[0-9A-Za-z]{32}$/),
        expires_at: expect.any(String),
      },
    });
    // Seven days from now (the test clock runs on from noon).
    const left = new Date(res.body.data.expires_at).getTime() - NOW().getTime();
    expect(left).toBeGreaterThan(7 * 86_400_000 - 60_000);
    expect(left).toBeLessThanOrEqual(7 * 86_400_000);
    const token = res.body.data.url.split('/').pop();
    const stored = await rows<{ token_hash: string; return_url: string }>(
      s,
      sql`select token_hash, return_url from verification_links where merchant_id = ${m.merchant_id}`,
    );
    expect(stored).toEqual([
      {
        token_hash: createHash('sha256').update(token).digest('hex'),
        return_url: 'https://platform.example/back?m=1',
      },
    ]);
  });

  it('each visit redirects to a fresh Account Link; refresh is the same address; return re-reads the account and approves only from it', async () => {
    const m = await onboard();
    const res = await create({ merchant_id: m.merchant_id, return_url: 'https://platform.example/done' });
    const url: string = res.body.data.url;
    const path = new URL(url).pathname;

    const first = await visit(path);
    expect(first.status).toBe(303);
    expect(first.headers['cache-control']).toBe('no-store');
    const second = await visit(path);
    expect(second.status).toBe(303);
    expect(second.headers.location).not.toBe(first.headers.location);
    const links = emu.accountLinks.filter((l) => l.account === m.account);
    expect(links.map((l) => l.url)).toEqual([first.headers.location, second.headers.location]);
    expect(links[1]).toMatchObject({
      type: 'account_onboarding',
      refresh_url: url,
      return_url: `${url}/return`,
      collection_options: { fields: 'currently_due', future_requirements: 'omit' },
    });

    // Stripe now asks for a document (its event not yet come): the return page reads it, never assumes completion.
    emu.requireOf(m.account, {
      requirements: { currently_due: [DOC], eventually_due: [DOC], current_deadline: DEADLINE },
      future_requirements: { eventually_due: ['company.tax_id'] },
    });
    const back = await visit(`${path}/return`);
    expect(back.status).toBe(200);
    expect(back.text).toContain('Information needed');
    expect(back.text).toContain('Identity document of the owner');
    expect(back.text).toContain(`<code>${DOC}</code>`);
    expect(back.text).toContain('href="https://platform.example/done"');
    expect(await statusOf(m.merchant_id)).toBe('pending');
    expect(await eventsOf(s, m.merchant_id, 'merchant.approval')).toEqual([]);
    expect((await eventsOf(s, m.merchant_id, 'merchant.verification')).map((e) => e.verification.status)).toEqual([
      'action_required',
    ]);
    // What is due now shapes the next Account Link.
    expect((await visit(path)).status).toBe(303);
    expect(emu.accountLinks.at(-1)).toMatchObject({
      type: 'account_onboarding',
      collection_options: { fields: 'eventually_due', future_requirements: 'include' },
    });

    // Sent, and Stripe reviewing.
    emu.requireOf(m.account, {
      requirements: { currently_due: [], eventually_due: [], pending_verification: [DOC], current_deadline: null },
      future_requirements: { eventually_due: [] },
    });
    const reviewing = await visit(`${path}/return`);
    expect(reviewing.text).toContain('Stripe is reviewing');
    expect(await statusOf(m.merchant_id)).toBe('pending');

    // Stripe enables charges: the return approves, once.
    emu.requireOf(m.account, {
      charges_enabled: true,
      payouts_enabled: true,
      requirements: { pending_verification: [] },
    });
    expect((await visit(`${path}/return`)).text).toContain('Verification complete');
    expect((await visit(`${path}/return`)).status).toBe(200);
    expect(await statusOf(m.merchant_id)).toBe('approved');
    expect(await eventsOf(s, m.merchant_id, 'merchant.approval')).toHaveLength(1);
    // Nothing due: the merchant reviews what was given.
    expect((await visit(path)).status).toBe(303);
    expect(emu.accountLinks.at(-1)).toMatchObject({ type: 'account_update', account: m.account });
  });

  it('Stripe unreachable at a visit: 502 page, nothing changed; unknown, malformed and expired links: 404', async () => {
    const m = await onboard();
    const res = await create({ merchant_id: m.merchant_id });
    const path = new URL(res.body.data.url).pathname;
    emu.failRequests(/^\/v1\/account_links$/, 3, 500);
    const failed = await visit(path);
    expect(failed.status).toBe(502);
    expect(failed.text).toContain('could not be reached');
    for (const p of ['/verify/vfy_00000000000000000000000000000000', '/verify/nope', `/verify/${'a'.repeat(90)}`]) {
      const r = await visit(p);
      expect(r.status, p).toBe(404);
      expect(r.text).toContain('Verification link not found');
      expect((await visit(`${p}/return`)).status).toBe(404);
    }
    await s.core.ctx.db.execute(
      sql`update verification_links set expires_at = ${new Date(NOW().getTime() - 1000)} where merchant_id = ${m.merchant_id}`,
    );
    expect((await visit(path)).status).toBe(404);
  });

  it('bad input: 400 for missing or wrong fields, 404 for an unknown or another client’s merchant, 401 without credentials; nothing stored', async () => {
    const m = await onboard();
    const stranger = await newMerchant(s);
    const before = await linkCount();
    for (const body of [
      {},
      { merchant_id: 5 },
      { merchant_id: '' },
      { merchant_id: m.merchant_id, return_url: 'javascript:alert(1)' },
      { merchant_id: m.merchant_id, return_url: 'ftp://platform.example/x' },
      { merchant_id: m.merchant_id, return_url: '/relative' },
      { merchant_id: m.merchant_id, return_url: `https://platform.example/${'a'.repeat(2100)}` },
      { merchant_id: m.merchant_id, return_url: 7 },
      [],
    ]) {
      const res = await create(body);
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(res.body).toMatchObject({ result: false, code: 'invalid_request' });
    }
    expect((await create({ merchant_id: 'm_unknown' })).body).toMatchObject({ code: 'merchant_not_found' });
    const foreign = await create({ merchant_id: stranger.merchant_id }, auth);
    expect(foreign.status).toBe(404);
    const noAuth = await s.http({
      method: 'POST',
      path: '/api/v1/merchant/verification-link',
      json: { merchant_id: m.merchant_id },
    });
    expect(noAuth.status).toBe(401);
    expect(await linkCount()).toBe(before);
  });
});
