import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { smtpTransport } from '@remit/core';
import { startTestServer, tableCounts, type TestServer } from '../testing/harness.js';
import { validOnboarding } from '../testing/fixtures.js';
import { deliverStripeEvent, onboardStripeMerchant, type StripeMerchant } from '../testing/stripe-merchants.js';
import { eventsOf, gatewayRefOf, merchantPost, noonClock, rows, txnRow } from '../testing/payments.js';
import { stripeBankCustomer, stripeCardCustomer } from '../testing/stripe-cards.js';
import { emulatedStripe, startStripeEmulator, type StripeEmulator } from '../testing/stripe-emulator.js';
import { startSmtpSink, type SmtpSink } from '../testing/smtp-sink.js';

/**
 * Merchants as Stripe connected accounts, over HTTP against the Stripe emulator: onboarding makes
 * the account, Stripe's review approves it, payments are destination charges with our fee as the
 * application fee, the agreement page passes the owner's acceptance on, and disputes are followed.
 */

let emu: StripeEmulator;
let s: TestServer;
let auth: [string, string];
let smtp: SmtpSink;
beforeAll(async () => {
  smtp = await startSmtpSink();
  emu = await startStripeEmulator();
  const processor = emulatedStripe(emu);
  s = await startTestServer({
    now: noonClock(),
    processor,
    workers: { messages: { pollMs: 10, email: smtpTransport(smtp.url) } },
  });
  auth = await s.credentials();
});
afterAll(async () => {
  await s?.close();
  await emu?.close();
  await smtp?.close();
});

type Onboarded = StripeMerchant;
const onboard = (business_name?: string) => onboardStripeMerchant(s, auth, business_name);
const deliver = (event: object, sign?: (payload: string) => string) => deliverStripeEvent(s, emu, event, sign);

const statusOf = async (id: string) =>
  (await rows<{ status: string }>(s, sql`select status from merchants where id = ${id}`))[0]!.status;

/** Onboarded and approved by Stripe's review, as in production. */
async function approved(): Promise<Onboarded> {
  const m = await onboard();
  expect((await deliver(emu.reviewAccount(m.account, true))).body.handled).toBe('applied');
  return m;
}

describe('onboarding makes a Custom connected account', () => {
  it('from the submission: business, representative, payout bank account; its id stored on the merchant', async () => {
    const m = await onboard('Connected Goods LLC');
    expect(m.account).toMatch(/^acct_/);
    const form = validOnboarding({ business_name: 'Connected Goods LLC' });
    const account = emu.accounts.get(m.account)!;
    expect(account).toMatchObject({
      type: 'custom',
      country: 'US',
      email: form.BusinessInfo.business_email,
      business_type: 'company',
      charges_enabled: false,
      metadata: { remit_merchant_id: m.merchant_id },
      business_profile: {
        name: form.BusinessInfo.dba || 'Connected Goods LLC',
        mcc: form.BusinessInfo.business_industry,
        url: form.BusinessInfo.website,
      },
      company: { name: 'Connected Goods LLC', tax_id_provided: true, owners_provided: true },
      capabilities: { card_payments: 'pending', transfers: 'pending', us_bank_account_ach_payments: 'pending' },
    });
    expect(account.external_accounts.data).toEqual([
      expect.objectContaining({
        object: 'bank_account',
        routing_number: form.BankingInfo.routing_number,
        last4: form.BankingInfo.account_number.slice(-4),
        currency: 'usd',
      }),
    ]);
    const [rep] = emu.persons.filter((p) => p.account === m.account);
    expect(rep).toMatchObject({
      first_name: form.OwnerInfo.first_name,
      last_name: form.OwnerInfo.last_name,
      id_number_provided: true,
      relationship: {
        representative: true,
        owner: true,
        title: form.OwnerInfo.b_title,
        percent_ownership: Number(form.OwnerInfo.ownership_percent),
      },
    });
    const create = emu.requests.find(
      (r) => r.path === '/v1/accounts' && (r.params.metadata as any)?.remit_merchant_id === m.merchant_id,
    )!;
    expect(create.idempotencyKey).toMatch(/^remit_account_[0-9a-f]{48}$/);
    expect(await statusOf(m.merchant_id)).toBe('pending');
  });

  it('Stripe unreachable: 502 processor_error and nothing stored', async () => {
    const before = await tableCounts(s.core);
    emu.dropAnswers(/^\/v1\/accounts$/, 3);
    const res = await s.http({ method: 'POST', path: '/api/v1/onboarding', auth, json: validOnboarding() });
    expect(res.status).toBe(502);
    expect(res.body).toMatchObject({ result: false, code: 'processor_error' });
    expect(await tableCounts(s.core)).toEqual(before);
  });
});

describe('approval follows Stripe: account.updated with charges enabled', () => {
  it('fires merchant.approval once, however often and in whatever order the events come', async () => {
    const m = await onboard();
    const restricted = emu.reviewAccount(m.account, false);
    expect((await deliver(restricted)).body.handled).toBe('ignored');
    expect(await statusOf(m.merchant_id)).toBe('pending');
    const enabled = emu.reviewAccount(m.account, true);
    // The older event (charges disabled) comes after: what decides is the account as Stripe has it now.
    expect(
      (await deliver(emu.event('account.updated', { ...enabled.data.object, charges_enabled: false }))).body.handled,
    ).toBe('applied');
    expect(await statusOf(m.merchant_id)).toBe('approved');
    expect(await deliver(enabled)).toMatchObject({ status: 200, body: { handled: 'ignored' } });
    expect((await deliver(enabled)).body.handled).toBe('duplicate');
    const approvals = await eventsOf(s, m.merchant_id, 'merchant.approval');
    expect(approvals).toEqual([
      { merchant_id: m.merchant_id, business_name: expect.any(String), email: expect.any(String), company_id: auth[0] },
    ]);
  });

  it('an event whose copy says enabled, when Stripe has since restricted the account, approves nothing', async () => {
    const m = await onboard();
    const enabled = emu.reviewAccount(m.account, true);
    emu.reviewAccount(m.account, false);
    expect((await deliver(enabled)).body.handled).toBe('ignored');
    expect(await statusOf(m.merchant_id)).toBe('pending');
    expect(await eventsOf(s, m.merchant_id, 'merchant.approval')).toEqual([]);
  });

  it('an account that is no merchant of ours, and a badly signed event, change nothing', async () => {
    const m = await onboard();
    const before = await tableCounts(s.core);
    expect(
      (await deliver(emu.event('account.updated', { id: 'acct_unknown', object: 'account', charges_enabled: true })))
        .body.handled,
    ).toBe('ignored');
    const event = emu.reviewAccount(m.account, true);
    const bad = await deliver(event, (p) => emu.sign(p, { secret: 'whsec_other' }));
    expect(bad.status).toBe(400);
    const stale = await deliver(event, (p) => emu.sign(p, { timestamp: Math.floor(Date.now() / 1000) - 3600 }));
    expect(stale.status).toBe(400);
    expect(await statusOf(m.merchant_id)).toBe('pending');
    const after = await tableCounts(s.core);
    expect(after).toEqual(before);
  });
});

describe('payments on behalf of the merchant, our fee as the application fee', () => {
  let m: Onboarded;
  let card: number;
  const post = (path: string, body: object) => merchantPost(s, m, path, body);
  const order = () => `o-${Math.random().toString(36).slice(2)}`;
  beforeAll(async () => {
    m = await approved();
    card = await stripeCardCustomer(s, m, emu);
  });

  it('a card sale: a destination charge keeping back exactly the fee; fee_percentage and net_amount agree', async () => {
    const res = await post(`/customers/charge/${card}`, { amount: '100.00', order_id: order() });
    expect(res.status).toBe(200);
    const id = res.body.data.transaction_id;
    const pi = emu.paymentIntents.get(await gatewayRefOf(s, id))!;
    // Default pricing: 2.9% + 0.30 of 100.00 = 3.20.
    expect(pi).toMatchObject({
      amount: 10_000,
      application_fee_amount: 320,
      on_behalf_of: m.account,
      transfer_data: { destination: m.account },
    });
    expect(await txnRow(s, id)).toMatchObject({ fee: 320, net: 9680 });
    const one = await s.http({
      method: 'GET',
      path: `/api/v1/merchant/transactions/${id}`,
      auth,
      json: { merchant_key: m.merchant_key },
    });
    expect(one.body.data[0]).toMatchObject({ fee_percentage: '2.9000000', net_amount: 96.8 });
    // What the merchant receives at Stripe is the amount less the application fee: our net_amount.
    expect(pi.amount - pi.application_fee_amount!).toBe(9680);
  });

  it('a preauthorization captured lower: the fee of the captured amount is kept back', async () => {
    const res = await post(`/customers/charge/${card}`, { amount: '50.00', order_id: order(), preAuth: true });
    const id = res.body.data.transaction_id;
    const pi = emu.paymentIntents.get(await gatewayRefOf(s, id))!;
    expect(pi).toMatchObject({ capture_method: 'manual', application_fee_amount: 175 });
    await post('/preauth/update', {
      transaction_id: id,
      last_authorized_amount: '50.00',
      new_authorized_amount: '40.00',
      order_id: 'o',
    });
    const cap = await post('/preauth/capture', { transaction_id: id });
    expect(cap.status).toBe(200);
    // 2.9% of 40.00 = 1.16, + 0.30.
    expect(pi).toMatchObject({ status: 'succeeded', amount_received: 4000, application_fee_amount: 146 });
    expect(cap.body.data.net_amount).toBe(38.54);
  });

  it('an ACH debit: the ACH fee (1%, capped) is the application fee', async () => {
    const bank = await stripeBankCustomer(s, m, emu);
    const res = await post(`/customers/charge/${bank}`, { amount: '250.00', order_id: order() });
    const pi = emu.paymentIntents.get(await gatewayRefOf(s, res.body.data.transaction_id))!;
    expect(pi).toMatchObject({
      amount: 25_000,
      application_fee_amount: 250,
      transfer_data: { destination: m.account },
    });
  });

  it('a refund takes the amount back from the merchant and keeps our fee; a void returns the fee too', async () => {
    const sale = await post(`/customers/charge/${card}`, { amount: '20.00', order_id: order() });
    const id = sale.body.data.transaction_id;
    expect((await post('/order/sales-return', { transaction_id: id, amount: '5.00' })).status).toBe(200);
    const pid = await gatewayRefOf(s, id);
    expect(emu.refunds.filter((r) => r.payment_intent === pid)).toEqual([
      expect.objectContaining({ amount: 500, reverse_transfer: true, refund_application_fee: false }),
    ]);
    const other = await post(`/customers/charge/${card}`, { amount: '9.00', order_id: order() });
    expect((await post('/order/sales-void', { transaction_id: other.body.data.transaction_id })).status).toBe(200);
    const vid = await gatewayRefOf(s, other.body.data.transaction_id);
    expect(emu.refunds.filter((r) => r.payment_intent === vid)).toEqual([
      expect.objectContaining({ amount: 900, reverse_transfer: true, refund_application_fee: true }),
    ]);
  });
});

describe('the merchant agreement page', () => {
  const path = (link: string) => new URL(link).pathname;
  const page = (link: string) => s.http({ method: 'GET', path: path(link), headers: { accept: 'text/html' } });
  const accept = (link: string, form: Record<string, string>, ua = 'Mozilla/5.0 (Agreement test)') =>
    s.http({ method: 'POST', path: path(link), form, headers: { accept: 'text/html', 'user-agent': ua } });

  it('GET: the agreement with Stripe’s Connected Account Agreement, under a strict CSP, never cached', async () => {
    const m = await onboard('Agreeable Inc');
    expect(m.agreement_link).toMatch(/^https?:\/\/[^/]+\/agreement\/agr_[0-9A-Za-z]{32}$/);
    const res = await page(m.agreement_link);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['content-security-policy']).toMatch(/^default-src 'none'; style-src 'sha256-[^']+'; /);
    expect(res.headers['content-security-policy']).not.toMatch(/script-src/);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    expect(res.text).toContain('Agreeable Inc');
    expect(res.text).toContain('href="https://stripe.com/connect-account/legal"');
    expect(res.text).toMatch(/<input type="checkbox" id="accept" name="accept" value="yes">/);
    expect(res.text).not.toMatch(/<script|style="/);
  });

  it('the onboarding email (SMTP) carries the link to the owner', async () => {
    const m = await onboard('Mailed Co');
    const owner = validOnboarding().OwnerInfo.email;
    const token = m.agreement_link.split('/').pop()!;
    const until = Date.now() + 15_000;
    const found = () => smtp.mails.find((x) => x.to.includes(owner) && x.raw.replace(/=\r?\n/g, '').includes(token));
    while (!found() && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    expect(found()!.raw).toMatch(/^Subject: Accept the merchant agreement for Mailed Co$/m);
  });

  it('POST accepted: recorded with date, address and browser, sent to Stripe as tos_acceptance, documents.signed once', async () => {
    const m = await onboard('Signing Co');
    const res = await accept(m.agreement_link, { accept: 'yes' });
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe(path(m.agreement_link));
    const [row] = await rows<{
      agreement_signed_at: Date | string;
      agreement_ip: string;
      agreement_user_agent: string;
    }>(
      s,
      sql`select agreement_signed_at, agreement_ip, agreement_user_agent from merchants where id = ${m.merchant_id}`,
    );
    expect(row).toMatchObject({ agreement_ip: '127.0.0.1', agreement_user_agent: 'Mozilla/5.0 (Agreement test)' });
    const signedAt = Math.floor(new Date(row!.agreement_signed_at).getTime() / 1000);
    expect(emu.accounts.get(m.account)!.tos_acceptance).toEqual({
      date: signedAt,
      ip: '127.0.0.1',
      user_agent: 'Mozilla/5.0 (Agreement test)',
    });
    const form = validOnboarding({ business_name: 'Signing Co' });
    const signed = await eventsOf(s, m.merchant_id, 'documents.signed');
    expect(signed).toEqual([
      {
        merchant_id: m.merchant_id,
        business_name: 'Signing Co',
        website: form.BusinessInfo.website,
        email: form.BusinessInfo.business_email,
        company_id: auth[0],
      },
    ]);

    // Twice, even from another browser: the first acceptance stands, one event.
    const tosCalls = emu.requests.filter((r) => r.path === `/v1/accounts/${m.account}` && r.method === 'POST').length;
    expect((await accept(m.agreement_link, { accept: 'yes' }, 'Other/1.0')).status).toBe(303);
    expect(await eventsOf(s, m.merchant_id, 'documents.signed')).toHaveLength(1);
    expect(emu.requests.filter((r) => r.path === `/v1/accounts/${m.account}` && r.method === 'POST')).toHaveLength(
      tosCalls,
    );
    const after = await page(m.agreement_link);
    expect(after.status).toBe(200);
    expect(after.text).toContain('Agreement accepted');
    expect(after.text).not.toContain('<form');
  });

  it('bad input: the box not ticked is 400 with the error tied to the field; unknown links 404; nothing recorded', async () => {
    const m = await onboard();
    const before = await tableCounts(s.core);
    const unticked = await accept(m.agreement_link, {});
    expect(unticked.status).toBe(400);
    expect(unticked.text).toContain('Tick the box to accept the agreement.');
    expect(unticked.text).toContain('aria-invalid="true" aria-describedby="accept-error"');
    expect(unticked.text).toContain('<a href="#accept">');
    expect((await accept(m.agreement_link, { accept: 'no' })).status).toBe(400);
    const json = await s.http({ method: 'POST', path: path(m.agreement_link), json: ['accept'] });
    expect(json.status).toBe(400);
    for (const p of [
      '/agreement/agr_00000000000000000000000000000000',
      '/agreement/nope',
      `/agreement/${'a'.repeat(90)}`,
    ]) {
      const res = await s.http({ method: 'GET', path: p, headers: { accept: 'text/html' } });
      expect(res.status, p).toBe(404);
      expect(res.text).toContain('Agreement not found');
      expect((await s.http({ method: 'POST', path: p, form: { accept: 'yes' } })).status, p).toBe(404);
    }
    expect(await tableCounts(s.core)).toEqual(before);
    expect(emu.accounts.get(m.account)!.tos_acceptance).toEqual({ date: null, ip: null, user_agent: null });
  });

  it('Stripe unreachable at acceptance: 502, nothing recorded; accepting again works', async () => {
    const m = await onboard();
    emu.dropAnswers(new RegExp(`^/v1/accounts/${m.account}$`), 3);
    const failed = await accept(m.agreement_link, { accept: 'yes' });
    expect(failed.status).toBe(502);
    expect(failed.text).toContain('Nothing was recorded');
    expect(await eventsOf(s, m.merchant_id, 'documents.signed')).toEqual([]);
    expect((await accept(m.agreement_link, { accept: 'yes' })).status).toBe(303);
    expect(await eventsOf(s, m.merchant_id, 'documents.signed')).toHaveLength(1);
  });
});

describe('the agreement in sandbox with the simulator', () => {
  it('works the same, without Stripe: documents.signed', async () => {
    const sim = await startTestServer();
    try {
      const simAuth = await sim.credentials();
      const res = await sim.http({
        method: 'POST',
        path: '/api/v1/onboarding',
        auth: simAuth,
        json: validOnboarding({ business_name: 'Sandbox Shop' }),
      });
      const link = res.body.data.agreement_link as string;
      expect(link).toMatch(/\/agreement\/agr_/);
      const get = await sim.http({ method: 'GET', path: new URL(link).pathname });
      expect(get.status).toBe(200);
      expect(get.text).not.toContain('stripe.com');
      const post = await sim.http({ method: 'POST', path: new URL(link).pathname, form: { accept: 'yes' } });
      expect(post.status).toBe(303);
      const [m] = await rows<{ id: string; stripe_account_id: string | null }>(
        sim,
        sql`select id, stripe_account_id from merchants`,
      );
      expect(m!.stripe_account_id).toBeNull();
      expect(await eventsOf(sim, m!.id, 'documents.signed')).toEqual([
        expect.objectContaining({ merchant_id: m!.id, business_name: 'Sandbox Shop' }),
      ]);
    } finally {
      await sim.close();
    }
  });
});

describe('disputes: charge.dispute.* mark the transaction and fire our dispute.* events', () => {
  let m: Onboarded;
  let card: number;
  beforeAll(async () => {
    m = await approved();
    card = await stripeCardCustomer(s, m, emu);
  });
  const sale = async () => {
    const res = await merchantPost(s, m, `/customers/charge/${card}`, {
      amount: '30.00',
      order_id: `d-${Math.random().toString(36).slice(2)}`,
    });
    const id = res.body.data.transaction_id as string;
    return { id, pid: await gatewayRefOf(s, id) };
  };
  const disputeOf = async (id: string) =>
    (
      await rows<{ dispute_id: string | null; dispute_status: string | null }>(
        s,
        sql`select dispute_id, dispute_status from transactions where id = ${id}`,
      )
    )[0];
  const ours = async (id: string) => {
    const all = await rows<{ event_type: string; payload: any }>(
      s,
      sql`select event_type, payload from events where merchant_id = ${m.merchant_id} and event_type like 'dispute.%' order by created_at, id`,
    );
    return all
      .map((e) => ({ type: e.event_type, ...(typeof e.payload === 'string' ? JSON.parse(e.payload) : e.payload) }))
      .filter((e) => e.transaction_id === id);
  };

  it('created, updated, closed: each once, replays and late arrivals ignored', async () => {
    const { id, pid } = await sale();
    const created = emu.dispute(pid, 'created', 'needs_response');
    expect((await deliver(created)).body.handled).toBe('applied');
    const dp = (created.data.object as { id: string }).id;
    expect(await disputeOf(id)).toEqual({ dispute_id: dp, dispute_status: 'needs_response' });
    expect((await deliver(created)).body.handled).toBe('duplicate');
    const [first] = await ours(id);
    expect(first).toEqual({
      type: 'dispute.created',
      merchant_id: m.merchant_id,
      transaction_id: id,
      dispute_id: dp,
      amount: 30,
      reason: 'fraudulent',
      status: 'needs_response',
      evidence_due_by: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.000Z$/),
    });
    const updated = emu.dispute(pid, 'updated', 'under_review');
    expect((await deliver(updated)).body.handled).toBe('applied');
    // A second `created` for the same dispute (a late copy) changes nothing.
    expect((await deliver(emu.event('charge.dispute.created', { ...created.data.object }))).body.handled).toBe(
      'ignored',
    );
    const closed = emu.dispute(pid, 'closed', 'won');
    expect((await deliver(closed)).body.handled).toBe('applied');
    expect(await disputeOf(id)).toEqual({ dispute_id: dp, dispute_status: 'won' });
    // An update that comes after the close is stale.
    expect((await deliver(emu.event('charge.dispute.updated', { ...updated.data.object }))).body.handled).toBe(
      'ignored',
    );
    expect(await disputeOf(id)).toEqual({ dispute_id: dp, dispute_status: 'won' });
    expect((await ours(id)).map((e) => [e.type, e.status])).toEqual([
      ['dispute.created', 'needs_response'],
      ['dispute.updated', 'under_review'],
      ['dispute.closed', 'won'],
    ]);
  });

  it('out of order: an update first is the client’s dispute.created; the close arriving before an update wins', async () => {
    const { id, pid } = await sale();
    const created = emu.dispute(pid, 'created', 'needs_response');
    const updated = emu.dispute(pid, 'updated', 'under_review');
    const closed = emu.dispute(pid, 'closed', 'lost');
    expect((await deliver(updated)).body.handled).toBe('applied');
    expect((await deliver(created)).body.handled).toBe('ignored');
    expect((await deliver(closed)).body.handled).toBe('applied');
    expect((await ours(id)).map((e) => [e.type, e.status])).toEqual([
      ['dispute.created', 'under_review'],
      ['dispute.closed', 'lost'],
    ]);
  });

  it('badly signed: 400 and the transaction stays undisputed; a dispute on no payment of ours is ignored', async () => {
    const { id, pid } = await sale();
    const event = emu.dispute(pid, 'created', 'needs_response');
    expect((await deliver(event, (p) => emu.sign(p, { secret: 'whsec_nope' }))).status).toBe(400);
    expect(await disputeOf(id)).toEqual({ dispute_id: null, dispute_status: null });
    expect(await ours(id)).toEqual([]);
    const stranger = emu.event('charge.dispute.created', {
      ...event.data.object,
      id: 'dp_other',
      payment_intent: 'pi_not_ours',
    });
    expect((await deliver(stranger)).body.handled).toBe('ignored');
  });
});
