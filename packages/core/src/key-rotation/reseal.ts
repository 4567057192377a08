import { sql, type SQL } from 'drizzle-orm';
import type { Ctx } from '../context.js';
import { IDEMPOTENCY_TTL_MS } from '../idempotency/idempotency.js';
import type { Vault } from '../encryption.js';

/**
 * `keys reseal`: every sealed value opened and sealed again with the current key (docs/operations.md
 * "Rotating the encryption key"). In batches, each one update statement that sets a row only while it
 * still holds the value read (compare-and-set): safe beside a serving server, and a run stopped
 * anywhere is finished by running it again (rows already sealed with the current key are not selected).
 */

/** How a column holds its sealed values. */
type Form =
  /** The column is one sealed value. */
  | 'text'
  /** A stored idempotent answer: `v…` whole, or `a1:<record id>:v…` (stored-answer.ts); '' while in progress. */
  | 'answer'
  /** `owner_info` jsonb: the owner's personal fields sealed in its `personal_enc` (owner-info.ts). */
  | 'owner'
  /** An event's jsonb payload: top-level fields `{"$sealed": "v…"}` (webhooks/outbox.ts). */
  | 'payload';

interface SealedColumn {
  table: string;
  keys: string[];
  column: string;
  form: Form;
}

/** Every column holding a value sealed with the encryption key. A new one must be added here (reseal.test.ts checks the schema). */
export const SEALED_COLUMNS: readonly SealedColumn[] = [
  { table: 'clients', keys: ['id'], column: 'webhook_secret_enc', form: 'text' },
  { table: 'clients', keys: ['id'], column: 'webhook_previous_secret_enc', form: 'text' },
  { table: 'merchants', keys: ['id'], column: 'merchant_key_enc', form: 'text' },
  { table: 'merchants', keys: ['id'], column: 'account_number_enc', form: 'text' },
  { table: 'merchants', keys: ['id'], column: 'ein_enc', form: 'text' },
  { table: 'merchants', keys: ['id'], column: 'ssn_enc', form: 'text' },
  { table: 'merchants', keys: ['id'], column: 'owner_info', form: 'owner' },
  { table: 'pay_links', keys: ['id'], column: 'sub_merchant_key', form: 'text' },
  { table: 'payment_methods', keys: ['id'], column: 'number_enc', form: 'text' },
  { table: 'pay_challenges', keys: ['id'], column: 'card_enc', form: 'text' },
  { table: 'events', keys: ['id'], column: 'payload', form: 'payload' },
  { table: 'idempotency_keys', keys: ['client_id', 'key'], column: 'response_body', form: 'answer' },
  { table: 'key_fingerprint', keys: ['fingerprint'], column: 'mac_key_enc', form: 'text' },
];

export interface ResealReport {
  /** The current key's id (its fingerprint's first 12 hex digits): what every value is now sealed with. */
  key_id: string;
  /** Per table: values sealed again now, values still sealed otherwise, values no key given opens. */
  tables: Record<string, { resealed: number; left: number; unreadable: number }>;
  resealed: number;
  left: number;
  unreadable: number;
  /** REMIT_ENCRYPTION_KEY_PREVIOUS's id, or null when none was given. */
  previous_key_id: string | null;
  /** Nothing sealed with any other key is left: the previous key is retired and may be removed. */
  done: boolean;
}

const RESEAL_BATCH = 200;

/** The rows of `c` whose value is not sealed with the current key in the current form. */
function stale(c: SealedColumn, vault: Vault): SQL {
  const col = sql.raw(`"${c.column}"`);
  const current = `v2.${vault.keyId}.%`;
  switch (c.form) {
    case 'text':
      return sql`${col} is not null and ${col} not like ${current}`;
    case 'answer':
      return sql`${col} <> '' and ${col} not like ${current} and ${col} not like ${`a1:%:${current}`}`;
    case 'owner':
      return sql`${col} ? 'personal_enc' and ${col}->>'personal_enc' not like ${current}`;
    case 'payload':
      // Only events with a sealed field are looked into (jsonb_each needs an object).
      return sql`case when jsonb_typeof(${col}) = 'object' and ${col}::text like '%"$sealed"%' then exists (
        select 1 from jsonb_each(${col}) f
        where jsonb_typeof(f.value) = 'object' and f.value ? '$sealed' and f.value->>'$sealed' not like ${current}) else false end`;
  }
}

/** The value sealed again with the current key (the same form, the same plain text). */
function resealed(c: SealedColumn, vault: Vault, value: string): string {
  switch (c.form) {
    case 'text':
      return vault.reseal(value);
    case 'answer': {
      if (!value.startsWith('a1:')) return vault.reseal(value);
      const end = value.indexOf(':', 3);
      return value.slice(0, end + 1) + vault.reseal(value.slice(end + 1));
    }
    case 'owner': {
      const owner = JSON.parse(value) as Record<string, unknown>;
      return JSON.stringify({ ...owner, personal_enc: vault.reseal(owner.personal_enc as string) });
    }
    case 'payload': {
      const payload = JSON.parse(value) as Record<string, unknown>;
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(payload)) {
        const s = v && typeof v === 'object' && '$sealed' in v ? (v as { $sealed: unknown }).$sealed : undefined;
        out[k] = typeof s === 'string' ? { $sealed: vault.reseal(s) } : v;
      }
      return JSON.stringify(out);
    }
  }
}

type Row = Record<string, string>;
const rowsOf = async (ctx: Pick<Ctx, 'db'>, q: SQL) => ((await ctx.db.execute(q)) as unknown as { rows: Row[] }).rows;

/** Reseals one column, in batches in key order; counts what it resealed and what it could not open. */
async function resealColumn(ctx: Pick<Ctx, 'db' | 'vault'>, c: SealedColumn, signal?: AbortSignal) {
  const table = sql.raw(`"${c.table}"`);
  const col = sql.raw(`"${c.column}"`);
  const keyList = sql.raw(c.keys.map((k) => `"${k}"`).join(', '));
  const cast = c.form === 'owner' || c.form === 'payload' ? sql.raw('::jsonb') : sql.raw('');
  const keyOf = (r: Row) =>
    sql.join(
      c.keys.map((k) => sql`${r[k]}::text`),
      sql`, `,
    );
  let after: Row | null = null;
  let done = 0;
  let unreadable = 0;
  while (!signal?.aborted) {
    const batch = await rowsOf(
      ctx,
      sql`select ${keyList}, ${col}::text as "value" from ${table}
          where ${stale(c, ctx.vault)} ${after ? sql`and (${keyList}) > (${keyOf(after)})` : sql``}
          order by ${keyList} limit ${RESEAL_BATCH}`,
    );
    const pairs: SQL[] = [];
    for (const r of batch) {
      try {
        pairs.push(sql`(${keyOf(r)}, ${r.value}::text, ${resealed(c, ctx.vault, r.value!)}::text)`);
      } catch {
        unreadable++;
      }
    }
    // One statement per batch, each row set only while it still holds what was read: a value written
    // meanwhile is its writer's (and sealed with the writer's key), never overwritten.
    if (pairs.length) {
      const updated = await rowsOf(
        ctx,
        sql`update ${table} t set ${col} = v."new"${cast}
            from (values ${sql.join(pairs, sql`, `)}) as v(${keyList}, "old", "new")
            where (${sql.raw(c.keys.map((k) => `t."${k}"`).join(', '))}) = (${sql.raw(c.keys.map((k) => `v."${k}"`).join(', '))})
              and t.${col} = v."old"${cast}
            returning 1 as "one"`,
      );
      done += updated.length;
    }
    if (batch.length < RESEAL_BATCH) break;
    after = batch[batch.length - 1]!;
  }
  const [count] = await rowsOf(ctx, sql`select count(*)::int as "n" from ${table} where ${stale(c, ctx.vault)}`);
  return { resealed: done, left: Number(count!.n) - unreadable, unreadable };
}

/**
 * Seals every value again with the current key. When nothing sealed otherwise is left, the previous
 * key is retired: a process no longer needs it to start, and its MAC key, sealed with the current key,
 * stays a day (as long as an idempotency key's fingerprint) so that repeats of earlier requests still match.
 */
export async function resealAll(
  ctx: Pick<Ctx, 'db' | 'vault'>,
  opts: { signal?: AbortSignal } = {},
): Promise<ResealReport> {
  const tables: ResealReport['tables'] = {};
  for (const c of SEALED_COLUMNS) {
    if (opts.signal?.aborted) break;
    const counts = await resealColumn(ctx, c, opts.signal);
    const t = (tables[c.table] ??= { resealed: 0, left: 0, unreadable: 0 });
    t.resealed += counts.resealed;
    t.left += counts.left;
    t.unreadable += counts.unreadable;
  }
  const sum = (k: 'resealed' | 'left' | 'unreadable') => Object.values(tables).reduce((n, t) => n + t[k], 0);
  // Stopped part-way (a server's shutdown): the rows not looked at are not counted, so nothing is retired.
  const done = !opts.signal?.aborted && sum('left') === 0 && sum('unreadable') === 0;
  const previous = ctx.vault.previousFingerprint();
  if (done) {
    const macKey = ctx.vault.previousMacKey();
    if (previous && macKey)
      await ctx.db.execute(sql`update key_fingerprint set retired_at = now(), mac_key_enc = ${ctx.vault.encryptBytes(macKey)}
        where fingerprint = ${previous} and retired_at is null`);
    // Any other key still recorded (none, when this process started) has nothing left either.
    await ctx.db.execute(sql`update key_fingerprint set retired_at = now()
      where fingerprint <> ${ctx.vault.fingerprint()} and retired_at is null`);
  }
  const forgotten = new Date(Date.now() - IDEMPOTENCY_TTL_MS);
  await ctx.db.execute(sql`delete from key_fingerprint where retired_at < ${forgotten.toISOString()}::timestamptz`);
  return {
    key_id: ctx.vault.keyId,
    tables,
    resealed: sum('resealed'),
    left: sum('left'),
    unreadable: sum('unreadable'),
    previous_key_id: previous ? previous.slice(0, 12) : null,
    done,
  };
}

/** What a reseal's end means for the operator, in one line (the CLI's and the server's log). */
export function resealOutcome(report: ResealReport): string {
  const previous = report.previous_key_id ? `the previous key (${report.previous_key_id})` : 'any other key';
  if (report.done)
    return (
      `Every value is sealed with key ${report.key_id}; nothing sealed with ${previous} is left.` +
      (report.previous_key_id ? ' REMIT_ENCRYPTION_KEY_PREVIOUS can be removed (restart each process without it).' : '')
    );
  const n = report.left + report.unreadable;
  return (
    `${n} value${n === 1 ? ' is' : 's are'} not sealed with key ${report.key_id} yet: ` +
    (report.unreadable
      ? `${report.unreadable} cannot be opened with the keys given. Keep REMIT_ENCRYPTION_KEY_PREVIOUS.`
      : 'written meanwhile by a process still sealing with another key? Restart every process with the new key, then run this again.')
  );
}
