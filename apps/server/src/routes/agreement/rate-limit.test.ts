import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validOnboarding } from '../../testing/fixtures.js';
import { startTestServer, tableCounts, type TestServer } from '../../testing/harness.js';
import { DEFAULT_RATE_LIMITS } from '../../rate-limits.js';

/**
 * `/agreement/{token}` counts per client address like the pay pages (each guess of a token is a
 * database query): past REMIT_RATE_LIMIT_AGREEMENT_PER_ADDRESS (default 120 a minute) a 429 page.
 */

let s: TestServer;
let link: string;
beforeAll(async () => {
  s = await startTestServer({
    trustProxy: true,
    rateLimits: { agreementPerAddress: DEFAULT_RATE_LIMITS.agreementPerAddress },
  });
  const auth = await s.credentials();
  const res = await s.http({
    method: 'POST',
    path: '/api/v1/onboarding',
    auth,
    json: validOnboarding({ business_name: 'Guarded Shop' }),
  });
  link = new URL(res.body.data.agreement_link as string).pathname;
});
afterAll(() => s?.close());

const guess = () => `/agreement/agr_${randomBytes(16).toString('hex')}`;
const from = (address: string) => ({ accept: 'text/html', 'x-forwarded-for': address });

describe('the agreement page per address', () => {
  it('300 guesses in a burst: the first 120 are looked up, the rest get a 429 page with Retry-After; another address still opens its link', async () => {
    const statuses: number[] = [];
    const started = Date.now();
    for (let batch = 0; batch < 300; batch += 25) {
      const answers = await Promise.all(
        Array.from({ length: 25 }, () => s.http({ method: 'GET', path: guess(), headers: from('203.0.113.50') })),
      );
      statuses.push(...answers.map((a) => a.status));
    }
    const elapsed = Date.now() - started;
    expect(statuses.filter((c) => c === 404)).toHaveLength(120);
    expect(statuses.filter((c) => c === 429)).toHaveLength(180);
    expect(elapsed).toBeLessThan(60_000); // all within one window

    const refused = await s.http({ method: 'GET', path: link, headers: from('203.0.113.50') });
    expect(refused.status).toBe(429);
    expect(refused.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(refused.headers['cache-control']).toBe('no-store');
    const retry = Number(refused.headers['retry-after']);
    expect(retry).toBeGreaterThanOrEqual(1);
    expect(retry).toBeLessThanOrEqual(60);
    expect(refused.text).toContain(`Too many agreement pages opened from this address. Try again in ${retry} second`);
    expect(refused.text).not.toContain('Guarded Shop');

    // Accepting counts too, and is refused without recording anything.
    const before = await tableCounts(s.core);
    const post = await s.http({ method: 'POST', path: link, form: { accept: 'yes' }, headers: from('203.0.113.50') });
    expect(post.status).toBe(429);
    expect(await tableCounts(s.core)).toEqual(before);

    const other = await s.http({ method: 'GET', path: link, headers: from('198.51.100.60') });
    expect(other.status).toBe(200);
    expect(other.text).toContain('Guarded Shop');
  });

  it('an IPv6 client counts by its /64', async () => {
    const statuses: number[] = [];
    for (let batch = 0; batch < 130; batch += 26) {
      const answers = await Promise.all(
        Array.from({ length: 26 }, (_, i) =>
          s.http({ method: 'GET', path: guess(), headers: from(`2001:db8:77:1:${(batch + i).toString(16)}::1`) }),
        ),
      );
      statuses.push(...answers.map((a) => a.status));
    }
    expect(statuses.filter((c) => c === 404)).toHaveLength(120);
    expect(statuses.filter((c) => c === 429)).toHaveLength(10);
    expect((await s.http({ method: 'GET', path: link, headers: from('2001:db8:77:2::1') })).status).toBe(200);
  });
});
