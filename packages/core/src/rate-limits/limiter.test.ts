import { afterAll, beforeAll, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { openTestCore, type TestCore } from '../webhooks/test-support.js';
import type { RateRule } from './limiter.js';

/** The shared counters on the real database (PGlite, or Postgres with REMIT_TEST_DB=postgres). */
let core: TestCore;
/** The limiter's statements (`with clock as …`) sent since the test began counting. */
let counts: number | null = null;
beforeAll(async () => {
  core = await openTestCore('sandbox', {
    onStatement: (text) => void (counts !== null && /^\s*with clock as/i.test(text) && counts++),
  });
});
afterAll(() => core.close());

const rule = (limit: number, windowMs = 3_600_000): RateRule => ({ name: `t${Math.random()}`, limit, windowMs });

it('allows `limit` hits per key, then refuses with the seconds left in the window', async () => {
  const r = rule(3);
  const got = [];
  for (let i = 0; i < 5; i++) got.push(await core.ctx.rateLimiter.consume(r, 'k'));
  expect(got.map((d) => [d.allowed, d.remaining])).toEqual([
    [true, 2],
    [true, 1],
    [true, 0],
    [false, 0],
    [false, 0],
  ]);
  expect(got[3]!.retryAfterSeconds).toBeGreaterThan(3590);
  expect(got[3]!.retryAfterSeconds).toBeLessThanOrEqual(3600);
  expect((await core.ctx.rateLimiter.consume(r, 'other key')).allowed).toBe(true);
});

it('peek says whether the next hit would pass without counting one', async () => {
  const r = rule(2);
  expect((await core.ctx.rateLimiter.peek(r, 'k')).allowed).toBe(true);
  await core.ctx.rateLimiter.consume(r, 'k');
  expect((await core.ctx.rateLimiter.peek(r, 'k')).allowed).toBe(true);
  await core.ctx.rateLimiter.consume(r, 'k');
  const blocked = await core.ctx.rateLimiter.peek(r, 'k');
  expect(blocked.allowed).toBe(false);
  expect(blocked.retryAfterSeconds).toBeGreaterThan(0);
});

it('concurrent hits are counted exactly: 40 at once against a limit of 15 let 15 through, in 2 statements (the first alone, the rest joined)', async () => {
  const r = rule(15);
  counts = 0;
  const all = await Promise.all(Array.from({ length: 40 }, () => core.ctx.rateLimiter.consume(r, 'k')));
  expect(counts).toBe(2);
  counts = null;
  expect(all.filter((d) => d.allowed)).toHaveLength(15);
  expect(all.map((d) => d.remaining)).toEqual([...Array.from({ length: 15 }, (_, i) => 14 - i), ...Array(25).fill(0)]);
});

it('the count starts again after the window', async () => {
  const r = rule(1, 300);
  expect((await core.ctx.rateLimiter.consume(r, 'k')).allowed).toBe(true);
  expect((await core.ctx.rateLimiter.consume(r, 'k')).allowed).toBe(false);
  await new Promise((res) => setTimeout(res, 350));
  expect((await core.ctx.rateLimiter.consume(r, 'k')).allowed).toBe(true);
});

it('a limit of 0 switches the rule off', async () => {
  const r = rule(0);
  for (let i = 0; i < 3; i++) expect((await core.ctx.rateLimiter.consume(r, 'k')).allowed).toBe(true);
});

it('consumeUnless counts only while no lock is at its limit, in one statement', async () => {
  const [lockA, lockB, api] = [rule(2), rule(5), rule(3)];
  const locks = [
    { rule: lockA, key: 'id' },
    { rule: lockB, key: 'addr' },
  ];
  const first = await core.ctx.rateLimiter.consumeUnless(api, 'id', locks);
  expect(first).toEqual({ lockedBy: -1, decision: { allowed: true, retryAfterSeconds: 0, remaining: 2 } });
  await core.ctx.rateLimiter.consume(lockA, 'id');
  await core.ctx.rateLimiter.consume(lockA, 'id');
  const locked = await core.ctx.rateLimiter.consumeUnless(api, 'id', locks);
  expect(locked.lockedBy).toBe(0);
  expect(locked.decision.allowed).toBe(false);
  expect(locked.decision.retryAfterSeconds).toBeGreaterThan(3590);
  // Nothing was counted while locked: the api rule still has two hits left.
  expect(await core.ctx.rateLimiter.peek(api, 'id')).toMatchObject({ allowed: true, remaining: 2 });
  const other = await core.ctx.rateLimiter.consumeUnless(api, 'other', [{ rule: lockB, key: 'addr' }]);
  expect(other.lockedBy).toBe(-1);
  expect(other.decision.allowed).toBe(true);
});

it('consumeUnless also selects what `read` asks in the same statement (the merchants epoch), with locks or without; nothing when every rule is off', async () => {
  const read = sql`(select 41 + 1)`;
  const off: RateRule = { name: 'off', limit: 0, windowMs: 0 };
  const withLock = await core.ctx.rateLimiter.consumeUnless(rule(3), 'id', [{ rule: rule(2), key: 'id' }], read);
  expect(withLock).toMatchObject({ lockedBy: -1, read: 42 });
  expect(await core.ctx.rateLimiter.consumeUnless(rule(3), 'id', [{ rule: off, key: 'id' }], read)).toMatchObject({
    read: 42,
  });
  expect(await core.ctx.rateLimiter.consumeUnless(off, 'id', [{ rule: rule(2), key: 'id' }], read)).toMatchObject({
    read: 42,
  });
  expect((await core.ctx.rateLimiter.consumeUnless(off, 'id', [{ rule: off, key: 'id' }], read)).read).toBeUndefined();
});

it('concurrent consumeUnless calls of one client are joined into fewer statements and still counted exactly: 40 at once against a limit of 15 let 15 through', async () => {
  const [api, lock] = [rule(15), rule(10)];
  counts = 0;
  const all = await Promise.all(
    Array.from({ length: 40 }, () => core.ctx.rateLimiter.consumeUnless(api, 'id', [{ rule: lock, key: 'addr' }])),
  );
  const statements = counts;
  counts = null;
  expect(all.filter((d) => d.decision.allowed)).toHaveLength(15);
  // Each allowed hit saw its own place in the window: remaining 14, 13, … 0, once each, in call order.
  expect(all.slice(0, 15).map((d) => d.decision.remaining)).toEqual(Array.from({ length: 15 }, (_, i) => 14 - i));
  expect(all.slice(15).every((d) => !d.decision.allowed && d.decision.retryAfterSeconds > 3590)).toBe(true);
  // The first call goes alone, the 39 made while it ran go together.
  expect(statements).toBe(2);
  // All 40 were counted, as 40 separate calls would have been.
  expect(await core.ctx.rateLimiter.peek(api, 'id')).toMatchObject({ allowed: false, remaining: 0 });
  expect(await core.ctx.rateLimiter.consumeUnless(rule(15), 'id', [{ rule: lock, key: 'addr' }])).toMatchObject({
    lockedBy: -1,
    decision: { remaining: 14 },
  });
});

it('joined calls share a lock-out: when a lock is at its limit, none of them is counted', async () => {
  const [api, lock] = [rule(5), rule(1)];
  await core.ctx.rateLimiter.consume(lock, 'addr');
  const all = await Promise.all(
    Array.from({ length: 6 }, () => core.ctx.rateLimiter.consumeUnless(api, 'id', [{ rule: lock, key: 'addr' }])),
  );
  expect(all.map((d) => d.lockedBy)).toEqual([0, 0, 0, 0, 0, 0]);
  expect(all.every((d) => !d.decision.allowed)).toBe(true);
  expect(await core.ctx.rateLimiter.peek(api, 'id')).toMatchObject({ allowed: true, remaining: 5 });
});

it('calls with other keys, rules or locks are not joined: each counts on its own row', async () => {
  const api = rule(3);
  const lockA = { rule: rule(10), key: 'a' };
  const lockB = { rule: rule(10), key: 'b' };
  const all = await Promise.all([
    core.ctx.rateLimiter.consumeUnless(api, 'x', [lockA]),
    core.ctx.rateLimiter.consumeUnless(api, 'y', [lockA]),
    core.ctx.rateLimiter.consumeUnless(api, 'x', [lockB]),
  ]);
  // Two statements for 'x' (whichever lands first takes the first hit), one for 'y'.
  expect([all[0]!, all[2]!].map((d) => d.decision.remaining).sort()).toEqual([1, 2]);
  expect(all[1]!.decision.remaining).toBe(2);
});
