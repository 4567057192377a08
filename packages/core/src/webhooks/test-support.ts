import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { openCore, type Core, type OpenOptions } from '../open.js';
import type { Env } from '../environment.js';
import { createTestDatabase, testDbKind } from '../test-database.js';
import { recordEvent } from './outbox.js';
import { inTransaction } from '../operation.js';
import { migratedImage } from '../db/migrated-image.js';

/**
 * Test support for the dispatchers: a core on a fresh database (PGlite, or a database of its own
 * on the local Postgres when REMIT_TEST_DB=postgres) and a webhook receiver on loopback.
 */
export const onPostgres = testDbKind === 'postgres';

export interface TestCore extends Core {
  databaseUrl?: string;
}

export async function openTestCore(
  env: Env = 'sandbox',
  opts: Pick<OpenOptions, 'onStatement'> = {},
): Promise<TestCore> {
  const db = onPostgres ? await createTestDatabase() : null;
  const core = await openCore({
    env,
    publicUrl: 'http://127.0.0.1',
    encryptionKey: randomBytes(32),
    databaseUrl: db?.url,
    // On PGlite from the migrated image, as the server's test harness does.
    ...(db ? {} : { image: await migratedImage(), vacuumAtStart: false }),
    ...opts,
  });
  return {
    ...core,
    databaseUrl: db?.url,
    async close() {
      await core.close();
      await db?.drop();
    },
  };
}

export interface Received {
  headers: IncomingMessage['headers'];
  body: string;
  path: string;
}

export type Behaviour = (r: Received, res: ServerResponse, req: IncomingMessage) => unknown;

export interface Receiver {
  url: string;
  received: Received[];
  /** How the next requests are answered; default 200. */
  behave(b: Behaviour): void;
  waitFor(pred: (all: Received[]) => boolean, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const received: Received[] = [];
  let behaviour: Behaviour = (_r, res) => res.writeHead(200).end('ok');
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const r = { headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), path: req.url ?? '/' };
      received.push(r);
      void behaviour(r, res, req);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    behave(b) {
      behaviour = b;
    },
    async waitFor(pred, timeoutMs = 10_000) {
      const until = Date.now() + timeoutMs;
      while (!pred(received)) {
        if (Date.now() > until)
          throw new Error(`receiver: condition not met in ${timeoutMs} ms (got ${received.length})`);
        await new Promise((r) => setTimeout(r, 10));
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Polls until `fn` returns a truthy value. */
export async function eventually<T>(fn: () => Promise<T | undefined | null | false>, timeoutMs = 10_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > until) throw new Error(`condition not met in ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** A bare merchant row for tests that need one without going through onboarding. */
export async function insertTestMerchant(core: Core, clientId: string): Promise<string> {
  const { merchants } = await import('../db/schema.js');
  const { newId } = await import('../ids.js');
  const id = newId.merchant();
  await core.ctx.db.insert(merchants).values({
    id,
    clientId,
    status: 'approved',
    businessname: 'Acme Coffee LLC',
    email: 'owner@acme.example',
    firstName: 'Ada',
    lastName: 'Lovelace',
    phonenumber: '+14155550100',
    website: 'https://acme.example',
    merchantKeyHash: randomBytes(16).toString('hex'),
    merchantKeyEnc: 'x',
    publicKey: `pk_test_${randomBytes(8).toString('hex')}`,
    businessInfo: {},
    ownerInfo: {},
    processingInfo: {},
    bankName: 'Bank',
    routingNumber: '011000015',
    accountNumberEnc: 'x',
    accountLast4: '6789',
    einEnc: 'x',
    ssnEnc: 'x',
    cardFeeRateE7: 290000,
    cardFeeFixedCents: 30,
    achFeeRateE7: 100000,
    achFeeCapCents: 1000,
    maxAmountCents: 99_999_999,
    joinDate: new Date(),
  });
  return id;
}

/**
 * Answers 200 after a short random pause and counts deliveries of one `webhook-id` that were in
 * flight at the same time (what "never concurrently twice" forbids).
 */
export function countOverlaps(rx: Receiver): () => number {
  const inFlight = new Map<string, number>();
  let overlap = 0;
  rx.behave(async (r, res) => {
    const id = String(r.headers['webhook-id']);
    const n = (inFlight.get(id) ?? 0) + 1;
    inFlight.set(id, n);
    if (n > 1) overlap++;
    await new Promise((resolve) => setTimeout(resolve, Math.random() * 4));
    inFlight.set(id, inFlight.get(id)! - 1);
    res.writeHead(200).end();
  });
  return () => overlap;
}

/** Writes 1,000 `preauth` events for the client, 50 per database transaction; returns their ids. */
export async function recordThousandEvents(core: Core, clientId: string): Promise<string[]> {
  const ids: string[] = [];
  for (let batch = 0; batch < 20; batch++) {
    await inTransaction(core.ctx, async (tx, ctx) => {
      for (let i = 0; i < 50; i++) {
        const data = {
          merchant_id: 'm_1',
          guid: `txn_${batch}_${i}`,
          amount: 1,
          order_id: `o${batch}_${i}`,
          customer_id: 0,
        };
        ids.push(await recordEvent({ ...ctx, db: tx }, { clientId, type: 'preauth', data }));
      }
    });
  }
  return ids;
}

/** How many times each `webhook-id` reached the receiver. */
export function deliveriesById(rx: Receiver): Map<string, number> {
  const counts = new Map<string, number>();
  for (const r of rx.received) {
    const id = String(r.headers['webhook-id']);
    counts.set(id, (counts.get(id) ?? 0) + 1);
  }
  return counts;
}
