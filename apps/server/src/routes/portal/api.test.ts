import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, startReceiver, type Receiver } from '@remit/core/testing';
import { startTestServer, tableCounts, type TestServer } from '../../testing/harness.js';
import { newMerchant } from '../../testing/fixtures.js';
import { bankAccount, charge, newCustomer, noonClock, txnRow } from '../../testing/payments.js';
import { portalSignIn, type PortalClient } from '../../testing/portal.js';

/** What the signed-in portal does, each through the same core operation as the API, over HTTP. */
let s: TestServer;
let rx: Receiver;
beforeAll(async () => {
  s = await startTestServer({ now: noonClock(), workers: { messages: { pollMs: 20 }, webhooks: { pollMs: 20 } } });
  rx = await startReceiver();
});
afterAll(async () => {
  await s?.close();
  await rx?.close();
});

async function onboarded(p: PortalClient) {
  const example = (await p.call('GET', '/onboarding-example')).body;
  const res = await p.call('POST', '/merchants', example);
  expect(res.status).toBe(201);
  return res.body.merchant;
}

describe('merchants', () => {
  it('onboards the demo submission as it is (pending, with its keys) and approves it', async () => {
    const p = await portalSignIn(s);
    const example = (await p.call('GET', '/onboarding-example')).body;
    expect(example.BusinessInfo.business_name).toMatch(/^Demo Store \d{4}$/);
    const made = await p.call('POST', '/merchants', example);
    expect(made.status).toBe(201);
    const m = made.body.merchant;
    expect(m).toMatchObject({ businessname: example.BusinessInfo.business_name, status: 'pending' });
    expect(m.merchant_key).toMatch(/^mk_test_/);
    expect(m.public_data.public_key).toMatch(/^pk_test_/);
    const ap = await p.call('POST', `/merchants/${m.merchant_id}/approve`);
    expect(ap.status).toBe(200);
    expect(ap.body.merchant.status).toBe('approved');
    const list = await p.call('GET', '/merchants');
    // Approval completes the verification: charges (and payouts) on, nothing due.
    expect(m.verification).toMatchObject({ status: 'pending_review', charges_enabled: false });
    expect(list.body.merchants).toEqual([
      {
        ...m,
        status: 'approved',
        verification: { ...m.verification, status: 'complete', charges_enabled: true, payouts_enabled: true },
      },
    ]);
  });

  it('an edited submission with a bad field is a 400 naming the field, and nothing is written', async () => {
    const p = await portalSignIn(s);
    const example = (await p.call('GET', '/onboarding-example')).body;
    const before = await tableCounts(s.core);
    const res = await p.call('POST', '/merchants', {
      ...example,
      BusinessInfo: { ...example.BusinessInfo, ein: 'nope' },
    });
    expect(res.status).toBe(400);
    expect(res.body.errors.map((e: { path: string }) => e.path)).toContain('BusinessInfo.ein');
    expect(await tableCounts(s.core)).toEqual(before);
  });

  it("another client's merchant is a 404, for reading and for acting", async () => {
    const a = await portalSignIn(s);
    const b = await portalSignIn(s);
    const m = await onboarded(a);
    for (const [method, path] of [
      ['POST', `/merchants/${m.merchant_id}/approve`],
      ['GET', `/merchants/${m.merchant_id}/transactions`],
      ['POST', `/merchants/${m.merchant_id}/settle`],
    ] as const) {
      const res = await b.call(method, path);
      expect(res.status, path).toBe(404);
      expect(res.body.code).toBe('merchant_not_found');
    }
    expect((await a.call('GET', '/merchants')).body.merchants[0].status).toBe('pending');
  });
});

describe('webhooks', () => {
  it('a test event needs a URL first', async () => {
    const p = await portalSignIn(s);
    const res = await p.call('POST', '/test-event');
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('webhook_url_not_set');
  });

  it('sets the URL, sends a test event, shows its request and response bodies, and retries it', async () => {
    const p = await portalSignIn(s);
    rx.behave((_r, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"received":true}'));
    const set = await p.call('PUT', '/webhook', { webhook_url: rx.url });
    expect(set.status).toBe(200);
    expect(set.body).toEqual({
      webhook_url: rx.url,
      signing_secret: expect.stringMatching(/^whsec_/),
      disabled: false,
    });
    const sent = await p.call('POST', '/test-event');
    expect(sent.status).toBe(201);
    const d = await eventually(async () => {
      const list = (await p.call('GET', '/deliveries')).body.deliveries;
      return list.find(
        (x: { event_id: string; status: string }) => x.event_id === sent.body.event_id && x.status === 'delivered',
      );
    });
    expect(d.event_type).toBe('webhook.test');
    expect(JSON.parse(d.request_body)).toEqual({
      event_type: 'webhook.test',
      data: { client_id: p.clientId, message: 'A test event from the Remit sandbox portal.' },
      id: sent.body.event_id,
      created_at: expect.any(String),
    });
    expect(d.attempts).toHaveLength(1);
    expect(d.attempts[0]).toMatchObject({ status_code: 200, response_body: '{"received":true}' });
    const got = rx.received.filter((r) => r.headers['webhook-id'] === sent.body.event_id);
    expect(got).toHaveLength(1);
    expect(JSON.parse(got[0]!.body)).toEqual(JSON.parse(d.request_body));

    const retry = await p.call('POST', `/deliveries/${d.id}/retry`);
    expect(retry.status).toBe(200);
    expect(retry.body.message).toBe('Retrying the webhook.test delivery now.');
    await rx.waitFor((all) => all.filter((r) => r.headers['webhook-id'] === sent.body.event_id).length === 2);
    const again = await eventually(async () => {
      const list = (await p.call('GET', '/deliveries')).body.deliveries;
      const x = list.find((y: { id: string }) => y.id === d.id);
      return x?.attempts.length === 2 && x;
    });
    expect(again.status).toBe('delivered');
  });

  it("retrying another client's delivery is a 404", async () => {
    const p = await portalSignIn(s);
    const res = await p.call('POST', '/deliveries/dlv_nope/retry');
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('delivery_not_found');
  });
});

describe('pay links, the inbox and transactions', () => {
  it('a pay link with an email reaches the inbox; the email HTML is served with a CSP that allows no script', async () => {
    const p = await portalSignIn(s);
    const m = await onboarded(p);
    const link = await p.call('POST', `/merchants/${m.merchant_id}/pay-links`, {
      amount: '12.50',
      email: 'ada@example.com',
    });
    expect(link.status).toBe(201);
    expect(link.body.pay_link).toBe(`${s.url}/pay/${link.body.link_id}`);
    const msg = await eventually(
      async () => (await p.call('GET', `/messages?merchant_id=${m.merchant_id}`)).body.messages[0],
    );
    expect(msg).toMatchObject({ channel: 'email', recipient: 'ada@example.com', pay_link_id: link.body.link_id });
    const html = await s.http({
      method: 'GET',
      path: `/portal/api/messages/${msg.id}/html`,
      headers: { cookie: p.cookie },
    });
    expect(html.status).toBe(200);
    expect(html.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(html.headers['content-security-policy']).toMatch(/default-src 'none'.*sandbox$/);
    expect(html.headers['content-security-policy']).not.toContain('script-src');
    expect(html.text).toContain(link.body.pay_link);
    const other = await portalSignIn(s);
    expect(
      (await s.http({ method: 'GET', path: `/portal/api/messages/${msg.id}/html`, headers: { cookie: other.cookie } }))
        .status,
    ).toBe(404);
    expect((await other.call('GET', '/messages')).body.messages).toEqual([]);
  });

  it('a pay link amount is checked as the API checks it', async () => {
    const p = await portalSignIn(s);
    const m = await onboarded(p);
    const res = await p.call('POST', `/merchants/${m.merchant_id}/pay-links`, { amount: '-1' });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].path).toBe('amount');
  });

  it('refunds part of a card sale, then voids the rest; captures and voids preauthorizations', async () => {
    const [id, secret] = await s.credentials();
    const tm = await newMerchant(s, { auth: [id, secret] });
    const p = await portalSignIn(s, [id, secret]);
    const cust = await newCustomer(s, tm);
    const sale = await charge(s, tm, cust, '20.00');
    const base = `/merchants/${tm.merchant_id}/transactions`;

    const refund = await p.call('POST', `${base}/${sale}/refund`, { amount: '5.00' });
    expect(refund.status).toBe(200);
    const voided = await p.call('POST', `${base}/${sale}/void`);
    expect(voided.status).toBe(200);
    expect((await txnRow(s, sale)).status).toBe('voided');

    const pa = await charge(s, tm, cust, '30.00', { preAuth: true });
    expect((await p.call('POST', `${base}/${pa}/capture`)).status).toBe(200);
    expect((await txnRow(s, pa)).status).toBe('completed');
    const pa2 = await charge(s, tm, cust, '8.00', { preAuth: true });
    expect((await p.call('POST', `${base}/${pa2}/void`)).body.message).toBe('Preauthorization voided.');

    const list = (await p.call('GET', base)).body;
    expect(list.transactions.map((t: { transaction_id: string }) => t.transaction_id)).toEqual(
      expect.arrayContaining([sale, pa, pa2]),
    );
  });

  it('approves and declines ACH debits', async () => {
    const [id, secret] = await s.credentials();
    const tm = await newMerchant(s, { auth: [id, secret] });
    const p = await portalSignIn(s, [id, secret]);
    const ok = await charge(s, tm, await newCustomer(s, tm, { bank_account: bankAccount() }), '40.00');
    const no = await charge(s, tm, await newCustomer(s, tm, { bank_account: bankAccount() }), '41.00');
    const base = `/merchants/${tm.merchant_id}/transactions`;
    expect((await p.call('POST', `${base}/${ok}/ach-approve`)).status).toBe(200);
    expect((await p.call('POST', `${base}/${no}/ach-decline`)).status).toBe(200);
    expect((await txnRow(s, ok)).status).toBe('completed');
    expect((await txnRow(s, no)).status).toBe('returned');
    const again = await p.call('POST', `${base}/${ok}/ach-decline`);
    expect(again.status).toBe(400);
  });

  it('refund without an amount, an unknown action and an unknown transaction are clear 4xx', async () => {
    const [id, secret] = await s.credentials();
    const tm = await newMerchant(s, { auth: [id, secret] });
    const p = await portalSignIn(s, [id, secret]);
    const base = `/merchants/${tm.merchant_id}/transactions`;
    expect((await p.call('POST', `${base}/txn_nope/refund`, {})).status).toBe(400);
    expect((await p.call('POST', `${base}/txn_nope/explode`, {})).status).toBe(400);
    expect((await p.call('POST', `${base}/txn_nope/void`, {})).status).toBe(404);
  });

  it('each transaction offers the actions the API accepts for it, in every state; a settled sale offers no Void', async () => {
    const [id, secret] = await s.credentials();
    const p = await portalSignIn(s, [id, secret]);
    const ACTIONS = ['refund', 'void', 'capture', 'ach-approve', 'ach-decline'] as const;
    type Step = (base: string, txn: string) => Promise<unknown>;
    const act =
      (action: string, body?: object): Step =>
      async (base, txn) =>
        expect((await p.call('POST', `${base}/${txn}/${action}`, body)).status).toBe(200);
    // Each state: how a transaction gets there (a card or bank customer, a preauthorization, portal actions after).
    const states: Array<{
      name: string;
      bank?: boolean;
      preAuth?: boolean;
      steps?: Step[];
      settle?: boolean;
      offers: string[];
    }> = [
      { name: 'card sale, unsettled', offers: ['refund', 'void'] },
      { name: 'card sale, settled', settle: true, offers: ['refund'] },
      { name: 'card sale, partly refunded', steps: [act('refund', { amount: '5.00' })], offers: ['refund', 'void'] },
      { name: 'card sale, refunded', steps: [act('refund', { amount: '20.00' })], offers: [] },
      { name: 'card sale, voided', steps: [act('void')], offers: [] },
      { name: 'preauthorization, open', preAuth: true, offers: ['void', 'capture'] },
      { name: 'preauthorization, captured', preAuth: true, steps: [act('capture')], offers: ['refund', 'void'] },
      { name: 'preauthorization, released', preAuth: true, steps: [act('void')], offers: [] },
      { name: 'ACH debit, pending', bank: true, offers: ['ach-approve', 'ach-decline'] },
      { name: 'ACH debit, approved (settled at once)', bank: true, steps: [act('ach-approve')], offers: ['refund'] },
      { name: 'ACH debit, returned', bank: true, steps: [act('ach-decline')], offers: [] },
    ];
    for (const st of states) {
      const tm = await newMerchant(s, { auth: [id, secret] });
      const base = `/merchants/${tm.merchant_id}/transactions`;
      const cust = await newCustomer(s, tm, st.bank ? { bank_account: bankAccount() } : undefined);
      // One transaction in this state per action tried, since trying one changes it.
      const txns: string[] = [];
      for (const _ of ACTIONS) {
        const txn = await charge(s, tm, cust, '20.00', { preAuth: st.preAuth });
        for (const step of st.steps ?? []) await step(base, txn);
        txns.push(txn);
      }
      if (st.settle) expect((await p.call('POST', `/merchants/${tm.merchant_id}/settle`)).status).toBe(200);
      const listed = (await p.call('GET', base)).body.transactions as Array<{
        transaction_id: string;
        actions: string[];
      }>;
      for (const [i, action] of ACTIONS.entries()) {
        const offered = listed.find((t) => t.transaction_id === txns[i])!.actions;
        expect(offered, st.name).toEqual(st.offers);
        const res = await p.call('POST', `${base}/${txns[i]}/${action}`, action === 'refund' ? { amount: '1.00' } : {});
        // Offered: the API does it. Not offered: the API refuses it (a 4xx naming why), nothing else.
        expect([st.name, action, res.status < 300]).toEqual([st.name, action, st.offers.includes(action)]);
        if (res.status >= 300) expect(res.status, `${st.name} ${action}: ${res.text}`).toBeLessThan(500);
      }
    }
  }, 120_000);

  it('advances the sandbox clock and settles now', async () => {
    const [id, secret] = await s.credentials();
    const tm = await newMerchant(s, { auth: [id, secret] });
    const p = await portalSignIn(s, [id, secret]);
    await charge(s, tm, await newCustomer(s, tm), '10.00');
    const clock = await p.call('POST', `/merchants/${tm.merchant_id}/advance-clock`, { hours: '2' });
    expect(clock.status).toBe(200);
    expect(clock.body.message).toMatch(/^Sandbox clock advanced by 2 hours/);
    expect((await p.call('POST', `/merchants/${tm.merchant_id}/advance-clock`, { hours: 0 })).status).toBe(400);
    const settle = await p.call('POST', `/merchants/${tm.merchant_id}/settle`);
    expect(settle.body).toEqual({ message: 'Settled 1 transaction.' });
  });
});
