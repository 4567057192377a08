import { desc, eq, sql } from 'drizzle-orm';
import type { Ctx } from '../context.js';
import { merchants, transactions } from '../db/schema.js';
import { RemitError } from '../errors.js';
import type { MerchantStatus } from './merchants.js';

/** A merchant as the operator's tools show it: who, whose, and in what state; no key or document. */
export interface OperatorMerchant {
  merchant_id: string;
  client_id: string;
  businessname: string;
  email: string;
  status: MerchantStatus;
  join_date: string;
  approved_at: string | null;
}

const columns = {
  id: merchants.id,
  clientId: merchants.clientId,
  businessname: merchants.businessname,
  email: merchants.email,
  status: merchants.status,
  joinDate: merchants.joinDate,
  approvedAt: merchants.approvedAt,
};

type Row = { [K in keyof typeof columns]: (typeof merchants.$inferSelect)[K] };

const view = (r: Row): OperatorMerchant => ({
  merchant_id: r.id,
  client_id: r.clientId,
  businessname: r.businessname,
  email: r.email,
  status: r.status as MerchantStatus,
  join_date: r.joinDate.toISOString(),
  approved_at: r.approvedAt ? r.approvedAt.toISOString() : null,
});

const notFound = (id: string) => new RemitError('merchant_not_found', `No merchant has the id ${id}.`);

/** Every client's merchants, newest first; `status` keeps only those in it. */
export async function operatorMerchants(
  ctx: Pick<Ctx, 'db'>,
  opts: { status?: string; limit?: number } = {},
): Promise<OperatorMerchant[]> {
  const rows = await ctx.db
    .select(columns)
    .from(merchants)
    .where(opts.status ? eq(merchants.status, opts.status) : undefined)
    .orderBy(desc(merchants.joinDate), desc(merchants.id))
    .limit(opts.limit ?? 1000);
  return rows.map(view);
}

/** One merchant, with how many transactions it has and when the last was made. */
export async function operatorMerchant(
  ctx: Pick<Ctx, 'db'>,
  merchantId: string,
): Promise<OperatorMerchant & { transactions: number; last_transaction_at: string | null }> {
  const [row] = await ctx.db.select(columns).from(merchants).where(eq(merchants.id, merchantId));
  if (!row) throw notFound(merchantId);
  const [t] = await ctx.db
    .select({ n: sql<number>`count(*)::int`, last: sql<string | null>`max(${transactions.createdAt})` })
    .from(transactions)
    .where(eq(transactions.merchantId, merchantId));
  return {
    ...view(row),
    transactions: Number(t?.n ?? 0),
    last_transaction_at: t?.last ? new Date(t.last).toISOString() : null,
  };
}

/**
 * Suspends a merchant: every new payment (API charges and authorizations, the pay page, deposits)
 * is refused with `merchant_suspended` until it is reinstated. Refunds, voids and captures of what
 * was already authorized still work. Answers whether anything changed.
 */
export async function suspendMerchant(
  ctx: Pick<Ctx, 'db'>,
  merchantId: string,
): Promise<{ merchant: OperatorMerchant; changed: boolean }> {
  return ctx.db.transaction(async (tx) => {
    const [row] = await tx.select(columns).from(merchants).where(eq(merchants.id, merchantId)).for('update');
    if (!row) throw notFound(merchantId);
    if (row.status === 'suspended') return { merchant: view(row), changed: false };
    const [after] = await tx
      .update(merchants)
      .set({ status: 'suspended' })
      .where(eq(merchants.id, merchantId))
      .returning(columns);
    return { merchant: view(after!), changed: true };
  });
}

/** Lifts a suspension: back to `approved` if it was approved before, else `pending`. */
export async function reinstateMerchant(
  ctx: Pick<Ctx, 'db'>,
  merchantId: string,
): Promise<{ merchant: OperatorMerchant; changed: boolean }> {
  return ctx.db.transaction(async (tx) => {
    const [row] = await tx.select(columns).from(merchants).where(eq(merchants.id, merchantId)).for('update');
    if (!row) throw notFound(merchantId);
    if (row.status !== 'suspended') return { merchant: view(row), changed: false };
    const status = row.approvedAt ? 'approved' : 'pending';
    const [after] = await tx.update(merchants).set({ status }).where(eq(merchants.id, merchantId)).returning(columns);
    return { merchant: view(after!), changed: true };
  });
}
