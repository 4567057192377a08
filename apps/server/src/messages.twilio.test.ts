import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCredentials, twilioConnector } from '@remit/core';
import { newMerchant, type TestMerchant } from './testing/fixtures.js';
import { startTestServer, type TestServer } from './testing/harness.js';
import { rows } from './testing/payments.js';
import { startTwilioEmulator, TWILIO_INVALID_NUMBER, type TwilioEmulator } from './testing/twilio-emulator.js';

/**
 * SMS through the official twilio package to an emulator of Twilio's Messages API, from the running
 * server's dispatcher, and Twilio's signed delivery reports back at POST /twilio/status.
 */
const FROM = '+15005550006';
let twilio: TwilioEmulator;
let s: TestServer;
let m: TestMerchant;

beforeAll(async () => {
  twilio = await startTwilioEmulator();
  const sms = twilioConnector({
    accountSid: twilio.accountSid,
    authToken: twilio.authToken,
    from: FROM,
    apiUrl: twilio.url,
  });
  s = await startTestServer({ workers: { messages: { pollMs: 10, sms } }, twilioAuthToken: twilio.authToken });
  m = await newMerchant(s, { business_name: 'Acme Coffee LLC' });
});
afterAll(async () => {
  await s?.close();
  await twilio?.close();
});

const addCustomer = async (phone_number: string) => {
  const res = await s.http({
    method: 'POST',
    path: '/api/v1/customers/add',
    auth: m.auth,
    json: { merchant_key: m.merchant_key, first_name: 'Jane', last_name: 'Doe', phone_number },
  });
  expect(res.status).toBe(200);
  return res.body.data.customer_id as number;
};
const authRequest = (customerId: number, order_id: string) =>
  s.http({
    method: 'POST',
    path: `/api/v1/requests/${customerId}`,
    auth: m.auth,
    json: { merchant_key: m.merchant_key, order_id, amount: '25.00' },
  });
const messageOf = async (linkId: string) =>
  (
    await rows(s, sql`select status, attempts, last_error, provider_id from messages where pay_link_id = ${linkId}`)
  )[0]!;
const inboxOf = async (phone: string) =>
  (
    await s.http({
      method: 'GET',
      path: `/sandbox/messages?merchant_key=${m.merchant_key}&recipient=${encodeURIComponent(phone)}`,
      auth: m.auth,
    })
  ).body.data.messages[0];

describe('SMS through Twilio', () => {
  let linkId: string;
  let sid: string;

  it('an authorization request goes to Twilio with To, From and a Body carrying the pay link, and the answer says sent', async () => {
    const customer = await addCustomer('(415) 555-0142');
    const res = await authRequest(customer, 'twilio-1');
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Authorization request created and sent by SMS.');
    linkId = res.body.data.link_id;
    const sent = twilio.messages.filter((x) => x.to === '+14155550142');
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ from: FROM, messagingServiceSid: null, statusCallback: `${s.url}/twilio/status` });
    expect(sent[0]!.body).toContain(res.body.data.pay_link);
    expect(sent[0]!.body).toContain('Acme Coffee LLC');
    expect(sent[0]!.body).toContain('25.00');
    sid = sent[0]!.sid;
    expect(await messageOf(linkId)).toEqual({ status: 'sent', attempts: 1, last_error: null, provider_id: sid });
    expect(await inboxOf('+14155550142')).toMatchObject({
      channel: 'sms',
      status: 'sent',
      attempts: 1,
      last_error: null,
    });
  });

  it("with an Idempotency-Key the answer (stored with the request's work, before the commit) says queued at once, and the SMS then goes", async () => {
    const customer = await addCustomer('(415) 555-0177');
    const send = () =>
      s.http({
        method: 'POST',
        path: `/api/v1/requests/${customer}`,
        auth: m.auth,
        headers: { 'idempotency-key': 'twilio-keyed' },
        json: { merchant_key: m.merchant_key, order_id: 'twilio-keyed', amount: '25.00' },
      });
    const started = Date.now();
    const res = await send();
    // Not the first-try wait (5 s): nothing another process could send was committed yet.
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(res.status).toBe(200);
    expect(res.body.message).toContain('The SMS is queued');
    expect(res.body.message).not.toContain('sent by SMS');
    const keyedLink = res.body.data.link_id as string;
    for (let i = 0; i < 100 && (await messageOf(keyedLink)).status !== 'sent'; i++)
      await new Promise((r) => setTimeout(r, 50));
    expect(await messageOf(keyedLink)).toMatchObject({ status: 'sent', attempts: 1 });
    expect(twilio.messages.filter((x) => x.to === '+14155550177')).toHaveLength(1);
    const again = await send();
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(res.body);
  });

  it('a callback with a bad signature, or none, is 403 and changes nothing', async () => {
    const forged = await twilio.report(sid, 'undelivered', { errorCode: '30003', signWith: 'not-the-token' });
    expect(forged.status).toBe(403);
    expect(forged.body).toMatchObject({ result: false, code: 'invalid_signature' });
    const unsigned = await twilio.report(sid, 'undelivered', { signature: '' });
    expect(unsigned.status).toBe(403);
    expect(await messageOf(linkId)).toMatchObject({ status: 'sent', last_error: null });
  });

  it('a signed `delivered` callback marks the message delivered', async () => {
    const res = await twilio.report(sid, 'delivered');
    expect(res.status).toBe(204);
    expect(await messageOf(linkId)).toEqual({ status: 'delivered', attempts: 1, last_error: null, provider_id: sid });
    expect(await inboxOf('+14155550142')).toMatchObject({ status: 'delivered' });
    // Intermediate and late reports do not move a final status.
    expect((await twilio.report(sid, 'sent')).status).toBe(204);
    expect((await twilio.report(sid, 'undelivered', { errorCode: '30003' })).status).toBe(204);
    expect((await messageOf(linkId)).status).toBe('delivered');
  });

  it("a signed `undelivered` callback marks it undelivered with Twilio's error code", async () => {
    const customer = await addCustomer('+14155550143');
    const res = await authRequest(customer, 'twilio-2');
    expect(res.status).toBe(200);
    const msg = twilio.messages.find((x) => x.to === '+14155550143')!;
    expect((await twilio.report(msg.sid, 'undelivered', { errorCode: '30003' })).status).toBe(204);
    expect(await messageOf(res.body.data.link_id)).toMatchObject({
      status: 'undelivered',
      last_error: 'Twilio undelivered: error 30003',
    });
  });

  it('Twilio error 21211 (invalid number): the message fails at once, and the answer says it was not sent and why', async () => {
    const customer = await addCustomer(TWILIO_INVALID_NUMBER);
    const res = await authRequest(customer, 'twilio-3');
    expect(res.status).toBe(200);
    expect(res.body.message).toBe(
      `Authorization request created. The SMS could not be sent: Twilio error 21211: The 'To' number ${TWILIO_INVALID_NUMBER} is not a valid phone number.`,
    );
    expect(res.body.message).not.toMatch(/sent by SMS/);
    expect(twilio.requests.filter((r) => r.To === TWILIO_INVALID_NUMBER)).toHaveLength(1);
    expect(twilio.messages.some((x) => x.to === TWILIO_INVALID_NUMBER)).toBe(false);
    expect(await messageOf(res.body.data.link_id)).toEqual({
      status: 'failed',
      attempts: 1,
      last_error: `Twilio error 21211: The 'To' number ${TWILIO_INVALID_NUMBER} is not a valid phone number.`,
      provider_id: null,
    });
    // Refused for good: not tried again.
    await new Promise((r) => setTimeout(r, 300));
    expect(twilio.requests.filter((r) => r.To === TWILIO_INVALID_NUMBER)).toHaveLength(1);
  });

  it("the widget's payment request goes out through Twilio and answers sent", async () => {
    const res = await s.http({
      method: 'POST',
      path: `/widget/v1/payment-requests?public_key=${m.public_key}`,
      json: { amount: '15.00', phone_number: '+14155550144' },
      headers: { origin: 'https://shop.example' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      result: true,
      message: 'Payment request sent.',
      data: { status: 'sent', phone_last_four: '0144' },
    });
    const msg = twilio.messages.find((x) => x.to === '+14155550144')!;
    expect(msg).toMatchObject({ from: FROM });
    expect(msg.body).toContain(res.body.data.link_id);
  });

  it('a card request to a number Twilio refuses does not say sent', async () => {
    const customer = await addCustomer(TWILIO_INVALID_NUMBER);
    const res = await s.http({
      method: 'POST',
      path: `/api/v1/customers/request-card/${customer}`,
      auth: m.auth,
      json: { merchant_key: m.merchant_key },
    });
    expect([res.status, res.body.message]).toEqual([
      200,
      `Card request created. The SMS could not be sent: Twilio error 21211: The 'To' number ${TWILIO_INVALID_NUMBER} is not a valid phone number.`,
    ]);
  });

  it('POST /twilio/status with no Twilio configured is 404', async () => {
    const plain = await startTestServer();
    try {
      const res = await plain.http({
        method: 'POST',
        path: '/twilio/status',
        form: { MessageSid: sid, MessageStatus: 'delivered' },
      });
      expect(res.status).toBe(404);
    } finally {
      await plain.close();
    }
  });
});

describe('production with Twilio configured', () => {
  let p: TestServer;
  let pm: TestMerchant;
  beforeAll(async () => {
    const sms = twilioConnector({
      accountSid: twilio.accountSid,
      authToken: twilio.authToken,
      from: FROM,
      apiUrl: twilio.url,
    });
    p = await startTestServer({
      env: 'production',
      workers: { messages: { pollMs: 10, sms } },
      twilioAuthToken: twilio.authToken,
    });
    const c = await createCredentials(p.core.ctx);
    pm = await newMerchant(p, { auth: [c.client_id, c.secret_key], approve: false });
  });
  afterAll(() => p?.close());

  it('has the SMS channel (no inbox): a payment request goes out through Twilio, and without SMTP the email is named unsent', async () => {
    const res = await p.http({
      method: 'POST',
      path: '/api/v1/requests',
      auth: pm.auth,
      json: {
        merchant_key: pm.merchant_key,
        amount: '9.99',
        order_id: 'live-1',
        phone_number: '+14155550150',
        email: 'live@example.com',
      },
    });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe(
      'Payment request created and sent by SMS. Not sent by email: this server has no email transport configured.',
    );
    const msg = twilio.messages.find((x) => x.to === '+14155550150')!;
    expect(msg).toMatchObject({ from: FROM, statusCallback: `${p.url}/twilio/status` });
    expect(msg.body).toContain(res.body.data.pay_link);
    expect((await twilio.report(msg.sid, 'delivered')).status).toBe(204);
    const r = await p.core.ctx.db.execute(sql`select channel, status from messages`);
    expect((r as unknown as { rows: unknown[] }).rows).toEqual([{ channel: 'sms', status: 'delivered' }]);
  });
});
