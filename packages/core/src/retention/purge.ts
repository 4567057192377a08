import { sql, type SQL } from 'drizzle-orm';
import type { Ctx } from '../context.js';
import { reclaimSpace } from '../db/maintenance.js';
import { IDEMPOTENCY_TTL_MS } from '../idempotency/idempotency.js';
import { CHALLENGE_TTL_MS } from '../pay-page/pay.js';
import { PollLoop } from '../poll-loop.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * How long what is no longer needed is kept, in whole days (null: forever). The ledger
 * (transactions with their voids, refunds and returns) is never purged, nor are merchants,
 * customers, payment methods and pay links.
 */
export interface Retention {
  /** Events and their webhook deliveries, counted from the delivery's last try. */
  eventsDays: number | null;
  /** Messages sent, put in the sandbox inbox, or given up on, counted from the last try. */
  messagesDays: number | null;
  /** Portal sessions past their expiry, and 3-D Secure challenges from their start. */
  sessionsDays: number | null;
  /** Content-Security-Policy violation reports of merchants' pages, from their receipt (the SAQ A document lists 90 days). */
  cspReportsDays: number | null;
  /** How often the purge runs after the one at start. */
  intervalMs: number;
}

export const DEFAULT_RETENTION: Retention = {
  eventsDays: 30,
  messagesDays: 30,
  sessionsDays: 7,
  cspReportsDays: 90,
  intervalMs: 60 * 60 * 1000,
};

/** Rows one statement deletes at most: a big purge is many short statements, never one long lock. */
export const PURGE_BATCH = 1000;

/** Rows deleted, per table. */
export type PurgeCounts = Record<PurgedTable, number>;
export type PurgedTable = (typeof PURGED_TABLES)[number];
export const PURGED_TABLES = [
  'idempotency_keys',
  'webhook_deliveries',
  'events',
  'messages',
  'portal_sessions',
  'pay_challenges',
  'rate_limits',
  'csp_reports',
] as const;

const zero = (): PurgeCounts => Object.fromEntries(PURGED_TABLES.map((t) => [t, 0])) as PurgeCounts;

const cutoff = (now: Date, days: number | null) =>
  days === null ? null : new Date(now.getTime() - days * DAY_MS).toISOString();

/**
 * One statement per kind of row, each deleting up to `batch` of them (oldest first, rows locked by
 * someone else skipped). A table whose count equals `batch` may have more to delete.
 */
export async function purgeBatch(
  ctx: Pick<Ctx, 'db' | 'now'>,
  retention: Retention,
  batch = PURGE_BATCH,
): Promise<PurgeCounts> {
  const now = ctx.now();
  const counts = zero();
  const run = async (q: SQL) =>
    ((await ctx.db.execute(q)) as unknown as { rows: Array<Record<string, number>> }).rows[0] ?? {};

  /** Deletes up to `batch` rows of `table` matching `where`, oldest by `age` first (locked rows skipped); returns how many. */
  const deleteOldest = async (table: string, keys: string[], where: SQL, age: string) => {
    const t = sql.raw(table);
    const cols = sql.raw(keys.join(', '));
    const match = sql.raw(keys.map((k) => `t.${k} = doomed.${k}`).join(' and '));
    const r = await run(sql`
      with doomed as (select ${cols} from ${t} where ${where} order by ${sql.raw(age)} limit ${batch} for update skip locked),
      gone as (delete from ${t} t using doomed where ${match} returning 1)
      select count(*)::int as n from gone`);
    return Number(r.n ?? 0);
  };

  // Idempotent answers are replayed for 24 hours; an unfinished claim that old is long dead too.
  const idem = new Date(now.getTime() - IDEMPOTENCY_TTL_MS).toISOString();
  counts.idempotency_keys = await deleteOldest(
    'idempotency_keys',
    ['client_id', 'key'],
    sql`created_at < ${idem}::timestamptz`,
    'created_at',
  );

  const events = cutoff(now, retention.eventsDays);
  if (events) {
    // An event goes with its delivery once that delivery is over (delivered or given up) and its
    // last try is past the retention. Never one waiting to be sent: pending, retrying, or held
    // while its URL is disabled, and never one the dispatcher has not looked at yet. The delete of
    // deliveries checks their status again (a manual retry may have just made one pending): an
    // event keeps every delivery that was not deleted.
    const r = await run(sql`
      with doomed as (
        select e.id from events e
        where e.created_at < ${events}::timestamptz and e.dispatched_at is not null
          and not exists (
            select 1 from webhook_deliveries d where d.event_id = e.id
              and (d.status not in ('delivered', 'failed') or greatest(d.next_attempt_at, d.delivered_at) >= ${events}::timestamptz))
        order by e.created_at limit ${batch} for update of e skip locked
      ), deliveries as (
        delete from webhook_deliveries d using doomed
        where d.event_id = doomed.id and d.status in ('delivered', 'failed') returning d.event_id
      ), gone as (
        delete from events e using doomed where e.id = doomed.id
          and not exists (select 1 from webhook_deliveries d where d.event_id = e.id and d.event_id not in (select event_id from deliveries))
        returning 1
      )
      select (select count(*) from gone)::int as events, (select count(*) from deliveries)::int as deliveries`);
    counts.events = Number(r.events ?? 0);
    counts.webhook_deliveries = Number(r.deliveries ?? 0);
  }

  const messages = cutoff(now, retention.messagesDays);
  if (messages) {
    // A finished message's last try is its next_attempt_at (set to the time of that try).
    counts.messages = await deleteOldest(
      'messages',
      ['id'],
      sql`status in ('sent', 'delivered_to_inbox', 'failed') and next_attempt_at < ${messages}::timestamptz`,
      'next_attempt_at',
    );
  }

  const sessions = cutoff(now, retention.sessionsDays);
  if (sessions) {
    counts.portal_sessions = await deleteOldest(
      'portal_sessions',
      ['token_hash'],
      sql`expires_at < ${sessions}::timestamptz`,
      'expires_at',
    );
    // A challenge can be answered for CHALLENGE_TTL_MS; one still open past the retention was abandoned.
    const challenges = new Date(Math.min(Date.parse(sessions), now.getTime() - CHALLENGE_TTL_MS)).toISOString();
    counts.pay_challenges = await deleteOldest(
      'pay_challenges',
      ['id'],
      sql`created_at < ${challenges}::timestamptz`,
      'created_at',
    );
  }

  const reports = cutoff(now, retention.cspReportsDays);
  if (reports)
    counts.csp_reports = await deleteOldest(
      'csp_reports',
      ['id'],
      sql`created_at < ${reports}::timestamptz`,
      'created_at',
    );

  // Rate-limit windows that ended (the limiter also sweeps them now and then).
  counts.rate_limits = await deleteOldest('rate_limits', ['key'], sql`expires_at < now()`, 'expires_at');
  return counts;
}

/**
 * Erases the sealed copies of rotated webhook signing secrets whose overlap ended: they sign
 * nothing more (the dispatcher reads them as null). Run by `remit purge` and by the background purge.
 */
async function eraseEndedWebhookSecrets(ctx: Pick<Ctx, 'db'>): Promise<void> {
  await ctx.db.execute(sql`
    with ended as (select id from clients where webhook_previous_secret_until <= now() for update skip locked)
    update clients c set webhook_previous_secret_enc = null, webhook_previous_secret_until = null
    from ended where c.id = ended.id`);
}

/** True when some table deleted a full batch: there may be more. */
const full = (c: PurgeCounts, batch: number) => PURGED_TABLES.some((t) => c[t] >= batch);

function add(into: PurgeCounts, c: PurgeCounts) {
  for (const t of PURGED_TABLES) into[t] += c[t];
}

/**
 * Runs batches until nothing more is due, then (PGlite) gives the space back. `remit purge` and
 * tests call it; the worker runs the same batches in the background (`startPurge`).
 */
export async function purgeNow(
  ctx: Pick<Ctx, 'db' | 'now' | 'storage'>,
  retention: Retention,
  batch = PURGE_BATCH,
): Promise<PurgeCounts> {
  const total = zero();
  for (;;) {
    const c = await purgeBatch(ctx, retention, batch);
    add(total, c);
    if (!full(c, batch)) break;
  }
  await eraseEndedWebhookSecrets(ctx);
  await afterPurge(ctx, total);
  return total;
}

async function afterPurge(ctx: Pick<Ctx, 'db' | 'storage'>, total: PurgeCounts) {
  if (ctx.storage !== 'pglite') return; // Postgres: autovacuum does it.
  await reclaimSpace(
    ctx.db,
    PURGED_TABLES.filter((t) => total[t] > 0).map((t) => ({ table: t, deleted: total[t] })),
  );
}

export interface PurgeLogger {
  warn(obj: object, msg: string): void;
  info?(obj: object, msg: string): void;
}

/**
 * The purge in the background: at once (start), then every `retention.intervalMs`. Each pass is one
 * batch per table, run again at once while a batch was full, so stopping waits for one batch at most.
 * When a purge is over, its counts are logged and (PGlite) the space it freed is given back.
 */
export function startPurge(
  ctx: Pick<Ctx, 'db' | 'now' | 'storage'>,
  retention: Retention,
  opts: { logger?: PurgeLogger; batch?: number } = {},
) {
  const batch = opts.batch ?? PURGE_BATCH;
  let total = zero();
  const loop = new PollLoop(
    async () => {
      const c = await purgeBatch(ctx, retention, batch);
      add(total, c);
      if (full(c, batch)) return true;
      await eraseEndedWebhookSecrets(ctx);
      const done = total;
      total = zero();
      if (PURGED_TABLES.some((t) => done[t] > 0)) {
        opts.logger?.info?.({ purged: done }, 'retention purge deleted rows past their retention');
        await afterPurge(ctx, done);
      }
      return false;
    },
    { pollMs: retention.intervalMs, failureMessage: 'retention purge pass failed', logger: opts.logger },
  );
  loop.start();
  return loop;
}
