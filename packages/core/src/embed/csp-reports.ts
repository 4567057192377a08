import { and, count, desc, eq, gt, sql } from 'drizzle-orm';
import {
  DEFAULT_LIMIT,
  type CspReport,
  type CspViolation,
  type ListCspReportsInput,
  type legacyCspReportBody,
  type reportingApiBody,
} from '@remit/contract';
import type * as z from 'zod';
import type { Ctx } from '../context.js';
import { cspReports } from '../db/schema.js';
import { newId } from '../ids.js';
import type { Merchant } from '../merchants/merchant-key.js';
import { inTransaction } from '../operation.js';
import { recordEvent } from '../webhooks/outbox.js';

const HOUR_MS = 60 * 60 * 1000;
/** Longest text kept of a reported field (a browser trims addresses it reports, not always enough). */
const FIELD_MAX = 2048;

const clip = (s: string | undefined) => (s ?? '').slice(0, FIELD_MAX);

/** The violations of a `report-uri` body (one) or a Reporting API body (its `csp-violation` reports). */
export function violationsOf(
  body: z.output<typeof legacyCspReportBody> | z.output<typeof reportingApiBody>,
): CspViolation[] {
  if (!Array.isArray(body)) {
    const r = body['csp-report'];
    return [
      {
        blockedUri: clip(r['blocked-uri']),
        // CSP 2 browsers name only the violated directive, with its sources after it.
        directive: clip(r['effective-directive'] || r['violated-directive']?.split(' ')[0]),
        documentUri: clip(r['document-uri']),
        disposition: clip(r.disposition || 'enforce'),
      },
    ];
  }
  return body
    .filter((r) => r.type === 'csp-violation' && r.body)
    .map((r) => ({
      blockedUri: clip(r.body!.blockedURL),
      directive: clip(r.body!.effectiveDirective),
      documentUri: clip(r.body!.documentURL || r.url),
      disposition: clip(r.body!.disposition || 'enforce'),
    }));
}

/** True when the blocked address is on Remit's own origin: its loader, chunk or pay frame. */
function isRemitResource(blocked: string, publicUrl: string): boolean {
  try {
    return new URL(blocked).origin === new URL(publicUrl).origin;
  } catch {
    return false; // `inline`, `eval`, `data` and other keywords
  }
}

/**
 * Stores each violation and tells the platform (`merchant.csp_violation`) about a blocked address
 * the merchant has not heard of in the last hour. Reports of one address are taken one at a time
 * (an advisory lock), so two at once send one webhook.
 */
export async function recordCspReports(ctx: Ctx, merchant: Merchant, violations: CspViolation[]): Promise<number> {
  const now = ctx.now();
  return inTransaction(ctx, async (tx, scoped) => {
    for (const v of violations) {
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`csp ${merchant.id} ${v.blockedUri}`}))`);
      const [heard] = await tx
        .select({ id: cspReports.id })
        .from(cspReports)
        .where(
          and(
            eq(cspReports.merchantId, merchant.id),
            eq(cspReports.blockedUri, v.blockedUri),
            eq(cspReports.notified, true),
            gt(cspReports.createdAt, new Date(now.getTime() - HOUR_MS)),
          ),
        )
        .limit(1);
      const id = newId.cspReport();
      const remitResource = isRemitResource(v.blockedUri, ctx.publicUrl);
      await tx.insert(cspReports).values({
        id,
        merchantId: merchant.id,
        blockedUri: v.blockedUri,
        directive: v.directive,
        documentUri: v.documentUri,
        disposition: v.disposition,
        remitResource,
        notified: !heard,
        createdAt: now,
      });
      if (!heard)
        await recordEvent(scoped, {
          clientId: merchant.clientId,
          merchantId: merchant.id,
          type: 'merchant.csp_violation',
          data: {
            merchant_id: merchant.id,
            report_id: id,
            blocked_uri: v.blockedUri,
            directive: v.directive,
            document_uri: v.documentUri,
            remit_resource: remitResource,
          },
        });
    }
    return violations.length;
  });
}

const toWire = (r: typeof cspReports.$inferSelect): CspReport => ({
  id: r.id,
  blocked_uri: r.blockedUri,
  directive: r.directive,
  document_uri: r.documentUri,
  disposition: r.disposition,
  remit_resource: r.remitResource,
  received_at: r.createdAt.toISOString(),
});

/** `GET /merchant/csp-reports`: newest first, a page at a time, with the count of all kept. */
export async function listCspReports(
  ctx: Pick<Ctx, 'db'>,
  merchant: Pick<Merchant, 'id'>,
  input: Pick<ListCspReportsInput, 'limit' | 'pageNumber'>,
): Promise<{ data: CspReport[]; total: number }> {
  const limit = input.limit ?? DEFAULT_LIMIT;
  const rows = await ctx.db
    .select()
    .from(cspReports)
    .where(eq(cspReports.merchantId, merchant.id))
    .orderBy(desc(cspReports.createdAt), desc(cspReports.id))
    .limit(limit)
    .offset((input.pageNumber ?? 0) * limit);
  const [all] = await ctx.db.select({ n: count() }).from(cspReports).where(eq(cspReports.merchantId, merchant.id));
  return { data: rows.map(toWire), total: Number(all?.n ?? 0) };
}

/** The merchant's reports received since `since`, newest first (the SAQ A document lists them). */
export async function cspReportsSince(
  ctx: Pick<Ctx, 'db'>,
  merchant: Pick<Merchant, 'id'>,
  since: Date,
  max = 500,
): Promise<CspReport[]> {
  const rows = await ctx.db
    .select()
    .from(cspReports)
    .where(and(eq(cspReports.merchantId, merchant.id), gt(cspReports.createdAt, since)))
    .orderBy(desc(cspReports.createdAt), desc(cspReports.id))
    .limit(max);
  return rows.map(toWire);
}
