import { randomBytes } from 'node:crypto';
import { inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createCredentials } from '../clients/credentials.js';
import { updateWebhookUrl } from '../clients/webhooks.js';
import { webhookDeliveries } from '../db/schema.js';
import { openCore, type Core } from '../open.js';
import { createTestDatabase, type TestDatabase } from '../test-database.js';
import { DeliveryResults, type DeliveryResult } from './delivery-results.js';
import { WebhookDispatcher } from './dispatcher.js';
import { recordEvent } from './outbox.js';
import { onPostgres } from './test-support.js';

/**
 * Delivery results written together (PGlite, or Postgres with REMIT_TEST_DB=postgres): one
 * statement for the results in hand, one more for all that came while it was written; each row
 * only under the lease that claimed it.
 */

let core: Core;
let tdb: TestDatabase | null = null;
let sent: string[] = [];
beforeAll(async () => {
  tdb = onPostgres ? await createTestDatabase() : null;
  core = await openCore({
    env: 'sandbox',
    publicUrl: 'http://127.0.0.1',
    encryptionKey: randomBytes(32),
    databaseUrl: tdb?.url,
    onStatement: (text) => void sent.push(text),
  });
});
afterAll(async () => {
  await core.close();
  await tdb?.drop();
});

/** `n` deliveries of fresh events leased to `lease` (as a claim would), with no receiver involved. */
async function leasedDeliveries(n: number, lease: string): Promise<string[]> {
  const { client_id } = await createCredentials(core.ctx);
  await updateWebhookUrl(core.ctx, client_id, { webhook_url: 'http://127.0.0.1:9/hooks' });
  const data = { merchant_id: 'm_1', guid: 'txn_1', amount: 1, order_id: 'o', customer_id: 0 };
  for (let i = 0; i < n; i++) await recordEvent(core.ctx, { clientId: client_id, type: 'preauth', data });
  await new WebhookDispatcher(core.ctx).createDeliveries();
  const r =
    await core.ctx.db.execute(sql`update webhook_deliveries set lease_id = ${lease}, locked_until = now() + interval '1 minute'
    where client_id = ${client_id} returning id`);
  return (r as unknown as { rows: Array<{ id: string }> }).rows.map((x) => x.id);
}

const attempt = (code: number) => [
  { at: new Date().toISOString(), status_code: code, latency_ms: 1, error: null, response_body: 'ok' },
];
const rowsOf = (ids: string[]) =>
  core.ctx.db.select().from(webhookDeliveries).where(inArray(webhookDeliveries.id, ids));
const results = (ids: string[], status: DeliveryResult['status'], lease = 'lease_a'): DeliveryResult[] =>
  ids.map((id) => ({
    id,
    lease_id: lease,
    status,
    tries: 1,
    url: 'http://127.0.0.1:9/new',
    attempt: attempt(status === 'delivered' ? 200 : 500),
    delay_ms: status === 'retrying' ? 60_000 : null,
  }));

it('the results in hand go in one statement; those that come while it is written, all in the next', async () => {
  const ids = await leasedDeliveries(7, 'lease_a');
  const writer = new DeliveryResults(core.ctx.db);
  sent = [];
  const done: Array<Promise<void>> = results(ids.slice(0, 3), 'delivered').map((r) => writer.record(r));
  // Queued behind the first batch's start (setImmediate runs in order): these come while it is written.
  await new Promise<void>((resolve) =>
    setImmediate(() => {
      done.push(...results(ids.slice(3), 'retrying').map((r) => writer.record(r)));
      resolve();
    }),
  );
  await Promise.all(done);
  expect(sent.map((q) => q.trim().split(/\s+/).slice(0, 2).join(' '))).toEqual([
    'update webhook_deliveries',
    'update webhook_deliveries',
  ]);
  const rows = await rowsOf(ids);
  for (const r of rows) {
    expect(r).toMatchObject({ leaseId: null, lockedUntil: null, tries: 1, url: 'http://127.0.0.1:9/new' });
    expect(r.attempts).toHaveLength(1);
  }
  const delivered = rows.filter((r) => ids.slice(0, 3).includes(r.id));
  for (const r of delivered) expect(r).toMatchObject({ status: 'delivered', deliveredAt: expect.any(Date) });
  const retrying = rows.filter((r) => ids.slice(3).includes(r.id));
  for (const r of retrying) {
    expect(r).toMatchObject({ status: 'retrying', deliveredAt: null });
    expect(r.nextAttemptAt.getTime() - Date.now()).toBeGreaterThan(50_000);
  }
});

it('a row whose lease is not the one named is left as it is; a disabled one changes only its status and lease', async () => {
  const [other, disabled] = await leasedDeliveries(2, 'lease_b');
  const writer = new DeliveryResults(core.ctx.db);
  const [before] = await rowsOf([other!]);
  await Promise.all([
    writer.record(results([other!], 'delivered', 'lease_stale')[0]!),
    writer.record({
      id: disabled!,
      lease_id: 'lease_b',
      status: 'disabled',
      tries: null,
      url: null,
      attempt: null,
      delay_ms: null,
    }),
  ]);
  const [after] = await rowsOf([other!]);
  expect(after).toEqual(before);
  const [d] = await rowsOf([disabled!]);
  expect(d).toMatchObject({
    status: 'disabled',
    leaseId: null,
    lockedUntil: null,
    tries: 0,
    url: 'http://127.0.0.1:9/hooks',
    attempts: [],
    deliveredAt: null,
  });
});
