import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { digest, digestEquals } from './secret-keys.js';

describe('digest', () => {
  it('is the hex SHA-256 of the UTF-8 text, as stored digests were made', () => {
    for (const v of ['', 'sk_test_abc', 'mk_live_Zz09', 'é☃😀', 'x'.repeat(1000)]) {
      expect(digest(v)).toBe(createHash('sha256').update(v, 'utf8').digest('hex'));
    }
    expect(digest('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
  it('digestEquals: the right value only', () => {
    expect(digestEquals('sk_test_a', digest('sk_test_a'))).toBe(true);
    expect(digestEquals('sk_test_b', digest('sk_test_a'))).toBe(false);
    expect(digestEquals('sk_test_a', 'abcd')).toBe(false);
  });
});
