import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';

/** AES-256-GCM with a random nonce; text form `v1.<iv>.<tag>.<ciphertext>` (base64url). */
export class Vault {
  readonly #key: Buffer;
  constructor(key: Buffer) {
    if (key.length !== 32) throw new Error('encryption key must be 32 bytes');
    this.#key = key;
  }
  encrypt(plain: string): string {
    return this.encryptBytes(Buffer.from(plain, 'utf8'));
  }
  /** Bytes sealed in the same text form (`decryptBytes` opens it). */
  encryptBytes(plain: Buffer): string {
    const iv = randomBytes(12);
    const c = createCipheriv('aes-256-gcm', this.#key, iv);
    const body = Buffer.concat([c.update(plain), c.final()]);
    return ['v1', iv, c.getAuthTag(), body].map((p) => (typeof p === 'string' ? p : p.toString('base64url'))).join('.');
  }
  /**
   * A keyed digest (HMAC-SHA256 under a key derived from the encryption key): lets a value that
   * holds a card number be compared later without a plain hash anyone could brute-force.
   */
  mac(value: string): string {
    const macKey = createHmac('sha256', this.#key).update('remit:mac:v1').digest();
    return createHmac('sha256', macKey).update(value).digest('hex');
  }
  /**
   * Names the key without revealing it: HMAC-SHA256 of a fixed label under the key. Two processes
   * compare it through the database to find out they were given different keys.
   */
  fingerprint(): string {
    return createHmac('sha256', this.#key).update('remit:key-fingerprint:v1').digest('hex');
  }
  decrypt(sealed: string): string {
    return this.decryptBytes(sealed).toString('utf8');
  }
  decryptBytes(sealed: string): Buffer {
    const [, iv, tag, body] = sealed.split('.');
    const d = createDecipheriv('aes-256-gcm', this.#key, Buffer.from(iv!, 'base64url'));
    d.setAuthTag(Buffer.from(tag!, 'base64url'));
    return Buffer.concat([d.update(Buffer.from(body!, 'base64url')), d.final()]);
  }
}
