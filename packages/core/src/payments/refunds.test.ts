import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { transactions } from '../db/schema.js';
import { refundInput } from '@remit/contract';
import { refundTransaction } from './refunds.js';
import { coreCharge, coreFixture, type CoreFixture } from './test-support.js';

const H = 3_600_000;
let t = Date.parse('2026-04-01T08:00:00.000Z');
let f: CoreFixture;
beforeAll(async () => {
  f = await coreFixture(() => new Date(t));
});
afterAll(() => f.core.close());

const refund = async (transaction_id: string, amount: string) =>
  refundTransaction(
    f.core.ctx,
    await f.merchant(),
    refundInput.parse({ merchant_key: f.merchantKey, transaction_id, amount }),
  );
const row = async (id: string) => (await f.core.ctx.db.select().from(transactions).where(eq(transactions.id, id)))[0]!;

describe('the 24-hour rule (docs/concepts.md), measured on the merchant clock', () => {
  it('a full refund exactly 24 hours after completion is still a refund', async () => {
    t = Date.parse('2026-04-01T08:00:00.000Z');
    const id = await coreCharge(f, '10.00');
    t += 24 * H;
    const r = await refund(id, '10.00');
    expect(r.data.type).toBe('Refund');
    expect((await row(id)).isStatus).toBe(5);
  });

  it('one millisecond later it is performed as a void', async () => {
    t = Date.parse('2026-04-05T08:00:00.000Z');
    const id = await coreCharge(f, '10.00');
    t += 24 * H + 1;
    const r = await refund(id, '10.00');
    expect(r.data).toMatchObject({ type: 'Void', amount: 10, linked_txn_id: id });
    expect((await row(id)).isStatus).toBe(4);
  });

  it('after a partial refund, refunding the rest of an old payment is a refund, not a void', async () => {
    t = Date.parse('2026-04-10T08:00:00.000Z');
    const id = await coreCharge(f, '10.00');
    await refund(id, '1.00');
    t += 48 * H;
    const r = await refund(id, '9.00');
    expect(r.data.type).toBe('Refund');
    expect(await row(id)).toMatchObject({ isStatus: 5, refundedCents: 1000 });
  });

  it('refund records carry a negative net and the refunded amount', async () => {
    t = Date.parse('2026-04-20T08:00:00.000Z');
    const id = await coreCharge(f, '10.00');
    const r = await refund(id, '2.50');
    expect(await row(r.data.sales_id)).toMatchObject({
      type: 'Refund',
      amountCents: 250,
      netCents: -250,
      linkedTxnId: id,
      isStatus: 2,
    });
  });
});
