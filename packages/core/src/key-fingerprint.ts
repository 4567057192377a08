import type { Db } from './db/connect.js';
import { keyFingerprint } from './db/schema.js';
import type { Vault } from './encryption.js';

/**
 * Every process on one database must seal with one key: a value sealed by one process cannot be
 * opened by another (the owner call, replays and stored-card charges would answer 500, webhooks
 * would never go out). The first process to open a database records its key's fingerprint; a
 * process with another key is refused before it writes anything.
 */

export class KeyMismatchError extends Error {
  constructor(stored: string, own: string) {
    super(
      `this database was set up with another encryption key (fingerprint ${short(stored)}; this process has ${short(own)}). ` +
        'Every process on one database must use the same key: set REMIT_ENCRYPTION_KEY to the key the other processes use ' +
        '(in sandbox without it, each data folder makes its own encryption.key).',
    );
    this.name = 'KeyMismatchError';
  }
}

const short = (fingerprint: string) => fingerprint.slice(0, 12);

/** Records the key's fingerprint on first use, else checks it; two first starts at once agree on one. */
export async function checkKeyFingerprint(db: Db, vault: Vault): Promise<void> {
  const own = vault.fingerprint();
  // A concurrent first insert makes this one wait and do nothing; the select then reads the winner.
  await db.insert(keyFingerprint).values({ fingerprint: own }).onConflictDoNothing();
  const [row] = await db.select({ fingerprint: keyFingerprint.fingerprint }).from(keyFingerprint);
  const stored = row!.fingerprint;
  if (stored !== own) throw new KeyMismatchError(stored, own);
}
