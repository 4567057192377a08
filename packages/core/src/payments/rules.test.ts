import fc from 'fast-check';
import { sql, type SQL } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestCore, type TestCore } from '../webhooks/test-support.js';
import { feeFor, feeRule, type Pricing } from './fees.js';
import type { Guard } from './guard.js';
import { PAYMENT_SUCCESS, PREAUTH_CHARGE, payloadOf, payloadSql, voidFromOriginal } from './payloads.js';
import { rowsOf } from './records.js';
import { col, type Expr, type TxnRow, type Values } from './row-expr.js';
import {
  heldCents,
  preauthCaptureGuard,
  preauthUpdateGuard,
  preauthVoidGuard,
  refundableCents,
  refundGuard,
  refundIsVoid,
  refundTakesRest,
  voidGuard,
  voidNetCents,
  voidTakes,
} from './rules.js';
import { becomesSettled, dueToSettle, settledBy } from './settlement.js';
import { IS_STATUS, type TxnState } from './state.js';

/**
 * Each money rule is one `Expr`: what TypeScript decides on a row and what the guarded statements'
 * SQL decides on the same row must never differ. Random rows (every type, state and balance, near
 * the boundaries) and parameters go through both: `eval` here, and the rule's SQL over the row as
 * the database types it (`jsonb_populate_record(null::transactions, …)`), on PGlite or Postgres.
 */

let core: TestCore;
beforeAll(async () => {
  core = await openTestCore();
});
afterAll(() => core.close());

const HOUR = 3_600_000;
const T0 = Date.parse('2026-06-01T00:00:00.000Z');
const time = fc.integer({ min: -72, max: 72 }).map((h) => new Date(T0 + h * HOUR + (h % 3) * 1));

const rowArb: fc.Arbitrary<TxnRow> = fc
  .record({
    type: fc.constantFrom('Sale', 'PreAuth', 'Void', 'Refund', 'Return'),
    paymentMethod: fc.constantFrom('card', 'ach'),
    state: fc.constantFrom(...(Object.keys(IS_STATUS) as TxnState[])),
    amountCents: fc.integer({ min: 1, max: 100_000 }),
    refundedShare: fc.constantFrom(0, 0.5, 1, 1.2),
    authorizedCents: fc.option(fc.integer({ min: 1, max: 100_000 }), { nil: null }),
    feeCents: fc.integer({ min: 0, max: 5_000 }),
    settled: fc.boolean(),
    completedAt: fc.option(time, { nil: null }),
    createdAt: time,
    orderId: fc.option(fc.constantFrom('', 'ord-1', 'ü"\\'), { nil: null }),
    payLinkId: fc.option(fc.constant('ord_x'), { nil: null }),
  })
  .map((r) => {
    const refundedCents = Math.floor(r.amountCents * r.refundedShare);
    return {
      id: 'txn_rule',
      merchantId: 'm_rule',
      type: r.type,
      paymentMethod: r.paymentMethod,
      isStatus: IS_STATUS[r.state],
      status: r.state,
      amountCents: r.amountCents,
      authorizedCents: r.authorizedCents,
      feeCents: r.feeCents,
      feeRateE7: 29_000_000,
      netCents: r.amountCents - r.feeCents,
      refundedCents,
      settled: r.settled,
      settledAt: null,
      completedAt: r.completedAt,
      linkedTxnId: null,
      payLinkId: r.payLinkId,
      customerId: null,
      paymentMethodId: null,
      orderId: r.orderId,
      invoiceNumber: null,
      orderCreatedfrom: 'API',
      gatewayRef: 'gw_1',
      authCode: 'A1',
      cardBrand: 'Visa',
      lastFour: '4242',
      declineReason: null,
      depositInfo: null,
      disputeId: null,
      disputeStatus: null,
      disputeChangedAt: null,
      createdAt: r.createdAt,
      updatedAt: r.createdAt,
    } satisfies TxnRow;
  });

/** Parameters near the row's own amounts and times, so the boundaries are hit. */
const valuesArb = (row: TxnRow): fc.Arbitrary<Values> =>
  fc.record({
    cents: fc.oneof(
      fc.constantFrom(row.amountCents, row.amountCents - row.refundedCents, row.amountCents + 1, 1),
      fc.integer({ min: 1, max: 200_000 }),
    ),
    last: fc.oneof(fc.constant(row.authorizedCents ?? row.amountCents), fc.integer({ min: 1, max: 100_000 })),
    cutoff: fc.oneof(fc.constant(row.completedAt ?? row.createdAt), time).map((d) => d.toISOString()),
    voidAge: fc.oneof(fc.constant(row.completedAt ?? row.createdAt), time).map((d) => d.toISOString()),
  });

const pricingArb = fc.record<Pricing>({
  cardFeeRateE7: fc.integer({ min: 0, max: 100_000_000 }),
  cardFeeFixedCents: fc.integer({ min: 0, max: 1_000 }),
  achFeeRateE7: fc.integer({ min: 0, max: 100_000_000 }),
  achFeeCapCents: fc.integer({ min: 0, max: 100_000 }),
});

const asJsonRow = (row: TxnRow) => {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(row))
    out[k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)] = v instanceof Date ? v.toISOString() : v;
  return JSON.stringify(out);
};

/** Every rule of `rules`, by SQL on the row as the database types it, in one statement. */
async function inSql(row: TxnRow, v: Values, rules: Record<string, Expr<unknown>>): Promise<Record<string, unknown>> {
  const cols = Object.entries(rules).map(([k, e]) => sql`${e.sql('o', v)} as ${sql.identifier(k)}`);
  const [r] = rowsOf<Record<string, unknown>>(
    await core.ctx.db.execute(
      sql`select ${sql.join(cols, sql`, `)} from jsonb_populate_record(null::transactions, ${asJsonRow(row)}::jsonb) o`,
    ),
  );
  return r!;
}

const inTs = (row: TxnRow, v: Values, rules: Record<string, Expr<unknown>>) =>
  Object.fromEntries(Object.entries(rules).map(([k, e]) => [k, e.eval(row, v)]));

/** bigint columns come back as text from one driver and numbers from the other; -0 is 0 once stored. */
const normal = (r: Record<string, unknown>) =>
  Object.fromEntries(
    Object.entries(r).map(([k, x]) => [
      k,
      typeof x === 'string' || typeof x === 'bigint' || typeof x === 'number' ? Number(x) + 0 : x,
    ]),
  );

const guards: Record<string, Guard> = {
  refund: refundGuard,
  void: voidGuard,
  preauthUpdate: preauthUpdateGuard,
  preauthCapture: preauthCaptureGuard,
  preauthVoid: preauthVoidGuard,
};

const rules: Record<string, Expr<unknown>> = {
  ...Object.fromEntries(Object.entries(guards).map(([k, g]) => [`${k}Allows`, g.allows])),
  refundIsVoid,
  refundTakesRest,
  heldCents,
  refundableCents,
  voidNetCents,
  voidTakesAuthorized: voidTakes('authorized')!,
  voidTakesCompleted: voidTakes('completed')!,
  dueToSettle,
  settledBy,
  becomesSettled,
};

describe('each rule decides the same in TypeScript and in SQL', () => {
  it('property: guards, amounts, the 24-hour rule and the cutoff rule, on any row', async () => {
    await fc.assert(
      fc.asyncProperty(
        rowArb.chain((row) => fc.tuple(fc.constant(row), valuesArb(row))),
        async ([row, v]) => {
          expect(normal(await inSql(row, v, rules))).toEqual(normal(inTs(row, v, rules)));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('property: a guard allows exactly when it finds no refusal on the locked row', async () => {
    await fc.assert(
      fc.property(
        rowArb.chain((row) => fc.tuple(fc.constant(row), valuesArb(row))),
        ([row, v]) => {
          for (const g of Object.values(guards)) expect(g.allows.eval(row, v)).toBe(g.refusal(row, v) === null);
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('property: the fee a capture prices in SQL is feeFor of the held amount, card and ACH', async () => {
    const rule = feeRule(col.text('paymentMethod'), heldCents);
    const fee = { feeCents: rule.feeCents, rateE7: rule.rateE7, netCents: rule.netCents };
    await fc.assert(
      fc.asyncProperty(rowArb, pricingArb, async (row, pricing) => {
        const method = row.paymentMethod as 'card' | 'ach';
        expect(normal(await inSql(row, pricing, fee))).toEqual(
          normal({ ...feeFor(pricing, method, row.authorizedCents ?? row.amountCents) }),
        );
      }),
      { numRuns: 200 },
    );
  });

  it('property: payment.success, preauth.charge and a void event carry the same payload from either side', async () => {
    const payloadJson = (fields: Record<string, SQL>) =>
      sql`jsonb_build_object(${sql.join(
        Object.entries(fields).map(([k, f]) => sql`${k}::text, ${f}`),
        sql`, `,
      )})`;
    const asExpr = (fields: Record<string, SQL>): Expr<unknown> => ({
      eval: () => null,
      sql: () => payloadJson(fields),
      js: () => 'null',
    });
    const take = voidTakes('completed')!;
    await fc.assert(
      fc.asyncProperty(rowArb, async (row) => {
        const r = await inSql(
          row,
          {},
          {
            success: asExpr(payloadSql(PAYMENT_SUCCESS, 'o')),
            charge: asExpr(payloadSql(PREAUTH_CHARGE, 'o')),
            void: asExpr(payloadSql(voidFromOriginal(take), 'o')),
          },
        );
        const parsed = (x: unknown) => (typeof x === 'string' ? JSON.parse(x) : x);
        expect(parsed(r.success)).toEqual(payloadOf(PAYMENT_SUCCESS, row));
        expect(parsed(r.charge)).toEqual(payloadOf(PREAUTH_CHARGE, row));
        expect(parsed(r.void)).toEqual(payloadOf(voidFromOriginal(take), row));
      }),
      { numRuns: 150 },
    );
  });
});

describe('the refusals, in the order of the spec', () => {
  const base = fc.sample(rowArb, { numRuns: 1, seed: 7 })[0]!;
  const row = (over: Partial<TxnRow>): TxnRow => ({
    ...base,
    type: 'Sale',
    paymentMethod: 'card',
    settled: false,
    refundedCents: 0,
    ...over,
  });
  const code = (g: Guard, r: TxnRow, v: Values) => g.refusal(r, v)?.code ?? 'ok';
  const at = (iso: string) => new Date(iso);
  const v = { cents: 500, last: 1000, cutoff: '2026-06-01T00:00:00.000Z', voidAge: '2026-05-31T00:00:00.000Z' };
  const completed = {
    isStatus: IS_STATUS.completed,
    amountCents: 1000,
    completedAt: at('2026-06-01T01:00:00.000Z'),
    createdAt: at('2026-06-01T01:00:00.000Z'),
  };

  it.each<[string, Partial<TxnRow>, Values, string]>([
    ['a completed payment', completed, v, 'ok'],
    [
      'a fully refunded payment',
      { ...completed, isStatus: IS_STATUS.refunded, refundedCents: 1000 },
      v,
      'already_refunded',
    ],
    ['a refund record', { ...completed, type: 'Refund' }, v, 'not_refundable'],
    [
      'an open preauthorization',
      { ...completed, type: 'PreAuth', isStatus: IS_STATUS.authorized },
      v,
      'not_refundable',
    ],
    ['more than the original', completed, { ...v, cents: 1001 }, 'amount_over_original'],
    ['more than is left', { ...completed, refundedCents: 600 }, v, 'amount_over_remaining'],
    ['all that is left', { ...completed, refundedCents: 500 }, v, 'ok'],
  ])('refund: %s → %s', (_name, over, values, expected) => {
    expect(code(refundGuard, row(over), values)).toBe(expected);
  });

  it.each<[string, Partial<TxnRow>, string]>([
    ['a completed payment after the cutoff', completed, 'ok'],
    ['a void record', { ...completed, type: 'Void' }, 'not_voidable'],
    ['a flagged settled payment', { ...completed, settled: true }, 'transaction_settled'],
    [
      'a card payment completed before the cutoff',
      { ...completed, completedAt: at('2026-05-31T23:59:59.999Z') },
      'transaction_settled',
    ],
    [
      'an ACH payment completed before the cutoff',
      { ...completed, paymentMethod: 'ach', completedAt: at('2026-05-31T23:00:00.000Z') },
      'ok',
    ],
    ['a voided payment', { ...completed, isStatus: IS_STATUS.voided }, 'already_voided'],
    ['a refunded payment', { ...completed, isStatus: IS_STATUS.refunded }, 'already_refunded'],
    ['an open preauthorization', { ...completed, type: 'PreAuth', isStatus: IS_STATUS.authorized }, 'not_voidable'],
    ['a pending payment', { ...completed, isStatus: IS_STATUS.pending }, 'not_voidable'],
  ])('void: %s → %s', (_name, over, expected) => {
    expect(code(voidGuard, row(over), v)).toBe(expected);
  });

  it.each<[string, Partial<TxnRow>, string]>([
    [
      'an open preauthorization holding last',
      { type: 'PreAuth', isStatus: IS_STATUS.authorized, amountCents: 1000, authorizedCents: 1000 },
      'ok',
    ],
    ['a sale', { type: 'Sale', isStatus: IS_STATUS.authorized }, 'not_original_preauth'],
    ['a voided preauthorization', { type: 'PreAuth', isStatus: IS_STATUS.voided }, 'preauth_voided'],
    ['a captured preauthorization', { type: 'PreAuth', isStatus: IS_STATUS.completed }, 'preauth_captured'],
    ['a declined preauthorization', { type: 'PreAuth', isStatus: IS_STATUS.declined }, 'preauth_not_open'],
    [
      'an open preauthorization holding another amount',
      { type: 'PreAuth', isStatus: IS_STATUS.authorized, authorizedCents: 999 },
      'amount_mismatch',
    ],
  ])('preauth update: %s → %s', (_name, over, expected) => {
    expect(code(preauthUpdateGuard, row(over), v)).toBe(expected);
  });

  it('the 24-hour rule: a full refund of a payment completed before voidAge, nothing refunded yet', () => {
    const old = row({ ...completed, completedAt: at('2026-05-30T23:59:59.999Z') });
    expect(refundIsVoid.eval(old, { ...v, cents: 1000 })).toBe(true);
    expect(refundIsVoid.eval(old, { ...v, cents: 999 })).toBe(false);
    expect(
      refundIsVoid.eval(row({ ...completed, completedAt: at('2026-05-31T00:00:00.000Z') }), { ...v, cents: 1000 }),
    ).toBe(false);
    expect(refundIsVoid.eval(row({ ...old, refundedCents: 1 }), { ...v, cents: 1000 })).toBe(false);
  });
});
