import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { startTestServer, tableCounts, type TestServer } from '../testing/harness.js';
import { newMerchant, type TestMerchant } from '../testing/fixtures.js';
import { gatewayRefOf, merchantPost, noonClock, rows, txnRow } from '../testing/payments.js';
import { stripeBankCustomer } from '../testing/stripe-cards.js';
import { emulatedStripe, startStripeEmulator, type StripeEmulator } from '../testing/stripe-emulator.js';

/**
 * The entry of `POST /stripe/webhooks`: a signature dated outside the tolerance either way, and a
 * correctly signed body that is not an event the handlers can read, are refused with 400 and one
 * log line, and change nothing.
 */

let emu: StripeEmulator;
let s: TestServer;
let m: TestMerchant;
const log: string[] = [];
beforeAll(async () => {
  emu = await startStripeEmulator();
  s = await startTestServer({
    now: noonClock(),
    processor: emulatedStripe(emu),
    logStream: { write: (l) => void log.push(l) },
    logLevel: 'warn',
  });
  m = await newMerchant(s);
});
afterAll(async () => {
  await s?.close();
  await emu?.close();
});

const nowS = () => Math.floor(Date.now() / 1000);
async function deliver(payload: string, timestamp?: number) {
  const res = await fetch(`${s.url}/stripe/webhooks`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'stripe-signature': emu.sign(payload, { timestamp }) },
    body: payload,
  });
  return { status: res.status, body: (await res.json()) as any };
}
const claimedEvents = async () =>
  (
    await rows<{ n: number }>(s, sql`select count(*)::int as n from idempotency_keys where client_id = 'stripe:events'`)
  )[0]!.n;
const refusals = () =>
  log
    .map((l) => JSON.parse(l) as { level: number; msg: string; code?: string })
    .filter((l) => l.msg.startsWith('Stripe event refused: '));

async function achSale() {
  const customer = await stripeBankCustomer(s, m, emu);
  const res = await merchantPost(s, m, `/customers/charge/${customer}`, {
    amount: '25.00',
    order_id: `o-${Math.random().toString(36).slice(2)}`,
  });
  expect(res.body.data).toMatchObject({ status: 'pending', payment_method: 'ach' });
  const id = res.body.data.transaction_id as string;
  return { id, pid: await gatewayRefOf(s, id) };
}

describe('the signature time', () => {
  it('an hour ahead of our clock: 400, nothing changes; a minute ahead (clocks a little apart) still applies', async () => {
    const { id, pid } = await achSale();
    const payload = JSON.stringify(emu.settleAch(pid, 'succeeded'));
    const before = { tables: await tableCounts(s.core), events: await claimedEvents() };
    const ahead = await deliver(payload, nowS() + 3600);
    expect(ahead).toMatchObject({
      status: 400,
      body: {
        result: false,
        code: 'invalid_request',
        message: "Stripe-Signature does not verify: its timestamp is more than 300 s ahead of this server's clock",
      },
    });
    expect(await deliver(payload, nowS() + 301 + 5)).toMatchObject({ status: 400 });
    expect({ tables: await tableCounts(s.core), events: await claimedEvents() }).toEqual(before);
    expect(await txnRow(s, id)).toMatchObject({ status: 'pending' });
    const close = await deliver(payload, nowS() + 60);
    expect(close).toMatchObject({ status: 200, body: { received: true, handled: 'applied' } });
    expect(await txnRow(s, id)).toMatchObject({ status: 'completed' });
  });
});

describe('a correctly signed body that is not an event', () => {
  const event = (type: string, data: unknown) =>
    JSON.stringify({ id: `evt_${Math.random().toString(36).slice(2)}`, object: 'event', created: nowS(), type, data });
  it.each([
    ['null', 'null', 'it is null, not an object'],
    ['a list', '[]', 'it is a list, not an object'],
    ['a string', '"evt_1"', 'it is a string, not an object'],
    ['a number', '42', 'it is a number, not an object'],
    ['not JSON', '{"id": "evt_1", ', 'it is not JSON'],
    [
      'an event without data',
      JSON.stringify({ id: 'evt_nodata', object: 'event', created: 1, type: 'payment_intent.succeeded' }),
      'its data.object is not an object',
    ],
    [
      'an account.updated with a null object',
      event('account.updated', { object: null }),
      'its data.object is not an object',
    ],
    [
      'an account.updated whose object is a string',
      event('account.updated', { object: 'acct_1' }),
      'its data.object is not an object',
    ],
    [
      'an account.updated whose object has no id',
      event('account.updated', { object: { object: 'account', charges_enabled: true } }),
      'its data.object has no id',
    ],
    [
      'a payment_intent event carrying a charge',
      event('payment_intent.succeeded', { object: { id: 'ch_1', object: 'charge' } }),
      'a payment_intent.succeeded event carries a payment_intent, not charge',
    ],
    ['an unknown shape', JSON.stringify({ hello: 'world' }), 'it has no id'],
    [
      'an event without a type',
      JSON.stringify({ id: 'evt_notype', created: 1, data: { object: { id: 'x' } } }),
      'it has no type',
    ],
  ])('%s: 400 naming why, one log line, nothing changes', async (_what, payload, why) => {
    const before = { tables: await tableCounts(s.core), events: await claimedEvents(), logged: refusals().length };
    const res = await deliver(payload);
    const message = `The signed body is not a Stripe event: ${why}.`;
    expect(res).toEqual({
      status: 400,
      body: { result: false, code: 'invalid_request', message, request_id: expect.any(String) },
    });
    expect({ tables: await tableCounts(s.core), events: await claimedEvents() }).toEqual({
      tables: before.tables,
      events: before.events,
    });
    expect(refusals().slice(before.logged)).toEqual([
      expect.objectContaining({ level: 40, code: 'invalid_request', msg: `Stripe event refused: ${message}` }),
    ]);
  });

  it('an event of a type nobody handles, of the right shape, is still received and ignored', async () => {
    const res = await deliver(event('customer.created', { object: { id: 'cus_1', object: 'customer' } }));
    expect(res).toMatchObject({ status: 200, body: { received: true, handled: 'ignored' } });
  });
});
