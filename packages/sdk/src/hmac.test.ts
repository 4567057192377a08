import { createHash, createHmac, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { constantTimeEqual, fromBase64, hmacSha256, sha256, toBase64 } from './hmac.js';

/** The portable SHA-256 agrees with node:crypto at every padding boundary. */
describe('sha256 / hmacSha256', () => {
  it.each([0, 1, 55, 56, 63, 64, 65, 119, 120, 1000, 100_000])('agrees with node:crypto on %i bytes', (n) => {
    const data = randomBytes(n);
    const key = randomBytes((n % 100) + 1);
    expect(Buffer.from(sha256(data)).toString('hex')).toBe(createHash('sha256').update(data).digest('hex'));
    expect(Buffer.from(hmacSha256(key, data)).toString('hex')).toBe(
      createHmac('sha256', key).update(data).digest('hex'),
    );
  });

  it('hashes a key longer than the block first', () => {
    const key = randomBytes(200);
    expect(Buffer.from(hmacSha256(key, Buffer.from('x'))).toString('hex')).toBe(
      createHmac('sha256', key).update('x').digest('hex'),
    );
  });

  it('round-trips base64 and compares bytes', () => {
    const bytes = randomBytes(33);
    expect(toBase64(bytes)).toBe(bytes.toString('base64'));
    expect(Buffer.from(fromBase64(bytes.toString('base64')))).toEqual(bytes);
    expect(constantTimeEqual(bytes, Uint8Array.from(bytes))).toBe(true);
    expect(constantTimeEqual(bytes, randomBytes(33))).toBe(false);
    expect(constantTimeEqual(bytes, bytes.subarray(1))).toBe(false);
  });
});
