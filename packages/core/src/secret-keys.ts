/** API keys and webhook secrets: how they are minted, which environment they belong to, and their digests. */
import * as crypto from 'node:crypto';
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Env } from './environment.js';
import { randomToken } from './ids.js';

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

/**
 * SHA-256 of a key, hex. Every API request digests its secret and its merchant key: the one-shot
 * `crypto.hash` (Node 20.12+) is a third of `createHash`'s cost; older Nodes take the long way.
 */
const oneShot = (crypto as { hash?: (algorithm: string, data: string, encoding: 'hex') => string }).hash;
export const digest: (value: string) => string = oneShot
  ? (value) => oneShot('sha256', value, 'hex')
  : (value) => createHash('sha256').update(value).digest('hex');

export function digestEquals(value: string, expectedHex: string): boolean {
  const a = Buffer.from(digest(value), 'hex');
  const b = Buffer.from(expectedHex, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}
