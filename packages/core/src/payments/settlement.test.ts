import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lastCutoff, parseCutoff } from './settlement.js';
import { coreFixture, coreCharge, type CoreFixture } from './test-support.js';
import { voidInput } from '@remit/contract';
import { voidTransaction } from './voids.js';
import { isSettled } from './settlement.js';
import { transactions } from '../db/schema.js';
import { eq } from 'drizzle-orm';

const H = 3_600_000;

describe('the daily cutoff', () => {
  it('REMIT_SETTLEMENT_CUTOFF is HH or HH:MM (UTC), default midnight', () => {
    expect(parseCutoff(undefined)).toBe(0);
    expect(parseCutoff('')).toBe(0);
    expect(parseCutoff('6')).toBe(6 * H);
    expect(parseCutoff('18:30')).toBe(18.5 * H);
    for (const bad of ['24', '7:60', 'noon', '-1']) expect(() => parseCutoff(bad)).toThrow(/REMIT_SETTLEMENT_CUTOFF/);
  });

  it('the last cutoff is today’s when it has passed, else yesterday’s', () => {
    const at = new Date('2026-03-10T05:00:00.000Z');
    expect(lastCutoff(at, 0).toISOString()).toBe('2026-03-10T00:00:00.000Z');
    expect(lastCutoff(at, 6 * H).toISOString()).toBe('2026-03-09T06:00:00.000Z');
    expect(lastCutoff(new Date('2026-03-10T06:00:00.000Z'), 6 * H).toISOString()).toBe('2026-03-10T06:00:00.000Z');
  });
});

describe('settlement decides voids (merchant clock)', () => {
  let t = Date.parse('2026-03-10T23:59:00.000Z');
  let f: CoreFixture;
  beforeAll(async () => {
    f = await coreFixture(() => new Date(t));
  });
  afterAll(() => f.core.close());

  const voidIt = async (id: string) =>
    voidTransaction(
      f.core.ctx,
      await f.merchant(),
      voidInput.parse({ merchant_key: f.merchantKey, transaction_id: id }),
    );

  it('a card payment completed before midnight is settled after it; one completed after is not', async () => {
    t = Date.parse('2026-03-10T23:59:00.000Z');
    const before = await coreCharge(f, '5.00');
    t = Date.parse('2026-03-11T00:00:30.000Z');
    const after = await coreCharge(f, '5.00');
    const [row] = await f.core.ctx.db.select().from(transactions).where(eq(transactions.id, before));
    expect(isSettled(row!, new Date(t), 0)).toBe(true);
    await expect(voidIt(before)).rejects.toMatchObject({
      code: 'transaction_settled',
      message: 'The transaction has been settled, a void is not allowed.',
    });
    await expect(voidIt(after)).resolves.toMatchObject({ data: { type: 'Void' } });
  });

  it('with REMIT_SETTLEMENT_CUTOFF=06:00 the same payment is still voidable at 00:00:30', async () => {
    f.core.ctx.settlementCutoffMs = parseCutoff('06:00');
    try {
      t = Date.parse('2026-03-12T23:59:00.000Z');
      const id = await coreCharge(f, '5.00');
      t = Date.parse('2026-03-13T00:00:30.000Z');
      await expect(voidIt(id)).resolves.toMatchObject({ data: { type: 'Void', linked_txn_id: id } });
    } finally {
      f.core.ctx.settlementCutoffMs = 0;
    }
  });
});
