import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nothingDue } from '@remit/contract';
import { startTestServer, tableCounts, type TestServer } from '../testing/harness.js';
import { newMerchant, type TestMerchant } from '../testing/fixtures.js';
import { eventsOf, merchantPost, newCustomer, noonClock } from '../testing/payments.js';

/**
 * The sandbox plays Stripe's verification (the simulator, no Stripe): `POST
 * /sandbox/merchant-verification` puts a merchant in any state, webhooks included; the
 * verification link opens Remit's page of what is due, where a tester submits it.
 */

let s: TestServer;
let m: TestMerchant;
const NOW = noonClock();
// Generous: a loaded machine starts a server slowly.
beforeAll(async () => {
  s = await startTestServer({ now: NOW });
  m = await newMerchant(s);
}, 180_000);
afterAll(() => s?.close());

const set = (body: object, as: TestMerchant = m) =>
  s.http({
    method: 'POST',
    path: '/sandbox/merchant-verification',
    auth: as.auth,
    json: { merchant_key: as.merchant_key, ...body },
  });
const verificationOf = async (who: TestMerchant) =>
  (await s.http({ method: 'GET', path: `/api/v1/merchant/${who.merchant_id}`, auth: who.auth })).body.data.verification;
const DOC = 'individual.verification.document';
const NOTHING = nothingDue();

describe('a sandbox merchant’s verification', () => {
  it('approved reads complete; pending reads pending_review', async () => {
    expect(await verificationOf(m)).toEqual({
      status: 'complete',
      ...NOTHING,
      charges_enabled: true,
      payouts_enabled: true,
    });
    const pending = await newMerchant(s, { auth: m.auth, approve: false });
    expect(await verificationOf(pending)).toEqual({
      status: 'pending_review',
      ...NOTHING,
      charges_enabled: false,
      payouts_enabled: false,
    });
  });

  it('POST /sandbox/merchant-verification: what is due, refused documents with a deadline; the webhook once per change', async () => {
    const who = await newMerchant(s, { auth: m.auth });
    const res = await set(
      {
        currently_due: ['company.tax_id'],
        errors: [{ requirement: DOC, code: 'verification_document_expired', reason: 'The document has expired.' }],
      },
      who,
    );
    expect(res.status, res.text).toBe(200);
    const due = [
      { requirement: 'company.tax_id', label: 'Tax ID number (EIN) of the business' },
      { requirement: DOC, label: 'Identity document of the owner' },
    ];
    const expected = {
      status: 'action_required',
      currently_due: due,
      eventually_due: due,
      past_due: [],
      pending_verification: [],
      errors: [
        {
          requirement: DOC,
          label: 'Identity document of the owner',
          code: 'verification_document_expired',
          reason: 'The document has expired.',
        },
      ],
      deadline: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      disabled_reason: null,
      charges_enabled: true,
      payouts_enabled: true,
      upcoming: { eventually_due: [], deadline: null },
    };
    expect(res.body).toEqual({
      result: true,
      message: 'Sandbox verification set.',
      data: { merchant_id: who.merchant_id, verification: expected },
    });
    expect(Date.parse(res.body.data.verification.deadline)).toBeGreaterThan(NOW().getTime());
    expect(await verificationOf(who)).toEqual(res.body.data.verification);
    // The same state again: nothing sent.
    expect(
      (
        await set(
          {
            currently_due: ['company.tax_id'],
            errors: [{ requirement: DOC, code: 'verification_document_expired', reason: 'The document has expired.' }],
          },
          who,
        )
      ).status,
    ).toBe(200);
    expect(await eventsOf(s, who.merchant_id, 'merchant.verification')).toEqual([
      { merchant_id: who.merchant_id, verification: res.body.data.verification },
    ]);
    // Cleared: complete again, sent.
    expect((await set({}, who)).body.data.verification.status).toBe('complete');
    expect((await eventsOf(s, who.merchant_id, 'merchant.verification')).map((e) => e.verification.status)).toEqual([
      'action_required',
      'complete',
    ]);
  });

  it('restricted: new payments refused with 409 merchant_restricted, refunds go through; lifted works again', async () => {
    const who = await newMerchant(s, { auth: m.auth });
    const card = await newCustomer(s, who);
    const sale = await merchantPost(s, who, `/customers/charge/${card}`, { amount: '10.00', order_id: 'before' });
    expect(sale.status).toBe(200);
    const res = await set({ currently_due: [DOC], restricted: true }, who);
    expect(res.body.data.verification).toMatchObject({
      status: 'restricted',
      charges_enabled: false,
      disabled_reason: 'requirements.past_due',
      past_due: [{ requirement: DOC, label: 'Identity document of the owner' }],
      deadline: null,
    });
    const before = await tableCounts(s.core);
    for (const [path, body] of [
      [`/customers/charge/${card}`, { amount: '5.00', order_id: 'o1' }],
      [`/customers/charge/${card}`, { amount: '5.00', order_id: 'o2', preAuth: true }],
      ['/pay-link', { amount: '5.00' }],
      ['/requests', { amount: '5.00', order_id: 'o3', email: 'payer@example.com' }],
    ] as const) {
      const r = await merchantPost(s, who, path, body);
      expect(r.status, path).toBe(409);
      expect(r.body).toMatchObject({ result: false, code: 'merchant_restricted' });
      expect(r.body.message).toContain('(requirements.past_due)');
    }
    expect(await tableCounts(s.core)).toEqual(before);
    const refund = await merchantPost(s, who, '/order/sales-return', {
      transaction_id: sale.body.data.transaction_id,
      amount: '2.00',
    });
    expect(refund.status, refund.text).toBe(200);
    await set({}, who);
    expect((await merchantPost(s, who, `/customers/charge/${card}`, { amount: '5.00', order_id: 'o4' })).status).toBe(
      200,
    );
  });

  it('asked of a pending merchant: charges off until approved, then on with what is due still shown', async () => {
    const who = await newMerchant(s, { auth: m.auth, approve: false });
    const asked = await set({ currently_due: [DOC] }, who);
    expect(asked.body.data.verification).toMatchObject({ status: 'action_required', charges_enabled: false });
    const ap = await s.http({
      method: 'POST',
      path: '/api/v1/approve-merchant',
      auth: who.auth,
      json: { merchant_id: who.merchant_id },
    });
    expect(ap.status).toBe(200);
    expect(await verificationOf(who)).toMatchObject({ status: 'action_required', charges_enabled: true });
    const card = await newCustomer(s, who);
    expect((await merchantPost(s, who, `/customers/charge/${card}`, { amount: '3.00', order_id: 'p1' })).status).toBe(
      200,
    );
  });

  it('bad input: 4xx and nothing changed', async () => {
    const who = await newMerchant(s, { auth: m.auth });
    const stranger = await newMerchant(s);
    const before = await tableCounts(s.core);
    for (const body of [
      { currently_due: 'company.tax_id' },
      { currently_due: [''] },
      { currently_due: ['has spaces'] },
      { currently_due: [5] },
      { errors: [{}] },
      { errors: [{ requirement: DOC, code: 7 }] },
      { errors: 'x' },
      { restricted: 'yes' },
      { currently_due: Array.from({ length: 51 }, (_, i) => `r${i}`) },
    ]) {
      const r = await set(body, who);
      expect(r.status, JSON.stringify(body).slice(0, 60)).toBe(400);
      expect(r.body).toMatchObject({ result: false, code: 'invalid_request' });
    }
    const noKey = await s.http({
      method: 'POST',
      path: '/sandbox/merchant-verification',
      auth: who.auth,
      json: { restricted: true },
    });
    expect(noKey.status).toBe(400);
    const unknownKey = await set({ merchant_key: 'mk_test_nope', restricted: true }, who);
    expect(unknownKey.status).toBe(401);
    // Another client's merchant key: as unknown.
    const foreign = await s.http({
      method: 'POST',
      path: '/sandbox/merchant-verification',
      auth: who.auth,
      json: { merchant_key: stranger.merchant_key, restricted: true },
    });
    expect(foreign.status).toBe(401);
    expect(foreign.body.code).toBe('invalid_merchant_key');
    expect(await tableCounts(s.core)).toEqual(before);
    expect((await verificationOf(who)).status).toBe('complete');
    expect((await verificationOf(stranger)).status).toBe('complete');
  });
});

describe('the verification link in the sandbox: Remit’s page of what is due', () => {
  it('lists what is due; submitting it makes the merchant complete (webhook sent), then continues to return_url', async () => {
    const who = await newMerchant(s, { auth: m.auth });
    await set(
      { errors: [{ requirement: DOC, code: 'verification_document_expired', reason: 'The document has expired.' }] },
      who,
    );
    const link = await s.http({
      method: 'POST',
      path: '/api/v1/merchant/verification-link',
      auth: who.auth,
      json: { merchant_id: who.merchant_id, return_url: 'https://platform.example/merchants/1' },
    });
    expect(link.status).toBe(201);
    const path = new URL(link.body.data.url).pathname;
    const page = await s.http({ method: 'GET', path });
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.headers['referrer-policy']).toBe('no-referrer');
    expect(page.text).toContain('Information needed');
    expect(page.text).toContain('Identity document of the owner: The document has expired.');
    expect(page.text).toContain(`<form method="post" action="${path}">`);
    expect(page.text).not.toMatch(/<script/);

    const sent = await s.http({ method: 'POST', path, form: {} });
    expect(sent.status).toBe(303);
    expect(sent.headers.location).toBe(`${path}/return`);
    const back = await s.http({ method: 'GET', path: `${path}/return` });
    expect(back.text).toContain('Verification complete');
    expect(back.text).toContain('href="https://platform.example/merchants/1"');
    expect(await verificationOf(who)).toMatchObject({ status: 'complete', currently_due: [], errors: [] });
    expect((await eventsOf(s, who.merchant_id, 'merchant.verification')).map((e) => e.verification.status)).toEqual([
      'action_required',
      'complete',
    ]);
    // Nothing left: the page says so, no form.
    const after = await s.http({ method: 'GET', path });
    expect(after.text).toContain('Verification complete');
    expect(after.text).not.toContain('<form');
  });

  it('unknown links: 404 and nothing changed', async () => {
    const before = await tableCounts(s.core);
    const r = await s.http({ method: 'POST', path: '/verify/vfy_00000000000000000000000000000000', form: {} });
    expect(r.status).toBe(404);
    expect(await tableCounts(s.core)).toEqual(before);
  });
});
