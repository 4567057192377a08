import { createHash } from 'node:crypto';
import { sql, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { Db } from '../db/connect.js';
import { preparedSql, type PreparedSql } from '../db/prepared-sql.js';
import { Coalescer } from './coalesce.js';

/** A limit: at most `limit` hits per key in each window of `windowMs`. */
export interface RateRule {
  /** Names the counter (`auth_fail_client`); rules with different names never share counts. */
  name: string;
  limit: number;
  windowMs: number;
}

export interface RateDecision {
  allowed: boolean;
  /** Seconds until the window that refused this hit ends (at least 1); 0 when allowed. */
  retryAfterSeconds: number;
  /** Hits still allowed in this window (after this one, for a consume). */
  remaining: number;
}

/** consumeUnless's answer: the lock that refused (its index) or -1, the decision, and what `read` selected. */
export interface LockedCount {
  lockedBy: number;
  decision: RateDecision;
  read?: unknown;
}

export interface RateLimiter {
  /** Counts one hit of `key` against `rule` and says whether it is within the limit (joined as consumeUnless's are). */
  consume(rule: RateRule, key: string): Promise<RateDecision>;
  /** Whether the next hit would be allowed, without counting one (a lock-out check before the work). */
  peek(rule: RateRule, key: string): Promise<RateDecision>;
  /**
   * A lock-out check and a count in one round trip: when any of `locks` is at its limit nothing is
   * counted and `lockedBy` is its index (the decision is the lock's, with its Retry-After);
   * otherwise one hit of `key` is counted against `rule` and `lockedBy` is -1.
   * `read`: a scalar expression the same statement also selects (`read` of the answer), so a
   * request's first round trip carries it; `undefined` when no statement was needed (limits off).
   * Calls with the same key, rules and locks made while one of theirs is in flight are joined:
   * one statement counts them all (each gets the decision of its own place in the window, and a
   * `read` made after it was called), instead of each waiting on the same row's lock in turn.
   */
  consumeUnless(
    rule: RateRule,
    key: string,
    locks: ReadonlyArray<{ rule: RateRule; key: string }>,
    read?: SQL,
  ): Promise<LockedCount>;
}

/** Counter rows past their window are deleted at most this often, by whichever hit comes next. */
const SWEEP_EVERY_MS = 60_000;
/** Keys are client ids, addresses, link ids: anything longer is cut (a long key is not a new key). */
const MAX_KEY = 200;

/**
 * Fixed-window counters in the `rate_limits` table, one atomic upsert per hit, or per batch of a
 * key's hits that came while its last upsert ran (each hit still decided by its own place in the
 * window): a key's window opens at its first hit and its count starts again at the first hit after
 * the window. Times are the database's clock, so every process sharing the database (N servers on
 * one Postgres) counts into the same row and agrees on when it resets.
 *
 * @example
 *   const d = await ctx.rateLimiter.consume({ name: 'credentials_ip', limit: 20, windowMs: 3_600_000 }, ip);
 *   if (!d.allowed) // answer 429 with Retry-After: d.retryAfterSeconds
 */
export function createRateLimiter(db: Db): RateLimiter {
  const joined = new Coalescer<LockedCount>();
  let lastSweep = 0;
  const sweep = () => {
    const now = Date.now();
    if (now - lastSweep < SWEEP_EVERY_MS) return;
    lastSweep = now;
    db.execute(sql`delete from rate_limits where expires_at < now()`).catch(() => {
      lastSweep = 0;
    });
  };
  /** `n` hits of `key` counted against `rule` (a decision for each, in order), and `read` selected beside them. */
  const count = async (
    rule: RateRule,
    key: string,
    read?: SQL,
    n = 1,
  ): Promise<{ decisions: RateDecision[]; read?: unknown }> => {
    if (unlimited(rule)) return { decisions: Array<RateDecision>(n).fill(UNLIMITED) };
    const id = counterId(rule, key);
    const w = Math.round(rule.windowMs);
    const result = await db.execute(sql`
      with clock as (select floor(extract(epoch from clock_timestamp()) * 1000)::bigint as now_ms)
      insert into rate_limits as r (key, window_start_ms, hits, expires_at)
      select ${id}, now_ms, ${n}::int, to_timestamp((now_ms + ${w}) / 1000.0) from clock
      on conflict (key) do update set
        hits = case when r.window_start_ms + ${w} > excluded.window_start_ms then r.hits + excluded.hits else excluded.hits end,
        window_start_ms = case when r.window_start_ms + ${w} > excluded.window_start_ms then r.window_start_ms else excluded.window_start_ms end,
        expires_at = case when r.window_start_ms + ${w} > excluded.window_start_ms then r.expires_at else excluded.expires_at end
      returning hits, window_start_ms::float8 as window_start_ms, (select now_ms from clock)::float8 as now_ms${readAs(read)}`);
    sweep();
    const row = (
      result as unknown as { rows: Array<{ hits: number; window_start_ms: number; now_ms: number; read?: unknown }> }
    ).rows[0]!;
    return {
      decisions: eachHit(rule, n, Number(row.hits), Number(row.window_start_ms) + w - Number(row.now_ms)),
      read: row.read,
    };
  };

  const limiter: RateLimiter = {
    async consume(rule, key) {
      if (unlimited(rule)) return UNLIMITED;
      return (await limiter.consumeUnless(rule, key, [])).decision;
    },

    async peek(rule, key) {
      if (unlimited(rule)) return UNLIMITED;
      const w = Math.round(rule.windowMs);
      const result = await db.execute(sql`
        with clock as (select floor(extract(epoch from clock_timestamp()) * 1000)::bigint as now_ms)
        select r.hits, (r.window_start_ms + ${w} - now_ms)::float8 as ends_in_ms
        from rate_limits r, clock where r.key = ${counterId(rule, key)} and r.window_start_ms + ${w} > now_ms`);
      const row = (result as unknown as { rows: Array<{ hits: number; ends_in_ms: number }> }).rows[0];
      return row ? decide(rule, Number(row.hits), Number(row.ends_in_ms), 1) : decide(rule, 0, 0, 1);
    },

    consumeUnless(rule, key, locks, read) {
      // A client's concurrent requests count into one row: joined, they are one upsert of n hits
      // (one round trip, one row lock) instead of n queued on the same lock.
      let lane = `${counterId(rule, key)}\u0000${rule.limit}\u0000${rule.windowMs}\u0000${readKey(read)}`;
      for (const l of locks) lane += `\u0000${counterId(l.rule, l.key)}\u0000${l.rule.limit}\u0000${l.rule.windowMs}`;
      return joined.call(lane, (n) => consumeUnlessN(rule, key, locks, read, n));
    },
  };

  /** consumeUnless for `n` calls at once: the lock check once, then n hits counted, a decision each. */
  const consumeUnlessN = async (
    rule: RateRule,
    key: string,
    locks: ReadonlyArray<{ rule: RateRule; key: string }>,
    read: SQL | undefined,
    n: number,
  ): Promise<LockedCount[]> => {
    const counted = !unlimited(rule);
    const w = Math.round(rule.windowMs);
    const values: Record<string, unknown> = { key: counterId(rule, key), w, counted, n };
    let active = 0;
    for (let i = 0; i < locks.length; i++) {
      const l = locks[i]!;
      if (unlimited(l.rule)) continue;
      const names = lockNames(active++);
      values[names.k] = counterId(l.rule, l.key);
      values[names.w] = Math.round(l.rule.windowMs);
      values[names.l] = l.rule.limit;
      values[names.i] = i;
    }
    if (!active) {
      const { decisions, read: value } = await count(rule, key, read, n);
      return decisions.map((decision) => ({ lockedBy: -1, decision, read: value }));
    }
    const result = await lockedCount(active, read).run(db, values);
    sweep();
    const row = (result as unknown as { rows: Array<Record<string, number | null>> }).rows[0]!;
    if (row.locked_idx !== null && row.locked_idx !== undefined) {
      const lock = locks[Number(row.locked_idx)]!;
      const locked: LockedCount = {
        lockedBy: Number(row.locked_idx),
        decision: decide(lock.rule, lock.rule.limit, Number(row.locked_ends_in_ms), 1),
        read: row.read,
      };
      return Array<LockedCount>(n).fill(locked);
    }
    if (!counted) return Array<LockedCount>(n).fill({ lockedBy: -1, decision: UNLIMITED, read: row.read });
    return eachHit(rule, n, Number(row.hits), Number(row.window_start_ms) + w - Number(row.now_ms)).map((decision) => ({
      lockedBy: -1,
      decision,
      read: row.read,
    }));
  };
  return limiter;
}

/** The placeholder names of the j-th lock in consumeUnless's statement, made once per j. */
const lockNameList: Array<{ k: string; w: string; l: string; i: string }> = [];
const lockNames = (j: number) => (lockNameList[j] ??= { k: `k${j}`, w: `w${j}`, l: `l${j}`, i: `i${j}` });

/**
 * consumeUnless's statement, prepared per number of locks and `read` (its text varies with nothing
 * else), named by both: the same name for the same text in every process, from no counter.
 */
const lockedCounts = new WeakMap<object, Map<number, PreparedSql>>();
const NO_READ = {};
function lockedCount(locks: number, read: SQL | undefined): PreparedSql {
  let byLocks = lockedCounts.get(read ?? NO_READ);
  if (!byLocks) lockedCounts.set(read ?? NO_READ, (byLocks = new Map()));
  let p = byLocks.get(locks);
  if (!p) {
    const ph = sql.placeholder;
    const values = sql.join(
      Array.from({ length: locks }, (_, j) => {
        const names = lockNames(j);
        return sql`(${ph(names.k)}::text, ${ph(names.w)}::bigint, ${ph(names.l)}::int, ${ph(names.i)}::int)`;
      }),
      sql`, `,
    );
    const w = ph('w');
    p = preparedSql(
      `remit_rate_locked_${locks}_${readKey(read)}`,
      sql`
        with clock as (select floor(extract(epoch from clock_timestamp()) * 1000)::bigint as now_ms),
        locks (key, w, lim, idx) as (values ${values}),
        locked as (
          select l.idx, (r.window_start_ms + l.w - c.now_ms)::float8 as ends_in_ms
          from locks l join rate_limits r on r.key = l.key cross join clock c
          where r.window_start_ms + l.w > c.now_ms and r.hits >= l.lim
          order by l.idx limit 1),
        up as (
          insert into rate_limits as r (key, window_start_ms, hits, expires_at)
          select ${ph('key')}, now_ms, ${ph('n')}::int, to_timestamp((now_ms + ${w}) / 1000.0) from clock
          where ${ph('counted')} and not exists (select 1 from locked)
          on conflict (key) do update set
            hits = case when r.window_start_ms + ${w} > excluded.window_start_ms then r.hits + excluded.hits else excluded.hits end,
            window_start_ms = case when r.window_start_ms + ${w} > excluded.window_start_ms then r.window_start_ms else excluded.window_start_ms end,
            expires_at = case when r.window_start_ms + ${w} > excluded.window_start_ms then r.expires_at else excluded.expires_at end
          returning hits, window_start_ms)
        select (select idx from locked) as locked_idx, (select ends_in_ms from locked) as locked_ends_in_ms,
          (select hits from up) as hits, (select window_start_ms::float8 from up) as window_start_ms, (select now_ms::float8 from clock) as now_ms${readAs(read)}`,
    );
    byLocks.set(locks, p);
  }
  return p;
}

const readAs = (read: SQL | undefined) => (read ? sql`, ${read} as read` : sql``);
const UNLIMITED: RateDecision = { allowed: true, retryAfterSeconds: 0, remaining: Number.MAX_SAFE_INTEGER };
/** A limit of 0 (or a window of 0) switches the rule off. */
const unlimited = (rule: RateRule) => !(rule.limit > 0) || !(rule.windowMs > 0);
const counterId = (rule: RateRule, key: string) => `${rule.name}:${key.slice(0, MAX_KEY)}`;

/** The decisions of `n` hits counted together, in order, `total` being the window's count after the last. */
function eachHit(rule: RateRule, n: number, total: number, endsInMs: number): RateDecision[] {
  return Array.from({ length: n }, (_, i) => decide(rule, total - n + 1 + i, endsInMs, 0));
}

/** A `read` expression by its text and values, for telling which calls may share a statement. */
const dialect = new PgDialect();
const readKeys = new WeakMap<SQL, string>();
function readKey(read: SQL | undefined): string {
  if (!read) return '0';
  let key = readKeys.get(read);
  if (key === undefined) {
    const { sql: text, params } = dialect.sqlToQuery(read);
    key = createHash('sha256').update(text).update(JSON.stringify(params)).digest('hex').slice(0, 16);
    readKeys.set(read, key);
  }
  return key;
}

/** `hits` counted so far in the window (`next` more to come: 0 after a consume, 1 for a peek). */
function decide(rule: RateRule, hits: number, endsInMs: number, next: number): RateDecision {
  const allowed = hits + next <= rule.limit;
  return {
    allowed,
    retryAfterSeconds: allowed ? 0 : Math.max(1, Math.ceil(endsInMs / 1000)),
    remaining: Math.max(0, rule.limit - hits),
  };
}
