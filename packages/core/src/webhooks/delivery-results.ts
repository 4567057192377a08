import { sql } from 'drizzle-orm';
import type { Db } from '../db/connect.js';
import { preparedSql } from '../db/prepared-sql.js';

/** What one delivery's try changes on its row, written under the lease that claimed it. */
export interface DeliveryResult {
  id: string;
  lease_id: string;
  status: 'delivered' | 'retrying' | 'failed' | 'disabled';
  /** Null: unchanged (a delivery disabled before any try). */
  tries: number | null;
  url: string | null;
  /** The attempts to append (a JSON array), or null. */
  attempt: unknown[] | null;
  /** Next try this many ms from now; null: unchanged. */
  delay_ms: number | null;
}

/**
 * Results of deliveries written to the database together, one statement per batch (group commit):
 * a result that comes while a batch is being written goes in the next one, so an idle dispatcher
 * writes each at once and a busy one writes many per round trip. Each row is written only while
 * the lease that claimed it still holds it (a lease that ran out was claimed again elsewhere).
 * `record` resolves once its row is written; it rejects if the batch failed (the lease then runs
 * out and the delivery is tried again: at least once).
 */
export class DeliveryResults {
  readonly #db: Db;
  #queue: Array<{ row: DeliveryResult; resolve: () => void; reject: (e: unknown) => void }> = [];
  #writing = false;

  constructor(db: Db) {
    this.#db = db;
  }

  record(row: DeliveryResult): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.#queue.push({ row, resolve, reject });
      if (!this.#writing) {
        this.#writing = true;
        // Results of answers read in the same turn of the event loop go in the first batch.
        setImmediate(() => void this.#drain());
      }
    });
  }

  async #drain(): Promise<void> {
    while (this.#queue.length > 0) {
      const batch = this.#queue.splice(0);
      try {
        await resultsStatement.run(this.#db, { rows: JSON.stringify(batch.map((b) => b.row)) });
        for (const b of batch) b.resolve();
      } catch (e) {
        for (const b of batch) b.reject(e);
      }
    }
    this.#writing = false;
  }
}

/** The batch's statement, built once and prepared: its one parameter is the rows as JSON. */
const resultsStatement = preparedSql(
  'remit_webhook_results',
  () => sql`update webhook_deliveries d set
      status = v.status,
      delivered_at = case when v.status = 'delivered' then now() else d.delivered_at end,
      tries = coalesce(v.tries, d.tries),
      url = coalesce(v.url, d.url),
      attempts = case when v.attempt is null then d.attempts else d.attempts || v.attempt end,
      next_attempt_at = case when v.delay_ms is null then d.next_attempt_at else now() + make_interval(secs => v.delay_ms / 1000) end,
      locked_until = null, lease_id = null
    from jsonb_to_recordset(${sql.placeholder('rows')}::jsonb)
      as v(id text, lease_id text, status text, tries int, url text, attempt jsonb, delay_ms float8)
    where d.id = v.id and d.lease_id = v.lease_id`,
);
