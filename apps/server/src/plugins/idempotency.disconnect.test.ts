import { connect, type Socket } from 'node:net';
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
  (
    await rows(
      s,
      sql`select count(*)::int as c from transactions where merchant_id = ${m.merchant_id} and amount_cents = ${amount}`,
    )
  )[0]!.c as number;

it('the charge of a client that disconnected is kept for its retry: replayed, charged once', async () => {
  const body = JSON.stringify({ merchant_key: m.merchant_key, amount: '17.31', order_id: 'gone-order-1' });
  const path = `/api/v1/customers/charge/${customerId}`;
  const url = new URL(s.url);
  const auth = Buffer.from(`${m.auth[0]}:${m.auth[1]}`).toString('base64');
  const serverSide = new Promise<Socket>((r) => s.app.server.once('connection', r));
  const sock = connect(Number(url.port), url.hostname);
  await new Promise<void>((r) => sock.once('connect', () => r()));
  const closed = new Promise<void>((r) => void serverSide.then((c) => c.once('close', () => r())));
  // The card network answers only once the client is gone: the charge runs on without it.
  const processor = s.core.ctx.processor;
  const authorize = processor.authorizeCard.bind(processor);
  let called!: () => void;
  const reached = new Promise<void>((r) => (called = r));
  let answer!: () => void;
  const gate = new Promise<void>((r) => (answer = r));
  processor.authorizeCard = async (...args) => (called(), await gate, authorize(...args));
  try {
    sock.write(
      `POST ${path} HTTP/1.1\r\nHost: ${url.host}\r\nAuthorization: Basic ${auth}\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nIdempotency-Key: gone-1\r\n\r\n${body}`,
    );
    await reached;
    sock.destroy();
    await closed; // the server has seen its client go
    answer();
    const until = Date.now() + 10_000;
    while ((await chargesOf(1731)) === 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
  } finally {
    processor.authorizeCard = authorize;
  }
  expect(await chargesOf(1731)).toBe(1);
  // The request has finished with its key (stored, or with the defect, released).
  const keyState = async () =>
    (await rows(s, sql`select status_code from idempotency_keys where key = 'gone-1'`))[0]?.status_code;
  while ((await keyState()) === 0) await new Promise((r) => setTimeout(r, 20));
  const retry = await s.http({
    method: 'POST',
    path,
    auth: m.auth,
    raw: body,
    headers: { 'content-type': 'application/json', 'idempotency-key': 'gone-1' },
  });
  expect(retry.status).toBe(200);
  expect(retry.headers['idempotent-replayed']).toBe('true');
  expect(retry.body).toMatchObject({ result: true, data: { amount: '17.31' } });
  expect(await chargesOf(1731)).toBe(1);
});
