import { randomBytes } from 'node:crypto';
import { sql, type SQL } from 'drizzle-orm';
import type { Db } from './db/connect.js';
import { isDatabaseUnavailable } from './db/pg-hosts.js';

/** Where the background loops (dispatchers, reconciler, expiry) log a failed pass. */
export interface DispatcherLogger {
  warn(obj: object, msg: string): void;
}

export interface PollLoopOptions {
  /** How long an idle loop sleeps between passes. */
  pollMs: number;
  /**
   * The least time from the start of one pass to the start of a pass a wake-up asks for. Under a
   * stream of commits every pass is woken again before it ends: without a gap the loop runs pass
   * after pass and takes a share of the database (all of PGlite's one connection it can get) from
   * the requests. Idle, a wake-up still runs at once. Default 0 (none).
   */
  wakeGapMs?: number;
  /** Logged (as a warning) when a pass throws. */
  failureMessage: string;
  logger?: DispatcherLogger;
}

/**
 * The background loop of the outbox dispatchers: runs `pass` again at once while it reports more
 * work, otherwise sleeps `pollMs` (after a failed pass, a back-off doubling from 100 ms to 5 s)
 * unless `wake()` cuts the sleep short. `stop()` ends it once the pass in progress is done.
 */
export class PollLoop {
  readonly #pass: () => Promise<boolean>;
  readonly #o: PollLoopOptions;
  #stopped = true;
  #loop: Promise<void> | null = null;
  #wake: (() => void) | null = null;
  /** A wake-up that came during a pass: the work it announces may have missed that pass. */
  #woken = false;
  /** That wake-up was `wake(true)`. */
  #wokenNow = false;
  /** When the last pass began (performance.now()). */
  #passStart = -Infinity;
  /** Moves the end of the current sleep earlier (a wake-up inside the gap). */
  #shorten: ((ms: number) => void) | null = null;

  /** `pass` does one round of work and returns whether there is more to do right away. */
  constructor(pass: () => Promise<boolean>, opts: PollLoopOptions) {
    this.#pass = pass;
    this.#o = opts;
  }

  start(): void {
    if (!this.#stopped) return;
    this.#stopped = false;
    this.#loop = this.#run();
  }

  /**
   * Ends the current sleep, if any, so the next pass runs now (or once the wake gap from the last
   * pass's start is over). `now`: regardless of the gap (the loop's own backlog, not a commit).
   */
  wake(now = false): void {
    if (!this.#wake) {
      this.#woken = true;
      this.#wokenNow ||= now;
      return;
    }
    const wait = now ? 0 : this.#passStart + (this.#o.wakeGapMs ?? 0) - performance.now();
    if (wait <= 0) this.#wake();
    else this.#shorten?.(wait);
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    this.#wake?.();
    await this.#loop;
  }

  async #run(): Promise<void> {
    let errorDelay = 0;
    while (!this.#stopped) {
      let busy = false;
      this.#woken = false;
      this.#wokenNow = false;
      this.#passStart = performance.now();
      try {
        busy = await this.#pass();
        errorDelay = 0;
      } catch (err) {
        if (this.#stopped) break;
        errorDelay = Math.min(Math.max(errorDelay * 2, 100), 5_000);
        // The database away (a failover) is said once, by the pool (db/pg-pool.ts), not on every pass.
        if (!isDatabaseUnavailable(err)) this.#o.logger?.warn({ err }, this.#o.failureMessage);
      }
      // stop() during the pass found no sleep to cut short: without this the loop would sleep a whole
      // poll (5 minutes for the reconciler) before stop() returned, and SIGTERM's drain with it.
      if (this.#stopped) break;
      if (this.#woken && !errorDelay) {
        this.#woken = false;
        const wait = this.#wokenNow ? 0 : this.#passStart + (this.#o.wakeGapMs ?? 0) - performance.now();
        if (wait > 0) await this.#sleep(wait);
        continue;
      }
      if (!busy) await this.#sleep(errorDelay || this.#o.pollMs);
    }
  }

  #sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      let t = setTimeout(done, ms);
      let end = performance.now() + ms;
      const self = this;
      function done() {
        clearTimeout(t);
        if (self.#wake === done) {
          self.#wake = null;
          self.#shorten = null;
        }
        resolve();
      }
      this.#wake = done;
      this.#shorten = (wait) => {
        if (performance.now() + wait >= end) return;
        clearTimeout(t);
        t = setTimeout(done, wait);
        end = performance.now() + wait;
      };
    });
  }
}

/** A row an outbox claim leased to this process: every later write names the lease. */
export interface Leased {
  id: string;
  lease_id: string;
}

export interface ClaimDueOptions {
  /** The outbox table; its rows carry status, next_attempt_at, locked_until and lease_id. */
  table: 'webhook_deliveries' | 'messages';
  /** A number, or a `sql.placeholder` in a statement prepared once. */
  limit: unknown;
  /** The lease in seconds: a number, or a `sql.placeholder`. */
  leaseSeconds: unknown;
  /** The columns returned, of `d` (the table) and of the joined tables. */
  returning: SQL;
  /** Tables joined to each claimed row, for what its work needs (`from` list and the join condition). */
  join?: { from: SQL; on: SQL };
  /**
   * Shares the claim out between the values of a column (the owner of each row): at most
   * `room(owner)` rows of one owner, taken round-robin (every owner's oldest due row before any
   * owner's second), so one owner's backlog cannot fill the claim while others wait.
   */
  share?: { column: string; room: (owner: SQL) => SQL };
}

/**
 * The one claim shape of the dispatchers: up to `limit` rows that are pending or retrying, due,
 * and not leased, oldest due first, leased to this pass. `FOR UPDATE SKIP LOCKED` lets several
 * processes claim from one table at once without taking the same row twice.
 */
export async function claimDue<T extends Leased>(db: Db, o: ClaimDueOptions): Promise<T[]> {
  const r = await db.execute(claimDueQuery(o, newLease()));
  return (r as unknown as { rows: T[] }).rows;
}

/**
 * Extends the lease on a claimed row that waited for a slot, from now, if the row is still under
 * `lease` (even run out: a claim by anyone else would have named a new lease). False: another
 * claim took it, leave it to that one.
 */
export async function renewLease(
  db: Db,
  table: ClaimDueOptions['table'],
  id: string,
  lease: string,
  leaseSeconds: number,
): Promise<boolean> {
  const r = await db.execute(sql`
    update ${sql.raw(table)} set locked_until = now() + make_interval(secs => ${leaseSeconds}::float8)
    where id = ${id} and lease_id = ${lease} returning id`);
  return (r as unknown as { rows: unknown[] }).rows.length > 0;
}

/** A fresh lease id: every write of a claimed row names it. */
export const newLease = () => randomBytes(12).toString('base64url');

/** `claimDue`'s statement under `lease`, for a caller that folds it into a larger one. */
export function claimDueQuery(o: ClaimDueOptions, lease: unknown): SQL {
  const t = sql.raw(o.table);
  const free = sql`status in ('pending', 'retrying') and next_attempt_at <= now() and (locked_until is null or locked_until <= now())`;
  return sql`
    update ${t} d
    set locked_until = now() + make_interval(secs => ${o.leaseSeconds}::float8), lease_id = ${lease}::text
    ${o.join ? sql`from ${o.join.from}` : sql``}
    where d.id in (${o.share ? sharedPick(o, free) : sql`select id from ${t} where ${free} order by next_attempt_at limit ${o.limit}::int for update skip locked`})
      ${o.join ? sql`and ${o.join.on}` : sql``}
    returning ${o.returning}`;
}

/**
 * The shared claim's pick, bounded by the rooms, not by the backlog: the owners with rows to send
 * (a skip over the owner's index, one probe per owner), each owner's oldest due rows up to its
 * room (an index range), then ranked round-robin. Needs an index on (owner, next_attempt_at, id)
 * over the rows pending or retrying.
 */
function sharedPick(o: ClaimDueOptions, free: SQL): SQL {
  const t = sql.raw(o.table);
  const owner = sql.raw(o.share!.column);
  const waiting = sql`status in ('pending', 'retrying')`;
  // A window function cannot sit beside FOR UPDATE: the ranked pick is a subquery, locked (and
  // checked again against a claim that committed meanwhile) by the level above it.
  return sql`
    select id from ${t} where ${free} and id in (
      with recursive owners(owner) as (
          (select ${owner} from ${t} where ${waiting} order by ${owner} limit 1)
          union all
          select (select ${owner} from ${t} where ${waiting} and ${owner} > w.owner order by ${owner} limit 1)
          from owners w where w.owner is not null)
      select r.id from (
        select p.id, p.next_attempt_at, row_number() over (partition by w.owner order by p.next_attempt_at, p.id) as rn
        from owners w cross join lateral (
          select id, next_attempt_at from ${t}
          where ${owner} = w.owner and ${free}
          order by next_attempt_at, id limit greatest(${o.share!.room(sql`w.owner`)}, 0)) p) r
      order by r.rn, r.next_attempt_at limit ${o.limit}::int)
    for update skip locked`;
}

export interface ClaimLoopOptions<T> {
  /**
   * Leases up to `n` due items to this process (with `claimDue`). `ahead`: the items may wait for
   * slots (a prefetching loop's pass), not all go to work at once (`runOnce`).
   */
  claim(n: number, ahead: boolean): Promise<T[]>;
  /** Works one claimed item and records its outcome under the lease. */
  handle(item: T): Promise<void>;
  /**
   * Whether a waiting item may take a free slot now; one that may not stays waiting while later
   * ones go ahead of it (its owner's share of the slots is taken, say). Default: any item.
   */
  ready?(item: T): boolean;
  /** Runs before each claim (the webhook dispatcher turns new events into deliveries there). */
  prepare?(): Promise<unknown>;
  /** Items in flight at once in this process. */
  concurrency: number;
  /**
   * Under a backlog, hold one more batch (up to `concurrency` items, leased) waiting for slots,
   * claimed while the current one is worked: slots are refilled from it as they free up, and
   * every claim is a full batch. An item may wait longer than its lease covers (behind its
   * owner's items in slots, say): the handler renews the lease of an item whose lease is too
   * short for it by then (`renewLease`), rather than drop it. Default false.
   */
  prefetch?: boolean;
  pollMs: number;
  /** PollLoopOptions.wakeGapMs. */
  wakeGapMs?: number;
  failureMessage: string;
  logger?: DispatcherLogger;
}

/**
 * The poll-and-claim loop both dispatchers run: prepare, claim as many items as there are free
 * slots, work them concurrently, and (when the claim filled every slot) claim again once half the
 * slots are free (one claim per batch, not per item); else at the next poll, or at once when woken.
 * With `prefetch`, the claim under a backlog comes once the waiting batch has gone into slots, and
 * takes a full batch that waits for the slots to free up.
 */
export class ClaimLoop<T> {
  readonly #o: ClaimLoopOptions<T>;
  readonly #inFlight = new Set<Promise<void>>();
  /** Claimed items waiting for a slot (prefetch only). */
  readonly #waiting: T[] = [];
  readonly #poll: PollLoop;
  /** The last claim filled every free slot: more may be due as soon as slots free up. */
  #full = false;

  constructor(opts: ClaimLoopOptions<T>) {
    this.#o = opts;
    this.#poll = new PollLoop(() => this.#pass(), {
      pollMs: opts.pollMs,
      wakeGapMs: opts.wakeGapMs,
      failureMessage: opts.failureMessage,
      logger: opts.logger,
    });
  }

  start(): void {
    this.#poll.start();
  }

  /** PollLoop.wake: `now` for a backlog of the loop's own, regardless of the gap meant for commits. */
  wake(now = false): void {
    this.#poll.wake(now);
  }

  /** Stops claiming and waits for the items claimed (in flight or waiting) to be worked and recorded. */
  async stop(): Promise<void> {
    await this.#poll.stop();
    while (this.#inFlight.size) await Promise.allSettled([...this.#inFlight]);
  }

  /** One pass, waiting for every claimed item; for tests and tools. Returns how many were claimed. */
  async runOnce(): Promise<number> {
    await this.#o.prepare?.();
    const claimed = await this.#o.claim(this.#o.concurrency, false);
    await Promise.all(claimed.map((c) => this.#work(c)));
    return claimed.length;
  }

  /** Items this process holds leased: in flight and waiting. */
  get #held(): number {
    return this.#inFlight.size + this.#waiting.length;
  }

  /** What may be held at once: the slots, and with prefetch a batch waiting for them. */
  get #capacity(): number {
    return this.#o.prefetch ? 2 * this.#o.concurrency : this.#o.concurrency;
  }

  /** True when every free slot was filled (more may be due right away). */
  async #pass(): Promise<boolean> {
    await this.#o.prepare?.();
    const free = Math.min(this.#capacity - this.#held, this.#o.concurrency);
    if (free <= 0) return false;
    const claimed = await this.#o.claim(free, this.#o.prefetch ?? false);
    this.#full = claimed.length === free;
    this.#waiting.push(...claimed);
    this.#fill();
    return this.#full && this.#held < this.#capacity;
  }

  /** Starts waiting items, oldest first, that are ready while slots are free. */
  #fill() {
    const ready = this.#o.ready;
    for (let i = 0; i < this.#waiting.length && this.#inFlight.size < this.#o.concurrency; ) {
      if (ready && !ready(this.#waiting[i]!)) i++;
      else this.#track(this.#work(this.#waiting.splice(i, 1)[0]!));
    }
  }

  #work(item: T): Promise<void> {
    // An item whose outcome cannot be recorded keeps its lease until it runs out, then is due again.
    return this.#o
      .handle(item)
      .catch((err) => this.#o.logger?.warn({ err }, `${this.#o.failureMessage}: an item failed`));
  }

  #track(p: Promise<void>) {
    this.#inFlight.add(p);
    void p.finally(() => {
      this.#inFlight.delete(p);
      this.#fill();
      // Only a backlog needs a claim before the next poll; otherwise a finished item is no news.
      // That claim takes half the slots or more (with prefetch, a whole batch), so it skips the
      // gap meant for commits' wake-ups.
      const room = this.#o.prefetch ? this.#o.concurrency : this.#o.concurrency / 2;
      if (this.#full && this.#capacity - this.#held >= room) this.#poll.wake(true);
    });
  }
}
