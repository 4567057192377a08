import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { randomToken } from './ids.js';

export type Env = 'sandbox' | 'production';

const envTag = (env: Env) => (env === 'sandbox' ? 'test' : 'live');

export const newKey = {
  secret: (env: Env) => `sk_${envTag(env)}_${randomToken(32)}`,
  merchant: (env: Env) => `mk_${envTag(env)}_${randomToken(32)}`,
  public: (env: Env) => `pk_${envTag(env)}_${randomToken(24)}`,
  webhookSecret: () => `whsec_${randomBytes(24).toString('base64')}`,
};

/** The environment a key was made for, read off its prefix; null when it has none. */
export function keyEnv(key: string): Env | null {
  const m = /^[a-z]{2}_(test|live)_/.exec(key);
  if (!m) return null;
  return m[1] === 'test' ? 'sandbox' : 'production';
}

export const digest = (value: string) => createHash('sha256').update(value).digest('hex');

export function digestEquals(value: string, expectedHex: string): boolean {
  const a = Buffer.from(digest(value), 'hex');
  const b = Buffer.from(expectedHex, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}

/** AES-256-GCM with a random nonce; text form `v1.<iv>.<tag>.<ciphertext>` (base64url). */
export class Vault {
  readonly #key: Buffer;
  constructor(key: Buffer) {
    if (key.length !== 32) throw new Error('encryption key must be 32 bytes');
    this.#key = key;
  }
  encrypt(plain: string): string {
    const iv = randomBytes(12);
    const c = createCipheriv('aes-256-gcm', this.#key, iv);
    const body = Buffer.concat([c.update(plain, 'utf8'), c.final()]);
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
  decrypt(sealed: string): string {
    const [, iv, tag, body] = sealed.split('.');
    const d = createDecipheriv('aes-256-gcm', this.#key, Buffer.from(iv!, 'base64url'));
    d.setAuthTag(Buffer.from(tag!, 'base64url'));
    return Buffer.concat([d.update(Buffer.from(body!, 'base64url')), d.final()]).toString('utf8');
  }
}
