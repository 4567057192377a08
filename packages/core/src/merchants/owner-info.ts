import { and, eq, sql } from 'drizzle-orm';
import type { Ctx } from '../context.js';
import { merchants } from '../db/schema.js';
import type { Vault } from '../encryption.js';

/** The owner's fields that identify a person: kept only encrypted, like the SSN. */
export const SEALED_OWNER_FIELDS = [
  'date_of_birth',
  'b_dl_number',
  'address',
  'city',
  'state',
  'zip',
  'country',
] as const;

/**
 * The `owner_info` column as stored: the owner's date of birth, driver's licence number and home
 * address sealed together in `personal_enc` (AES-256-GCM, the Vault), the rest (name, title,
 * contact, ownership share) in clear.
 */
export function sealOwnerInfo(vault: Vault, owner: Record<string, unknown>): Record<string, unknown> {
  const clear: Record<string, unknown> = {};
  const personal: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(owner)) {
    if ((SEALED_OWNER_FIELDS as readonly string[]).includes(k)) personal[k] = v;
    else if (k !== 'personal_enc') clear[k] = v;
  }
  return { ...clear, personal_enc: vault.encrypt(JSON.stringify(personal)) };
}

/** The owner's fields back, for whoever needs them (the acquirer's review). */
export function openOwnerInfo(vault: Vault, stored: Record<string, unknown>): Record<string, unknown> {
  const { personal_enc, ...clear } = stored;
  return typeof personal_enc === 'string' ? { ...clear, ...JSON.parse(vault.decrypt(personal_enc)) } : clear;
}

/**
 * Rows written before the owner's personal fields were encrypted hold them in clear: seal them.
 * Run at start; safe in several processes at once (a row is rewritten only while still in clear).
 */
export async function sealLegacyOwnerInfo(ctx: Pick<Ctx, 'db' | 'vault'>): Promise<number> {
  const legacy = await ctx.db
    .select({ id: merchants.id, ownerInfo: merchants.ownerInfo })
    .from(merchants)
    .where(
      sql`not (${merchants.ownerInfo} ? 'personal_enc') and ${merchants.ownerInfo} ?| array['date_of_birth','b_dl_number','address']`,
    );
  for (const row of legacy) {
    const owner = row.ownerInfo as Record<string, unknown>;
    await ctx.db
      .update(merchants)
      .set({ ownerInfo: sealOwnerInfo(ctx.vault, owner) })
      .where(and(eq(merchants.id, row.id), sql`not (${merchants.ownerInfo} ? 'personal_enc')`));
  }
  return legacy.length;
}
