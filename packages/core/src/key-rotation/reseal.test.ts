import { createCipheriv, randomBytes } from 'node:crypto';
import { getTableConfig, PgTable } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import * as schema from '../db/schema.js';
import { Vault } from '../encryption.js';
import { SEALED_COLUMNS } from './reseal.js';

/** The text form of earlier versions: no key id. */
function sealV1(key: Buffer, plain: string): string {
  const iv = randomBytes(12);
  const c = createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([c.update(plain, 'utf8'), c.final()]);
  return ['v1', iv, c.getAuthTag(), body].map((p) => (typeof p === 'string' ? p : p.toString('base64url'))).join('.');
}

describe('the vault during a rotation', () => {
  const a = randomBytes(32);
  const b = randomBytes(32);
  const old = new Vault(a);
  const rotating = new Vault(b, a);

  it('seals naming the current key; opens either key by its id; names a key it was not given', () => {
    const byA = old.encrypt('4242424242424242');
    expect(byA.startsWith(`v2.${old.keyId}.`)).toBe(true);
    expect(rotating.decrypt(byA)).toBe('4242424242424242');
    const byB = rotating.encrypt('x');
    expect(byB.startsWith(`v2.${rotating.keyId}.`)).toBe(true);
    expect(() => old.decrypt(byB)).toThrow(
      `sealed with encryption key ${rotating.keyId}, which this process was not given`,
    );
    expect(rotating.isCurrent(byA)).toBe(false);
    const again = rotating.reseal(byA);
    expect(rotating.isCurrent(again)).toBe(true);
    expect(new Vault(b).decrypt(again)).toBe('4242424242424242');
  });

  it('opens the keyless v1 form with the current key or the previous one', () => {
    expect(rotating.decrypt(sealV1(a, 'old'))).toBe('old');
    expect(rotating.decrypt(sealV1(b, 'new'))).toBe('new');
    expect(() => new Vault(b).decrypt(sealV1(a, 'old'))).toThrow();
  });

  it('compares MACs under both keys, current first; retired MAC keys added later count too', () => {
    expect(rotating.macs('v')).toEqual([new Vault(b).mac('v'), old.mac('v')]);
    const alone = new Vault(b);
    expect(alone.macs('v')).toEqual([alone.mac('v')]);
    alone.acceptMacKeys([rotating.previousMacKey()!]);
    expect(alone.macs('v')).toEqual([alone.mac('v'), old.mac('v')]);
  });
});

it('every column named like a sealed one is in SEALED_COLUMNS', () => {
  const listed = new Set(SEALED_COLUMNS.map((c) => `${c.table}.${c.column}`));
  const named = (Object.values(schema) as unknown[])
    .filter((t): t is PgTable => t instanceof PgTable)
    .flatMap((t) => {
      const { name, columns } = getTableConfig(t);
      return columns.filter((c) => c.name.endsWith('_enc')).map((c) => `${name}.${c.name}`);
    });
  expect(named.length).toBeGreaterThan(5);
  for (const n of named) expect(listed).toContain(n);
});
