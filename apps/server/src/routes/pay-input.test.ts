import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newMerchant, type TestMerchant } from '../testing/fixtures.js';
import { startTestServer, tableCounts, type TestServer } from '../testing/harness.js';

/**
 * Bad input of every shape on the pay page's POSTs: a clear 4xx in the error envelope, never a
 * 5xx, and nothing written (no transaction, no challenge, no stored idempotency answer).
 */

let s: TestServer;
let m: TestMerchant;
let linkId: string;
let challengeLink: string;
let challengeId: string;
beforeAll(async () => {
  s = await startTestServer();
  m = await newMerchant(s);
  const mk = async () => {
    const res = await s.http({
      method: 'POST',
      path: '/api/v1/pay-link',
      auth: m.auth,
      json: { merchant_key: m.merchant_key, amount: '10.00' },
    });
    return String(res.body.data.payment_link).split('/').pop()!;
  };
  linkId = await mk();
  challengeLink = await mk();
  const ch = await s.http({
    method: 'POST',
    path: `/pay/api/links/${challengeLink}/pay`,
    headers: { 'idempotency-key': randomUUID() },
    json: { method: 'card', card: { ...card, number: '4000000000003220' } },
  });
  challengeId = ch.body.challenge.id;
});
afterAll(() => s.close());

const card = {
  number: '4242424242424242',
  exp_month: 12,
  exp_year: new Date().getUTCFullYear() + 2,
  cvc: '123',
  name: 'Ada',
  zip: '94105',
};
const bank = {
  holder_name: 'Ada',
  routing_number: '011000015',
  account_number: '000123456789',
  account_type: 'checking',
};
const HUGE = 'x'.repeat(100_000);

async function counts() {
  const c = await tableCounts(s.core);
  const r = (await s.core.ctx.db.execute(
    'select (select count(*) from idempotency_keys)::int as k, (select count(*) from pay_challenges)::int as ch' as never,
  )) as unknown as {
    rows: Array<{ k: number; ch: number }>;
  };
  return { ...c, ...r.rows[0] };
}

type Case = [string, { json?: unknown; raw?: string; headers?: Record<string, string> }];

const payCases: Case[] = [
  ['no body', { raw: '', headers: { 'content-type': 'application/json' } }],
  ['malformed JSON', { raw: '{"method":"card",', headers: { 'content-type': 'application/json' } }],
  ['text/plain', { raw: 'method=card', headers: { 'content-type': 'text/plain' } }],
  ['form-encoded', { raw: 'method=card&card=1', headers: { 'content-type': 'application/x-www-form-urlencoded' } }],
  ['an array', { json: [1, 2] }],
  ['a string', { json: 'card' }],
  ['null', { json: null }],
  ['no method', { json: { card } }],
  ['unknown method', { json: { method: 'bitcoin', card } }],
  ['card missing', { json: { method: 'card' } }],
  ['card a string', { json: { method: 'card', card: '4242424242424242' } }],
  ['number missing', { json: { method: 'card', card: { ...card, number: undefined } } }],
  ['number letters', { json: { method: 'card', card: { ...card, number: '4242abcd42424242' } } }],
  ['number huge', { json: { method: 'card', card: { ...card, number: HUGE } } }],
  ['number a number', { json: { method: 'card', card: { ...card, number: 4242424242424242 } } }],
  ['exp_month 0', { json: { method: 'card', card: { ...card, exp_month: 0 } } }],
  ['exp_month 13', { json: { method: 'card', card: { ...card, exp_month: 13 } } }],
  ['exp_month text', { json: { method: 'card', card: { ...card, exp_month: 'twelve' } } }],
  ['exp_month 1.5', { json: { method: 'card', card: { ...card, exp_month: 1.5 } } }],
  ['exp_year negative', { json: { method: 'card', card: { ...card, exp_year: -2030 } } }],
  ['exp_year far future', { json: { method: 'card', card: { ...card, exp_year: 2999 } } }],
  ['cvc letters', { json: { method: 'card', card: { ...card, cvc: 'abc' } } }],
  ['cvc 5 digits', { json: { method: 'card', card: { ...card, cvc: '12345' } } }],
  ['name empty', { json: { method: 'card', card: { ...card, name: '   ' } } }],
  ['name huge', { json: { method: 'card', card: { ...card, name: HUGE } } }],
  ['name NUL', { json: { method: 'card', card: { ...card, name: 'A\u0000B' } } }],
  ['zip object', { json: { method: 'card', card: { ...card, zip: { x: 1 } } } }],
  ['ach without bank', { json: { method: 'ach', authorization_accepted: true } }],
  ['ach unaccepted', { json: { method: 'ach', bank, authorization_accepted: false } }],
  ['ach accepted as text', { json: { method: 'ach', bank, authorization_accepted: 'true' } }],
  [
    'ach account type',
    { json: { method: 'ach', bank: { ...bank, account_type: 'brokerage' }, authorization_accepted: true } },
  ],
  [
    'ach routing letters',
    { json: { method: 'ach', bank: { ...bank, routing_number: 'abcdefghi' }, authorization_accepted: true } },
  ],
  [
    'ach routing negative',
    { json: { method: 'ach', bank: { ...bank, routing_number: -11000015 }, authorization_accepted: true } },
  ],
  [
    'ach account huge',
    { json: { method: 'ach', bank: { ...bank, account_number: HUGE }, authorization_accepted: true } },
  ],
  [
    'body over 1 MB',
    {
      raw: JSON.stringify({ method: 'card', card: { ...card, name: 'x'.repeat(1_100_000) } }),
      headers: { 'content-type': 'application/json' },
    },
  ],
];

describe('POST /pay/api/links/{link_id}/pay refuses bad input', () => {
  it.each(payCases)('%s → 4xx envelope, nothing written', async (_what, req) => {
    const before = await counts();
    const res = await s.http({
      method: 'POST',
      path: `/pay/api/links/${linkId}/pay`,
      ...(req.json !== undefined ? { json: req.json } : { raw: req.raw }),
      headers: { 'idempotency-key': randomUUID(), ...req.headers },
    });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expect(res.body).toMatchObject({
      result: false,
      code: expect.any(String),
      message: expect.any(String),
      request_id: expect.any(String),
    });
    expect(await counts()).toEqual(before);
  });

  it.each([
    ['an empty key', ''],
    ['a key over 255 characters', 'k'.repeat(256)],
  ])('Idempotency-Key: %s → 400', async (_what, key) => {
    const before = await counts();
    const res = await s.http({
      method: 'POST',
      path: `/pay/api/links/${linkId}/pay`,
      json: { method: 'card', card },
      headers: { 'idempotency-key': key },
    });
    expect(res.status).toBe(400);
    expect(await counts()).toEqual(before);
  });

  it('a link id over 100 characters → 4xx', async () => {
    const res = await s.http({
      method: 'POST',
      path: `/pay/api/links/ord_${'a'.repeat(200)}/pay`,
      json: { method: 'card', card },
      headers: { 'idempotency-key': randomUUID() },
    });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
  });
});

describe('POST /pay/api/links/{link_id}/challenges/{id} refuses bad input', () => {
  it.each([
    ['no outcome', { json: {} }],
    ['an unknown outcome', { json: { outcome: 'maybe' } }],
    ['outcome a number', { json: { outcome: 1 } }],
    ['malformed JSON', { raw: '{', headers: { 'content-type': 'application/json' } }],
  ] as Case[])('%s → 400, the challenge still open', async (_what, req) => {
    const before = await counts();
    const res = await s.http({
      method: 'POST',
      path: `/pay/api/links/${challengeLink}/challenges/${challengeId}`,
      ...(req.json !== undefined ? { json: req.json } : { raw: req.raw }),
      headers: { 'idempotency-key': randomUUID(), ...req.headers },
    });
    expect(res.status).toBe(400);
    expect(await counts()).toEqual(before);
  });
});
