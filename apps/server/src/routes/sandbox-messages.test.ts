import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCredentials, queueMessage, type OutgoingMessage, inTransaction } from '@remit/core';
import { eventually } from '@remit/core/testing';
import { newMerchant, type TestMerchant } from '../testing/fixtures.js';
import { startTestServer, type TestServer } from '../testing/harness.js';

let s: TestServer;
let a: TestMerchant;
let b: TestMerchant;
let stranger: TestMerchant;
beforeAll(async () => {
  s = await startTestServer({ workers: { messages: { pollMs: 10 } } });
  a = await newMerchant(s, { approve: false });
  b = await newMerchant(s, { auth: a.auth, approve: false, business_name: 'Beta Bakes' });
  stranger = await newMerchant(s, { approve: false });
  const q = (m: TestMerchant, msg: Omit<OutgoingMessage, 'merchantId'>) =>
    inTransaction(s.core.ctx, (_tx, c) => queueMessage(c, { merchantId: m.merchant_id, ...msg }));
  await q(a, { channel: 'sms', recipient: '+14155550101', bodyText: 'Acme: pay http://x/pay/1', payLinkId: 'ord_1' });
  await q(a, {
    channel: 'email',
    recipient: 'jane@example.com',
    subject: 'Pay Acme',
    bodyText: 'Pay http://x/pay/2',
    bodyHtml: '<p>Pay</p>',
  });
  await q(b, { channel: 'sms', recipient: '+14155550101', bodyText: 'Beta: pay http://x/pay/3' });
  await q(stranger, { channel: 'sms', recipient: '+14155550199', bodyText: 'not yours' });
  await eventually(async () => {
    const r = await s.http({ method: 'GET', path: '/sandbox/messages', auth: a.auth });
    return (
      r.body.data.totalCount === 3 &&
      r.body.data.messages.every((m: { status: string }) => m.status === 'delivered_to_inbox')
    );
  });
});
afterAll(() => s.close());

describe('GET /sandbox/messages', () => {
  it("lists the client's merchants' messages, newest first, delivered to the inbox", async () => {
    const res = await s.http({ method: 'GET', path: '/sandbox/messages', auth: a.auth });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ result: true, message: 'Sandbox messages.' });
    expect(res.body.data).toMatchObject({ page: 0, limit: 20, totalCount: 3, totalPage: 1 });
    const email = res.body.data.messages.find((m: { channel: string }) => m.channel === 'email');
    expect(email).toEqual({
      id: expect.stringMatching(/^msg_/),
      merchant_id: a.merchant_id,
      channel: 'email',
      recipient: 'jane@example.com',
      subject: 'Pay Acme',
      body_text: 'Pay http://x/pay/2',
      body_html: '<p>Pay</p>',
      pay_link_id: null,
      status: 'delivered_to_inbox',
      attempts: 1,
      last_error: null,
      next_attempt_at: null,
      created_at: expect.any(String),
      sent_at: expect.any(String),
    });
    expect(JSON.stringify(res.body)).not.toContain('not yours');
  });

  it('filters by merchant_key (query or GET body) and recipient', async () => {
    const byKey = await s.http({
      method: 'GET',
      path: `/sandbox/messages?merchant_key=${b.merchant_key}`,
      auth: a.auth,
    });
    expect(byKey.body.data.messages.map((m: { body_text: string }) => m.body_text)).toEqual([
      'Beta: pay http://x/pay/3',
    ]);
    const byBody = await s.http({
      method: 'GET',
      path: '/sandbox/messages',
      auth: a.auth,
      json: { merchant_key: a.merchant_key, recipient: '+14155550101' },
    });
    expect(byBody.body.data.messages.map((m: { body_text: string }) => m.body_text)).toEqual([
      'Acme: pay http://x/pay/1',
    ]);
    const byRecipient = await s.http({
      method: 'GET',
      path: '/sandbox/messages?recipient=%2B14155550101',
      auth: a.auth,
    });
    expect(byRecipient.body.data.totalCount).toBe(2);
  });

  it("another client's merchant_key is the usual 401", async () => {
    const res = await s.http({
      method: 'GET',
      path: `/sandbox/messages?merchant_key=${stranger.merchant_key}`,
      auth: a.auth,
    });
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ result: false, code: 'invalid_merchant_key' });
  });

  it('needs credentials', async () => {
    const res = await s.http({ method: 'GET', path: '/sandbox/messages' });
    expect(res.status).toBe(401);
  });

  it('bad paging is a 400 naming the field', async () => {
    const res = await s.http({ method: 'GET', path: '/sandbox/messages?limit=0', auth: a.auth });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].path).toBe('limit');
  });

  it('answers an error in production', async () => {
    const p = await startTestServer({ env: 'production' });
    try {
      const { client_id, secret_key } = await createCredentials(p.core.ctx);
      const res = await p.http({ method: 'GET', path: '/sandbox/messages', auth: [client_id, secret_key] });
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({ result: false, code: 'sandbox_only' });
    } finally {
      await p.close();
    }
  });
});
