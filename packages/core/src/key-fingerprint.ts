import { and, gt, isNotNull, sql } from 'drizzle-orm';
import type { Db } from './db/connect.js';
import { keyFingerprint } from './db/schema.js';
import type { Vault } from './encryption.js';
import { IDEMPOTENCY_TTL_MS } from './idempotency/idempotency.js';

/**
 * Every process on one database must be able to open what the others seal: a value sealed by one
 * process that another cannot open makes the owner call, replays and stored-card charges answer 500
 * and webhooks never go out. The database records the fingerprint of every key that sealed values
 * (the first process's key, and the new key of a rotation); a process refuses to start, before it
 * writes anything, unless it holds every one not yet retired: as its key or as its previous key
 * (REMIT_ENCRYPTION_KEY_PREVIOUS). `keys reseal` retires a key once nothing is sealed with it.
 */

export class KeyMismatchError extends Error {
  constructor(stored: string, own: string) {
    super(
      `this database was set up with another encryption key (fingerprint ${short(stored)}; this process has ${short(own)}). ` +
        'Every process on one database must use the same key: set REMIT_ENCRYPTION_KEY to the key the other processes use ' +
        '(in sandbox without it, each data folder makes its own encryption.key). ' +
        `If you are rotating the key, give the old one as REMIT_ENCRYPTION_KEY_PREVIOUS until \`npm run remit -- keys reseal\` reports nothing sealed with ${short(stored)} is left.`,
    );
    this.name = 'KeyMismatchError';
  }
}

const short = (fingerprint: string) => fingerprint.slice(0, 12);

/**
 * Checks the process holds every key in use, then records its own (the one it seals with). Runs under
 * a table lock, so two first starts with different keys agree on one. Also gives the vault the MAC
 * keys of keys retired less than a day ago: idempotency fingerprints they made still compare.
 */
export async function checkKeyFingerprint(db: Db, vault: Vault): Promise<void> {
  const own = vault.fingerprint();
  const held = new Set([own, vault.previousFingerprint()]);
  const retiredMacKeys = await db.transaction(async (tx) => {
    await tx.execute(sql`lock table key_fingerprint in share row exclusive mode`);
    const rows = await tx.select().from(keyFingerprint);
    const missing = rows.find((r) => !r.retiredAt && !held.has(r.fingerprint));
    if (missing) throw new KeyMismatchError(missing.fingerprint, own);
    // A key retired earlier and given again as the current key is in use again.
    await tx
      .insert(keyFingerprint)
      .values({ fingerprint: own })
      .onConflictDoUpdate({
        target: keyFingerprint.fingerprint,
        set: { retiredAt: null, macKeyEnc: null },
        setWhere: isNotNull(keyFingerprint.retiredAt),
      });
    return tx
      .select({ macKeyEnc: keyFingerprint.macKeyEnc })
      .from(keyFingerprint)
      .where(
        and(
          isNotNull(keyFingerprint.macKeyEnc),
          gt(keyFingerprint.retiredAt, new Date(Date.now() - IDEMPOTENCY_TTL_MS)),
        ),
      );
  });
  const opened = retiredMacKeys.flatMap((r) => {
    try {
      return [vault.decryptBytes(r.macKeyEnc!)];
    } catch {
      // Sealed with a key this process was not given: only a day's idempotency repeats depend on it.
      return [];
    }
  });
  vault.acceptMacKeys(opened);
}
