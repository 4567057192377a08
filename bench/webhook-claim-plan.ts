/**
 * EXPLAIN ANALYZE of the webhook dispatcher's claim (the statement a pass sends, as it sends it)
 * over a due backlog: BENCH_PLAN_BACKLOG (10,000) deliveries of one client and one of another,
 * the claim run in a transaction that is rolled back. Prints the plan and the claim's time.
 *
 *   tsx bench/webhook-claim-plan.ts pglite|postgres
 *   BENCH_WEBHOOK_CORE=<checkout>/packages/core/src/index.ts   another checkout's claim
 */
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { createTestDatabase } from '@remit/core/testing';

const { createCredentials, openCore, updateWebhookUrl, WebhookDispatcher } = (await import(
  process.env.BENCH_WEBHOOK_CORE || '@remit/core'
)) as typeof import('@remit/core');

class Rollback extends Error {}

const kind = process.argv[2] === 'postgres' ? 'postgres' : 'pglite';
const BACKLOG = Number(process.env.BENCH_PLAN_BACKLOG ?? 10_000);

const pg = kind === 'postgres' ? await createTestDatabase('remit_bench_plan') : null;
let claim: { query: string; params: unknown[] } | undefined;
const core = await openCore({
  env: 'sandbox',
  publicUrl: 'http://127.0.0.1',
  encryptionKey: randomBytes(32),
  databaseUrl: pg?.url,
  logger: {
    logQuery: (query, params) =>
      void (query.startsWith('\n    with due as') && (claim = { query, params: [...params] })),
  },
});
try {
  const db = core.ctx.db;
  const clients = [];
  for (let i = 0; i < 2; i++) {
    const { client_id } = await createCredentials(core.ctx);
    // Nothing is sent: the claim alone is measured.
    await updateWebhookUrl(core.ctx, client_id, { webhook_url: 'http://127.0.0.1:9/hooks' });
    clients.push(client_id);
  }
  const events = (client: string, n: number) =>
    db.execute(sql`
      insert into events (id, client_id, event_type, payload, created_at)
      select 'evt_' || md5(random()::text), ${client}, 'preauth', '{}'::jsonb, now() - make_interval(secs => ${n} - g)
      from generate_series(1, ${n}) g`);
  await events(clients[0]!, BACKLOG);
  await events(clients[1]!, 1);
  const d = new WebhookDispatcher(core.ctx, { wakeOnCommit: false });
  while ((await d.createDeliveries()) > 0);
  await db.execute(sql`analyze webhook_deliveries`);
  // One pass records the statement (and claims nothing: the rows are made due only after it).
  await db.execute(sql`update webhook_deliveries set next_attempt_at = now() + interval '1 hour'`);
  await d.runOnce();
  await d.stop();
  await db.execute(sql`update webhook_deliveries set next_attempt_at = created_at`);
  if (!claim) throw new Error('bench: no claim statement was seen');
  const literal = (v: unknown) => (typeof v === 'number' ? String(v) : `'${String(v).replaceAll("'", "''")}'`);
  const text = claim.query.replace(/\$(\d+)/g, (_, i: string) => literal(claim!.params[Number(i) - 1]));
  console.log(
    `== ${kind}: the claim over ${BACKLOG + 1} due deliveries of 2 clients; parameters ${JSON.stringify(claim.params)} ==`,
  );
  await db
    .transaction(async (tx) => {
      const r = await tx.execute(sql.raw(`explain (analyze, costs off) ${text}`));
      for (const row of (r as unknown as { rows: Array<Record<string, string>> }).rows)
        console.log(Object.values(row)[0]);
      // Prepared, as the dispatcher sends it: after the first few runs the server may keep one plan.
      await tx.execute(sql.raw(`prepare remit_plan_claim as ${claim!.query}`));
      const run = sql.raw(`execute remit_plan_claim (${claim!.params.map(literal).join(', ')})`);
      const n = 20;
      const times: number[] = [];
      for (let i = 0; i < n; i++) {
        await tx.execute(sql.raw('savepoint s'));
        const t0 = performance.now();
        await tx.execute(run);
        times.push(performance.now() - t0);
        await tx.execute(sql.raw('rollback to savepoint s'));
      }
      const last = times.slice(10).sort((a, b) => a - b);
      console.log(
        `the claim prepared, run ${n} times: first ${times[0]!.toFixed(2)} ms, median of the last 10 ${last[5]!.toFixed(2)} ms`,
      );
      throw new Rollback();
    })
    .catch((e) => {
      if (!(e instanceof Rollback)) throw e;
    });
} finally {
  await core.close();
  await pg?.drop();
}
