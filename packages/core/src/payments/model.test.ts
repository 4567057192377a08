import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { transactions } from '../db/schema.js';
import { isRemitError } from '../errors.js';
import { openCore, type Core } from '../open.js';
import { preauthIdInput, refundInput, updatePreauthInput, voidInput } from '@remit/contract';
import { capturePreauth, updatePreauth, voidPreauth } from './preauth.js';
import { refundTransaction } from './refunds.js';
import { stateOf, type TxnState } from './state.js';
import { addTestMerchant, coreCharge, type CoreFixture } from './test-support.js';
import { voidTransaction } from './voids.js';

/**
 * Model-based test: random sequences of charges, preauthorizations, refunds, voids, preauth
 * updates and captures run against the service and against a few lines of reference model;
 * after every step the outcome (success or the error code) and every balance must agree.
 */

interface ModelTxn {
  id: string;
  kind: 'Sale' | 'PreAuth';
  state: TxnState;
  amount: number;
  refunded: number;
  authorized: number | null;
}

type Op =
  | { op: 'charge'; amount: number }
  | { op: 'preauth'; amount: number }
  | { op: 'refund'; pick: number; amount: number }
  | { op: 'void'; pick: number }
  | { op: 'update'; pick: number; stale: boolean; amount: number }
  | { op: 'capture'; pick: number }
  | { op: 'preauthVoid'; pick: number };

const cents = fc.integer({ min: 1, max: 3000 });
const pick = fc.nat(50);
const opArb: fc.Arbitrary<Op> = fc.oneof(
  { arbitrary: fc.record({ op: fc.constant('charge' as const), amount: cents }), weight: 2 },
  { arbitrary: fc.record({ op: fc.constant('preauth' as const), amount: cents }), weight: 2 },
  {
    arbitrary: fc.record({
      op: fc.constant('refund' as const),
      pick,
      amount: fc.oneof(cents, fc.integer({ min: 1, max: 400 })),
    }),
    weight: 4,
  },
  { arbitrary: fc.record({ op: fc.constant('void' as const), pick }), weight: 1 },
  { arbitrary: fc.record({ op: fc.constant('update' as const), pick, stale: fc.boolean(), amount: cents }), weight: 3 },
  { arbitrary: fc.record({ op: fc.constant('capture' as const), pick }), weight: 2 },
  { arbitrary: fc.record({ op: fc.constant('preauthVoid' as const), pick }), weight: 1 },
);

const text = (c: number) => `${Math.floor(c / 100)}.${String(c % 100).padStart(2, '0')}`;

/** The reference model: the outcome code of an operation ('ok' or the refusal), applied in place. */
function modelStep(txns: ModelTxn[], o: Op, newId?: string): string {
  if (o.op === 'charge') {
    txns.push({ id: newId!, kind: 'Sale', state: 'completed', amount: o.amount, refunded: 0, authorized: null });
    return 'ok';
  }
  if (o.op === 'preauth') {
    txns.push({
      id: newId!,
      kind: 'PreAuth',
      state: 'authorized',
      amount: o.amount,
      refunded: 0,
      authorized: o.amount,
    });
    return 'ok';
  }
  const t = txns[o.pick % txns.length]!;
  switch (o.op) {
    case 'refund':
      if (t.state === 'refunded') return 'already_refunded';
      if (t.state !== 'completed') return 'not_refundable';
      if (o.amount > t.amount) return 'amount_over_original';
      if (o.amount > t.amount - t.refunded) return 'amount_over_remaining';
      t.refunded += o.amount;
      if (t.refunded === t.amount) t.state = 'refunded';
      return 'ok';
    case 'void':
      if (t.state === 'voided') return 'already_voided';
      if (t.state === 'refunded') return 'already_refunded';
      if (t.state !== 'completed') return 'not_voidable';
      t.state = 'voided';
      return 'ok';
    default: {
      const last = o.op === 'update' ? (t.authorized ?? t.amount) + (o.stale ? 1 : 0) : 0;
      if (o.op === 'update' && o.amount === last) return 'amount_unchanged';
      if (t.kind !== 'PreAuth') return 'not_original_preauth';
      if (t.state === 'voided') return 'preauth_voided';
      if (t.state !== 'authorized') return 'preauth_captured';
      if (o.op === 'update') {
        if (o.stale) return 'amount_mismatch';
        t.authorized = o.amount;
        t.amount = o.amount;
      } else if (o.op === 'capture') {
        t.state = 'completed';
        t.amount = t.authorized!;
      } else {
        t.state = 'voided';
      }
      return 'ok';
    }
  }
}

let core: Core;
beforeAll(async () => {
  // Noon, and the clock stands still: nothing settles and nothing turns 24 hours old mid-run.
  const noon = Date.parse('2026-05-01T12:00:00.000Z');
  core = await openCore({
    env: 'sandbox',
    publicUrl: 'http://127.0.0.1',
    encryptionKey: randomBytes(32),
    now: () => new Date(noon),
  });
});
afterAll(() => core.close());

async function serviceStep(f: CoreFixture, txns: ModelTxn[], o: Op): Promise<{ code: string; id?: string }> {
  const { ctx } = core;
  const base = { merchant_key: f.merchantKey };
  try {
    if (o.op === 'charge' || o.op === 'preauth')
      return { code: 'ok', id: await coreCharge(f, text(o.amount), o.op === 'preauth') };
    const t = txns[o.pick % txns.length]!;
    const id = { ...base, transaction_id: t.id };
    if (o.op === 'refund')
      await refundTransaction(ctx, await f.merchant(), refundInput.parse({ ...id, amount: text(o.amount) }));
    if (o.op === 'void') await voidTransaction(ctx, await f.merchant(), voidInput.parse(id));
    if (o.op === 'capture') await capturePreauth(ctx, await f.merchant(), preauthIdInput.parse(id));
    if (o.op === 'preauthVoid') await voidPreauth(ctx, await f.merchant(), preauthIdInput.parse(id));
    if (o.op === 'update') {
      const last = (t.authorized ?? t.amount) + (o.stale ? 1 : 0);
      await updatePreauth(
        ctx,
        await f.merchant(),
        updatePreauthInput.parse({
          ...id,
          last_authorized_amount: text(last),
          new_authorized_amount: text(o.amount),
          order_id: 'model',
        }),
      );
    }
    return { code: 'ok' };
  } catch (e) {
    if (isRemitError(e)) return { code: e.code };
    throw e;
  }
}

describe('money movement against a reference model', () => {
  it('service and model never disagree', { timeout: 120_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { minLength: 1, maxLength: 24 }), async (ops) => {
        const f = await addTestMerchant(core);
        const model: ModelTxn[] = [];
        for (const o of ops) {
          if (model.length === 0 && o.op !== 'charge' && o.op !== 'preauth') continue;
          const got = await serviceStep(f, model, o);
          const want = modelStep(model, o, got.id);
          expect(got.code, JSON.stringify(o)).toBe(want);
        }
        const rows = await core.ctx.db.select().from(transactions).where(eq(transactions.merchantId, f.merchantId));
        for (const t of model) {
          const row = rows.find((r) => r.id === t.id)!;
          expect({
            state: stateOf(row.isStatus),
            amount: row.amountCents,
            refunded: row.refundedCents,
            authorized: row.authorizedCents,
          }).toEqual({
            state: t.state,
            amount: t.amount,
            refunded: t.refunded,
            authorized: t.authorized,
          });
          const recs = rows.filter((r) => r.linkedTxnId === t.id);
          const back = recs.reduce((a, r) => a + r.amountCents, 0);
          const net = row.netCents + recs.reduce((a, r) => a + r.netCents, 0);
          // What went back never exceeds what was taken; a voided payment nets the merchant to zero.
          if (t.state === 'voided') {
            expect(net).toBe(0);
            expect(back).toBe(t.amount);
          } else {
            expect(back).toBe(t.refunded);
            if (t.state !== 'authorized') expect(net).toBe(row.netCents - t.refunded);
          }
        }
      }),
      { numRuns: 150, interruptAfterTimeLimit: 30_000 },
    );
  });
});
