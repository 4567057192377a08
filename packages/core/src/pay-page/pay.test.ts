import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCredentials } from '../clients/credentials.js';
import { messages, payChallenges, payLinks, transactions } from '../db/schema.js';
import { insertTestMerchant, openTestCore, type TestCore } from '../webhooks/test-support.js';
import { paymentRequestBody } from '@remit/contract';
import { createPaymentRequest } from '../links/payment-requests.js';
import { lockMerchant } from '../merchants/merchant-key.js';
import { isRemitError } from '../errors.js';
import { CHALLENGE_TTL_MS, answerChallenge, payLink } from './pay.js';

/**
 * The core operation on its own (no HTTP): one charge per link under concurrent attempts, the
 * challenge's lifetime, and one transaction per attempt (the receipt email commits with the sale).
 */

let core: TestCore;
let merchantId: string;
let offsetMs = 0;
beforeAll(async () => {
  core = await openTestCore();
  const base = core.ctx.now;
  core.ctx.now = () => new Date(base().getTime() + offsetMs);
  const { client_id } = await createCredentials(core.ctx);
  merchantId = await insertTestMerchant(core, client_id);
});
afterAll(() => core.close());

const card = (number = '4242424242424242') => ({
  number,
  exp_month: 12,
  exp_year: new Date().getUTCFullYear() + 1,
  cvc: '123',
  name: 'Ada',
  zip: '94105',
});

async function request(extra: Record<string, unknown> = {}) {
  const merchant = await lockMerchant(core.ctx.db, merchantId);
  const { merchant_key: _k, ...input } = paymentRequestBody.parse({
    merchant_key: 'mk',
    amount: '20.00',
    order_id: randomUUID(),
    ...extra,
  });
  return (await createPaymentRequest(core.ctx, merchant, input)).data.link_id;
}

const codeOf = (p: Promise<unknown>) =>
  p.then(
    () => 'paid',
    (e) => (isRemitError(e) ? e.code : `unexpected: ${String(e)}`),
  );

describe('payLink', () => {
  it('ten concurrent attempts on one link: exactly one charge, the others link_already_paid', async () => {
    const id = await request();
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        codeOf(payLink(core.ctx, id, { method: 'card', card: card(i % 2 ? '5555555555554444' : '4242424242424242') })),
      ),
    );
    expect(results.filter((r) => r === 'paid')).toHaveLength(1);
    expect(results.filter((r) => r === 'link_already_paid')).toHaveLength(9);
    const rows = await core.ctx.db.select().from(transactions).where(eq(transactions.payLinkId, id));
    expect(rows.map((r) => r.isStatus)).toEqual([2]);
    const r = (await core.ctx.db.execute(
      sql`select count(*)::int as c from events where event_type = 'payment.success' and payload->>'link_id' = ${id}`,
    )) as unknown as { rows: Array<{ c: number }> };
    expect(r.rows[0]!.c).toBe(1);
  });

  it('the receipt email is queued in the same transaction as the charge', async () => {
    const id = await request({ email: 'ada@example.com' });
    const result = await payLink(core.ctx, id, { method: 'card', card: card() });
    expect(result.status).toBe('paid');
    const queued = await core.ctx.db.select().from(messages).where(eq(messages.payLinkId, id));
    // The request email, then the receipt.
    expect(queued.map((m) => m.subject)).toEqual([
      expect.stringMatching(/^Payment request/),
      'Receipt from Acme Coffee LLC: $20.00',
    ]);
  });

  it('a refused card changes nothing: no row, the link still open', async () => {
    const id = await request();
    await expect(payLink(core.ctx, id, { method: 'card', card: { ...card(), exp_year: 2001 } })).rejects.toMatchObject({
      code: 'card_expired',
    });
    expect(await core.ctx.db.select().from(transactions).where(eq(transactions.payLinkId, id))).toHaveLength(1);
    const [link] = await core.ctx.db.select().from(payLinks).where(eq(payLinks.id, id));
    expect(link!.status).toBe('open');
  });
});

describe('3-D Secure challenges', () => {
  it('expire after 15 minutes: the answer is refused and the link stays open', async () => {
    const id = await request();
    const res = await payLink(core.ctx, id, { method: 'card', card: card('4000000000003220') });
    if (res.status !== 'challenge') throw new Error('expected a challenge');
    offsetMs = CHALLENGE_TTL_MS + 1000;
    try {
      await expect(answerChallenge(core.ctx, id, res.challenge.id, 'complete')).rejects.toMatchObject({
        code: 'challenge_expired',
        kind: 'declined',
      });
    } finally {
      offsetMs = 0;
    }
    const [ch] = await core.ctx.db.select().from(payChallenges).where(eq(payChallenges.id, res.challenge.id));
    expect(ch!.status).toBe('failed');
    const [link] = await core.ctx.db.select().from(payLinks).where(eq(payLinks.id, id));
    expect(link!.status).toBe('open');
  });

  it('two concurrent completions of one challenge charge once', async () => {
    const id = await request();
    const res = await payLink(core.ctx, id, { method: 'card', card: card('4000000000003220') });
    if (res.status !== 'challenge') throw new Error('expected a challenge');
    const results = await Promise.all(
      [0, 1, 2].map(() => codeOf(answerChallenge(core.ctx, id, res.challenge.id, 'complete'))),
    );
    expect(results.filter((r) => r === 'paid')).toHaveLength(1);
    expect(results.filter((r) => r !== 'paid').every((r) => r === 'link_already_paid')).toBe(true);
  });
});
