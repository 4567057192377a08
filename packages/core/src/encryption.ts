import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';

/** How many hex digits of a key's fingerprint name it in sealed values (what `remit config` shows too). */
export const KEY_ID_LENGTH = 12;

const fingerprintOf = (key: Buffer) => createHmac('sha256', key).update('remit:key-fingerprint:v1').digest('hex');
/** The key MACs are made with: derived from the encryption key, never the key itself. */
export const macKeyOf = (key: Buffer) => createHmac('sha256', key).update('remit:mac:v1').digest();

/**
 * AES-256-GCM with a random nonce. Text form `v2.<key id>.<iv>.<tag>.<ciphertext>` (base64url): the
 * key id (the first 12 hex digits of the key's fingerprint) picks the key to open it with. The form
 * of earlier versions, `v1.<iv>.<tag>.<ciphertext>`, names no key: it is opened with the current key,
 * else the previous one (GCM's tag tells a wrong key apart, so a wrong try never yields wrong text).
 *
 * During a key rotation the vault holds the current key (it seals) and the previous one (it only
 * opens); `docs/security.md` "Encryption key rotation".
 */
export class Vault {
  readonly #key: Buffer;
  readonly #id: string;
  readonly #previous: { id: string; key: Buffer } | null;
  /** MAC keys besides the current one that comparisons accept: the previous key's, then retired ones. */
  readonly #otherMacKeys: Buffer[] = [];
  readonly #macKey: Buffer;
  constructor(key: Buffer, previous?: Buffer | null) {
    if (key.length !== 32) throw new Error('encryption key must be 32 bytes');
    if (previous && previous.length !== 32) throw new Error('previous encryption key must be 32 bytes');
    this.#key = key;
    this.#id = fingerprintOf(key).slice(0, KEY_ID_LENGTH);
    this.#macKey = macKeyOf(key);
    this.#previous =
      previous && !previous.equals(key) ? { id: fingerprintOf(previous).slice(0, KEY_ID_LENGTH), key: previous } : null;
    if (this.#previous) this.#otherMacKeys.push(macKeyOf(this.#previous.key));
  }
  /** The current key's id: the prefix of its fingerprint that sealed values carry. */
  get keyId(): string {
    return this.#id;
  }
  /** The previous key's full fingerprint, or null when none was given. */
  previousFingerprint(): string | null {
    return this.#previous ? fingerprintOf(this.#previous.key) : null;
  }
  /** The previous key's MAC key (kept sealed in the database once the key is retired); null without one. */
  previousMacKey(): Buffer | null {
    return this.#previous ? macKeyOf(this.#previous.key) : null;
  }
  /** MAC keys of retired encryption keys, read back from the database: MACs they made still compare. */
  acceptMacKeys(keys: readonly Buffer[]): void {
    for (const k of keys)
      if (!k.equals(this.#macKey) && !this.#otherMacKeys.some((o) => o.equals(k))) this.#otherMacKeys.push(k);
  }
  encrypt(plain: string): string {
    return this.encryptBytes(Buffer.from(plain, 'utf8'));
  }
  /** Bytes sealed in the same text form (`decryptBytes` opens it). */
  encryptBytes(plain: Buffer): string {
    const iv = randomBytes(12);
    const c = createCipheriv('aes-256-gcm', this.#key, iv);
    const body = Buffer.concat([c.update(plain), c.final()]);
    return `v2.${this.#id}.${[iv, c.getAuthTag(), body].map((p) => p.toString('base64url')).join('.')}`;
  }
  /** Whether a sealed value is sealed with the current key in the current form (nothing to reseal). */
  isCurrent(sealed: string): boolean {
    return sealed.startsWith(`v2.${this.#id}.`);
  }
  /** The value sealed again with the current key. */
  reseal(sealed: string): string {
    return this.isCurrent(sealed) ? sealed : this.encryptBytes(this.decryptBytes(sealed));
  }
  /**
   * A keyed digest (HMAC-SHA256 under a key derived from the encryption key): lets a value that
   * holds a card number be compared later without a plain hash anyone could brute-force.
   */
  mac(value: string): string {
    return createHmac('sha256', this.#macKey).update(value).digest('hex');
  }
  /** The value's MAC under the current key first, then under every other key a stored MAC may have been made with. */
  macs(value: string): string[] {
    return [this.mac(value), ...this.#otherMacKeys.map((k) => createHmac('sha256', k).update(value).digest('hex'))];
  }
  /**
   * Names the key without revealing it: HMAC-SHA256 of a fixed label under the key. Two processes
   * compare it through the database to find out they were given different keys.
   */
  fingerprint(): string {
    return fingerprintOf(this.#key);
  }
  decrypt(sealed: string): string {
    return this.decryptBytes(sealed).toString('utf8');
  }
  decryptBytes(sealed: string): Buffer {
    const parts = sealed.split('.');
    if (parts[0] === 'v2') {
      const id = parts[1]!;
      const key = id === this.#id ? this.#key : id === this.#previous?.id ? this.#previous.key : null;
      if (!key)
        throw new Error(
          `this value was sealed with encryption key ${id}, which this process was not given (REMIT_ENCRYPTION_KEY_PREVIOUS)`,
        );
      return open(key, parts.slice(2));
    }
    try {
      return open(this.#key, parts.slice(1));
    } catch (e) {
      if (!this.#previous) throw e;
      return open(this.#previous.key, parts.slice(1));
    }
  }
}

function open(key: Buffer, [iv, tag, body]: string[]): Buffer {
  const d = createDecipheriv('aes-256-gcm', key, Buffer.from(iv!, 'base64url'));
  d.setAuthTag(Buffer.from(tag!, 'base64url'));
  return Buffer.concat([d.update(Buffer.from(body!, 'base64url')), d.final()]);
}
