import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServerResponse } from 'node:http';
import { sql } from 'drizzle-orm';
import { recordEvent, inTransaction } from '@remit/core';
import { startReceiver, type Receiver } from '@remit/core/testing';
import { startTestServer, type TestServer } from './testing/harness.js';
import { portalSignIn, type PortalClient } from './testing/portal.js';

/**
 * Many clients whose receivers hang or trickle their answer cannot starve the others: a try
 * unanswered after a second leaves its slot and opens its client's circuit, open clients share the
 * slow lane (4 slots beside the 16), and every try has one deadline (10 s) that also cuts off a
 * receiver dribbling its headers or body. The server runs the default slots, timeout and slow
 * threshold; retries are due again almost at once.
 */
const BAD_CLIENTS = 24;
const EVENTS_EACH = 2;

interface Scene {
  s: TestServer;
  bad: Receiver[];
  badClients: Array<[string, string]>;
  healthy: Receiver;
  portal: PortalClient;
}

async function scene(behave: (i: number, res: ServerResponse) => void): Promise<Scene> {
  const s = await startTestServer({ workers: { webhooks: { retryScale: 0.001 } } });
  const healthy = await startReceiver();
  const bad: Receiver[] = [];
  const badClients: Array<[string, string]> = [];
  for (let i = 0; i < BAD_CLIENTS; i++) {
    const rx = await startReceiver();
    rx.behave((_r, res) => behave(i, res));
    bad.push(rx);
    const auth = await s.credentials();
    const res = await s.http({
      method: 'POST',
      path: '/api/v1/client/update-webhooks-url',
      auth,
      json: { webhook_url: rx.url },
    });
    expect(res.status).toBe(200);
    badClients.push(auth);
  }
  const portal = await portalSignIn(s);
  expect((await portal.call('PUT', '/webhook', { webhook_url: healthy.url })).status).toBe(200);
  return { s, bad, badClients, healthy, portal };
}

async function close(sc: Scene | undefined) {
  if (!sc) return;
  // Cut the hanging requests first, so stopping the dispatcher does not wait out their deadlines.
  await Promise.all([...sc.bad, sc.healthy].map((rx) => rx.close()));
  await sc.s.close();
}

/** Commits each bad client's events (one transaction per client, as an operation does). */
async function flood(sc: Scene) {
  for (const [clientId] of sc.badClients) {
    await inTransaction(sc.s.core.ctx, async (_tx, c) => {
      for (let i = 0; i < EVENTS_EACH; i++)
        await recordEvent(c, { clientId, type: 'webhook.test', data: { client_id: clientId, message: `event ${i}` } });
    });
  }
}

/** Sends the healthy client's test event from the portal and waits for it at its receiver; the delay in ms. */
async function arrival(sc: Scene): Promise<number> {
  const started = performance.now();
  const res = await sc.portal.call('POST', '/test-event');
  expect(res.status).toBe(201);
  const id = res.body.event_id as string;
  await sc.healthy.waitFor((all) => all.some((r) => r.headers['webhook-id'] === id), 60_000);
  return performance.now() - started;
}

const tries = (sc: Scene) => sc.bad.reduce((n, rx) => n + rx.received.length, 0);
const until = async (pred: () => boolean, ms: number) => {
  const end = Date.now() + ms;
  while (!pred()) {
    if (Date.now() > end) throw new Error(`not met in ${ms} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
};

/** The bad clients' delivery logs over the API, once every first try is recorded. */
async function attempts(sc: Scene) {
  const end = Date.now() + 30_000;
  for (;;) {
    const all: Array<{ error: string | null; latency_ms: number }> = [];
    for (const auth of sc.badClients) {
      const res = await sc.s.http({ method: 'GET', path: '/api/v1/client/webhook-deliveries', auth });
      expect(res.status).toBe(200);
      for (const d of res.body.data.deliveries) all.push(...d.attempts);
    }
    if (all.length >= BAD_CLIENTS * EVENTS_EACH || Date.now() > end) return all;
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** The four arrivals: while the first tries fill the slots, once all have started, and as the retries come. */
async function fourArrivals(sc: Scene): Promise<number[]> {
  await flood(sc);
  const delays: number[] = [];
  await until(() => tries(sc) >= 16, 30_000);
  delays.push(await arrival(sc));
  await until(() => tries(sc) >= BAD_CLIENTS * EVENTS_EACH, 60_000);
  delays.push(await arrival(sc));
  // The first tries time out (10 s) and their retries are due at once.
  await until(() => tries(sc) > BAD_CLIENTS * EVENTS_EACH, 60_000);
  delays.push(await arrival(sc));
  delays.push(await arrival(sc));
  return delays;
}

describe('24 clients whose receivers hang, 2 events each', () => {
  let sc: Scene | undefined;
  beforeAll(async () => {
    sc = await scene(() => {});
  }, 60_000);
  afterAll(() => close(sc), 60_000);

  it('a healthy client’s four events each arrive within 5 s; the hanging clients go to the slow lane', async () => {
    const delays = await fourArrivals(sc!);
    expect(delays.filter((ms) => ms >= 5_000)).toEqual([]);
    expect(sc!.healthy.received).toHaveLength(4);

    // Every hanging client's circuit is open (the slow lane), the healthy client's closed.
    const { rows } = (await sc!.s.core.ctx.db.execute(
      sql`select id, webhook_slow_since is not null as open from clients where webhook_url is not null`,
    )) as unknown as { rows: Array<{ id: string; open: boolean }> };
    const bad = new Set(sc!.badClients.map(([id]) => id));
    expect(rows.filter((r) => bad.has(r.id) && r.open)).toHaveLength(BAD_CLIENTS);
    expect(rows.filter((r) => !bad.has(r.id) && r.open)).toEqual([]);

    // The retries go through the slow lane's 4 slots: a second round of tries at 4 at a time.
    const afterFirst = tries(sc!);
    await new Promise((r) => setTimeout(r, 3_000));
    expect(tries(sc!) - afterFirst).toBeLessThanOrEqual(4);
    // Each hanging try was cut at the deadline and logged as such.
    const logged = await attempts(sc!);
    expect(logged.length).toBeGreaterThanOrEqual(BAD_CLIENTS * EVENTS_EACH);
    for (const a of logged) expect(a.error).toBe('timed out after 10000 ms');
  }, 120_000);
});

describe('24 clients whose receivers trickle their answer, 2 events each', () => {
  let sc: Scene | undefined;
  const timers = new Set<NodeJS.Timeout>();
  beforeAll(async () => {
    // Half dribble the status line and headers, half a 200's body: one byte every 200 ms, for ever.
    sc = await scene((i, res) => {
      const socket = res.socket!;
      let bytes: string;
      if (i % 2 === 0) {
        bytes = 'HTTP/1.1 200 OK\r\n' + 'x-slow: 1\r\n'.repeat(1000);
      } else {
        res.writeHead(200, { 'content-type': 'text/plain', 'content-length': '100000' });
        res.flushHeaders();
        bytes = 'x'.repeat(100_000);
      }
      let at = 0;
      const t = setInterval(() => {
        if (socket.destroyed || at >= bytes.length) {
          clearInterval(t);
          timers.delete(t);
          return;
        }
        if (i % 2 === 0) socket.write(bytes[at++]!);
        else res.write(bytes[at++]!);
      }, 200);
      timers.add(t);
    });
  }, 60_000);
  afterAll(async () => {
    for (const t of timers) clearInterval(t);
    await close(sc);
  }, 60_000);

  it('a healthy client’s four events each arrive within 5 s; each trickled answer is cut at the 10 s deadline', async () => {
    const delays = await fourArrivals(sc!);
    expect(delays.filter((ms) => ms >= 5_000)).toEqual([]);
    expect(sc!.healthy.received).toHaveLength(4);

    // The deadline covers the whole answer: bytes kept coming, the try ended at 10 s all the same.
    const logged = await attempts(sc!);
    expect(logged.length).toBeGreaterThanOrEqual(BAD_CLIENTS * EVENTS_EACH);
    for (const a of logged) {
      expect(a.error).toBe('timed out after 10000 ms');
      expect(a.latency_ms).toBeLessThan(10_500);
    }
  }, 120_000);
});
