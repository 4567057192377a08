import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RateRule } from '@remit/core';
import { startTestServer, type TestServer } from './testing/harness.js';

/**
 * Through a trusted proxy the client address is X-Forwarded-For's: every spelling of one address is
 * one budget (a port is dropped), and whatever is not one address is the proxy's own client, one
 * budget shared by all such requests (docs/security.md "What each limit counts").
 */

const LIMIT = 3;
const rule: RateRule = { name: 'auth_fail_address', limit: LIMIT, windowMs: 3_600_000 };

let s: TestServer;
beforeAll(async () => {
  // The test connects from loopback: that is the proxy, named as an operator names one.
  s = await startTestServer({ trustProxy: ['127.0.0.1', '::1'], rateLimits: { authFailuresPerAddress: rule } });
});
afterAll(() => s?.close());

/** An unauthenticated call: each counts as a failure of its client address. */
const statusFrom = async (forwardedFor?: string) =>
  (
    await s.http({
      method: 'GET',
      path: '/api/v1/merchant',
      headers: forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor },
    })
  ).status;

async function statuses(spellings: string[]) {
  const out: number[] = [];
  for (const spelling of spellings) out.push(await statusFrom(spelling));
  return out;
}

describe('X-Forwarded-For through a trusted proxy', () => {
  it('an IPv4 address with a port is that address: its spellings share one budget', async () => {
    expect(await statuses(['198.51.100.30:1234', '198.51.100.30:5678', '198.51.100.30', '198.51.100.30:1'])).toEqual([
      401, 401, 401, 429,
    ]);
    expect(await statusFrom('198.51.100.31')).toBe(401);
  });

  it('an IPv6 address in brackets, with or without a port, is that address (counted by its /64)', async () => {
    expect(
      await statuses([
        '[2001:db8:5:28::10]:443',
        '[2001:db8:5:28::10]:8443',
        '2001:db8:5:28::10',
        '[2001:db8:5:28::11]',
      ]),
    ).toEqual([401, 401, 401, 429]);
    expect(await statusFrom('[2001:db8:5:29::10]:443')).toBe(401);
  });

  it('what is not one address (forms isIP() refuses, names, garbage) is the proxy itself: one shared budget', async () => {
    expect(await statuses(['198.051.100.21', '0xc6.51.100.22', '3325256727', '1.2.3', 'unknown'])).toEqual([
      401, 401, 401, 429, 429,
    ]);
    // The proxy's own requests (no header) are that budget too, and so is a list whose nearest entry is not an address.
    expect(await statusFrom()).toBe(429);
    expect(await statusFrom('203.0.113.50, 198.051.100.21')).toBe(429);
    // An address nearer than the garbage is the client, as ever.
    expect(await statusFrom('0xc6.51.100.22, 198.51.100.40')).toBe(401);
    expect(await statusFrom('198.51.100.41:80')).toBe(401);
  });
});
