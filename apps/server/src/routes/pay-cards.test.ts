import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addCardViewSchema } from '@remit/contract';
import { newMerchant, type TestMerchant } from '../testing/fixtures.js';
import { startTestServer, tableCounts, type TestServer } from '../testing/harness.js';
import { noonClock, rows, txnRow } from '../testing/payments.js';

/**
 * The add-card page's calls: a `request-card` token stores a card on the customer (no charge),
 * and the merchant then charges it with `POST /customers/charge/{customerId}`.
 */

let s: TestServer;
let m: TestMerchant;
beforeAll(async () => {
  s = await startTestServer({ now: noonClock() });
  m = await newMerchant(s);
});
afterAll(() => s.close());

const YEAR = new Date().getUTCFullYear() + 2;
const card = (number = '5555555555554444') => ({
  number,
  exp_month: 11,
  exp_year: YEAR,
  cvc: '321',
  name: 'Rita Levi',
  zip: '10001',
});
const api = (path: string, json: Record<string, unknown>) =>
  s.http({ method: 'POST', path: `/api/v1${path}`, auth: m.auth, json: { merchant_key: m.merchant_key, ...json } });
const cardView = (token: string) => s.http({ method: 'GET', path: `/pay/api/cards/${token}` });
const addCard = (token: string, body: Record<string, unknown> = { card: card() }, key: string | null = randomUUID()) =>
  s.http({
    method: 'POST',
    path: `/pay/api/cards/${token}`,
    json: body,
    headers: key ? { 'idempotency-key': key } : {},
  });

/** A customer (optionally with a card already) and the token of a card request sent to them. */
async function cardRequest(withCard = false): Promise<{ customerId: number; token: string }> {
  const add = await api('/customers/add', {
    first_name: 'Rita',
    last_name: 'Levi',
    email: 'rita@example.com',
    ...(withCard
      ? { card: { number: '4242424242424242', exp_month: 1, exp_year: YEAR, cvc: '111', zip: '94105' } }
      : {}),
  });
  const customerId = add.body.data.customer_id as number;
  expect((await api(`/customers/request-card/${customerId}`, {})).status).toBe(200);
  const [link] = await rows(
    s,
    sql`select id from pay_links where customer_id = ${customerId} and kind = 'card_request'`,
  );
  return { customerId, token: link!.id };
}

describe('GET /pay/api/cards/{token}', () => {
  it('shows the merchant and the customer first name, open', async () => {
    const { token } = await cardRequest();
    const res = await cardView(token);
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(addCardViewSchema.parse(res.body)).toEqual(res.body);
    expect(res.body).toEqual({
      token,
      merchant: {
        name: 'Acme Coffee LLC',
        logo_url: null,
        primary_color: null,
        stylesheet: null,
        accepts_payments: true,
        restricted: false,
      },
      customer_first_name: 'Rita',
      status: 'open',
      saved_card: null,
      // The sandbox simulator: Remit's own fields take its test cards.
      card_entry: { kind: 'remit' },
      sandbox: true,
    });
    expect(JSON.stringify(res.body)).not.toContain('rita@example.com');
  });

  it('404 for an unknown token and for a pay link id; a card token is not a pay link', async () => {
    const { token } = await cardRequest();
    const pl = await api('/pay-link', { amount: '1.00' });
    const linkId = String(pl.body.data.payment_link).split('/').pop()!;
    expect((await cardView('ord_unknown00000000000')).body.code).toBe('card_link_not_found');
    expect((await cardView(linkId)).status).toBe(404);
    expect((await s.http({ method: 'GET', path: `/pay/api/links/${token}` })).status).toBe(404);
    const before = await tableCounts(s.core);
    const pay = await s.http({
      method: 'POST',
      path: `/pay/api/links/${token}/pay`,
      json: { method: 'card', card: card() },
      headers: { 'idempotency-key': randomUUID() },
    });
    expect(pay.status).toBe(404);
    expect((await addCard(linkId)).status).toBe(404);
    expect(await tableCounts(s.core)).toEqual(before);
  });
});

describe('POST /pay/api/cards/{token}', () => {
  it('stores the card on the customer (encrypted, no CVC, the default), charges nothing; the merchant then charges it', async () => {
    const { customerId, token } = await cardRequest(true);
    const txnsBefore = (await tableCounts(s.core)).transactions;
    const res = await addCard(token);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'saved', brand: 'Mastercard', last_four: '4444' });
    expect((await tableCounts(s.core)).transactions).toBe(txnsBefore);

    const methods = await rows(
      s,
      sql`select type, brand, last4, is_default, number_enc from payment_methods where customer_id = ${customerId} order by created_at`,
    );
    expect(methods.map((x) => [x.brand, x.last4, x.is_default])).toEqual([
      ['Visa', '4242', false],
      ['Mastercard', '4444', true],
    ]);
    expect(methods[1]!.number_enc).not.toContain('5555555555554444');
    const all = JSON.stringify(await rows(s, sql`select * from payment_methods where customer_id = ${customerId}`));
    expect(all).not.toContain('321');

    expect((await cardView(token)).body).toMatchObject({
      status: 'saved',
      saved_card: { brand: 'Mastercard', last_four: '4444' },
    });

    const charge = await api(`/customers/charge/${customerId}`, { amount: 19.99, order_id: 'after-add-card' });
    expect(charge.status).toBe(200);
    expect(charge.body.data).toMatchObject({
      card_brand: 'Mastercard',
      last_four: '4444',
      is_status: 2,
      amount: '19.99',
    });
    expect(await txnRow(s, charge.body.transaction_id)).toMatchObject({ is_status: 2, amount: 1999 });
  });

  it('one card per token: a second add is 409; a retry with the same key replays the first answer', async () => {
    const { token } = await cardRequest();
    const key = randomUUID();
    const [a, b] = await Promise.all([addCard(token, { card: card() }, key), addCard(token, { card: card() }, key)]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(a.body).toEqual(b.body);
    const second = await addCard(token, { card: card('4242424242424242') });
    expect(second.status).toBe(409);
    expect(second.body.code).toBe('card_already_saved');
    const [n] = await rows(
      s,
      sql`select count(*)::int as c from payment_methods pm join pay_links l on l.customer_id = pm.customer_id where l.id = ${token}`,
    );
    expect(n!.c).toBe(1);
  });

  it('checks the card like the pay page does, and writes nothing on a refusal', async () => {
    const { token } = await cardRequest();
    const before = await tableCounts(s.core);
    const cases: Array<[Record<string, unknown>, number, string]> = [
      [{ card: card('4111111111111111') }, 400, 'card.number'],
      [{ card: card('4242424242424241') }, 400, 'card.number'],
      [{ card: { ...card(), exp_year: 2001 } }, 400, 'card.exp_year'],
      [{ card: { ...card(), exp_month: 13 } }, 400, 'card.exp_month'],
      [{ card: { ...card(), cvc: '12' } }, 400, 'card.cvc'],
      [{ card: { ...card(), name: '' } }, 400, 'card.name'],
      [{ card: { ...card(), zip: '!' } }, 400, 'card.zip'],
      [{ card: { ...card(), number: 4242424242424242 } }, 400, 'card.number'],
      [{}, 400, 'card'],
    ];
    for (const [body, status, path] of cases) {
      const res = await addCard(token, body);
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(res.body.errors[0].path, JSON.stringify(body)).toBe(path);
    }
    expect((await addCard(token, { card: card() }, null)).status).toBe(400);
    expect(await tableCounts(s.core)).toEqual(before);
  });

  it('410 after the merchant deletes the card request link', async () => {
    const { token } = await cardRequest();
    await s.http({
      method: 'DELETE',
      path: `/api/v1/pay-link/${token}`,
      auth: m.auth,
      json: { merchant_key: m.merchant_key },
    });
    const v = await cardView(token);
    expect(v.status).toBe(410);
    expect(v.body.code).toBe('card_link_cancelled');
    expect((await addCard(token)).status).toBe(410);
  });

  it('409 link_not_deletable once the card was saved through the link; the saved page stays', async () => {
    const { token } = await cardRequest();
    expect((await addCard(token)).status).toBe(200);
    const res = await s.http({
      method: 'DELETE',
      path: `/api/v1/pay-link/${token}`,
      auth: m.auth,
      json: { merchant_key: m.merchant_key },
    });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ result: false, code: 'link_not_deletable' });
    expect(res.body.message).toContain('card was saved through this link');
    expect((await cardView(token)).body.status).toBe('saved');
  });
});
