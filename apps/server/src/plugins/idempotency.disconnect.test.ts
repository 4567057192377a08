import { connect } from 'node:net';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../testing/harness.js';
import { newMerchant, type TestMerchant } from '../testing/fixtures.js';
import { newCustomer, rows } from '../testing/payments.js';

/**
 * A client that sent its whole charge and then went away (its own timeout, a dropped connection)
 * retries with the same Idempotency-Key. The server did charge: that answer is its decision and is
 * replayed. Forgotten because the client was gone, the retry would run again: a second charge, or
 * (the order id already used) a 409 that never tells the client its card was charged.
 */
let s: TestServer;
let m: TestMerchant;
let customerId: number;
beforeAll(async () => {
  s = await startTestServer();
  m = await newMerchant(s);
  customerId = await newCustomer(s, m);
});
afterAll(() => s.close());

const chargesOf = async (amount: number) =>
  (await rows(s, sql`select count(*)::int as c from transactions where merchant_id = ${m.merchant_id} and amount_cents = ${amount}`))[0]!.c as number;

it('the charge of a client that disconnected is kept for its retry: replayed, charged once', async () => {
  const body = JSON.stringify({ merchant_key: m.merchant_key, amount: '17.31', order_id: 'gone-order-1' });
  const path = `/api/v1/customers/charge/${customerId}`;
  const url = new URL(s.url);
  const auth = Buffer.from(`${m.auth[0]}:${m.auth[1]}`).toString('base64');
  const sock = connect(Number(url.port), url.hostname);
  await new Promise<void>((r) => sock.once('connect', () => r()));
  sock.write(
    `POST ${path} HTTP/1.1\r\nHost: ${url.host}\r\nAuthorization: Basic ${auth}\r\nContent-Type: application/json\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nIdempotency-Key: gone-1\r\n\r\n${body}`,
  );
  // Gone before any answer (its request sent in full first): the charge runs on without its client.
  sock.end();
  sock.on('data', () => sock.destroy());
  const until = Date.now() + 10_000;
  while ((await chargesOf(1731)) === 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
  expect(await chargesOf(1731)).toBe(1);
  await new Promise((r) => setTimeout(r, 200)); // its answer stored
  const retry = await s.http({ method: 'POST', path, auth: m.auth, raw: body, headers: { 'content-type': 'application/json', 'idempotency-key': 'gone-1' } });
  expect(retry.status).toBe(200);
  expect(retry.headers['idempotent-replayed']).toBe('true');
  expect(retry.body).toMatchObject({ result: true, data: { amount: '17.31' } });
  expect(await chargesOf(1731)).toBe(1);
});
