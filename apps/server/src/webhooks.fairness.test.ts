import { afterAll, beforeAll, expect, it } from 'vitest';
import { recordEvent, inTransaction } from '@remit/core';
import { startReceiver, type Receiver } from '@remit/core/testing';
import { startTestServer, type TestServer } from './testing/harness.js';

/**
 * One client's receiver hangs (accepts the request, never answers) with a backlog queued; an
 * unrelated client's events still arrive at once. The server runs its dispatcher with the default
 * slots (16) and attempt timeout (10 s); retries are due again almost at once.
 */
let s: TestServer;
let hanging: Receiver;
let healthy: Receiver;
let open = 0;
let mostOpen = 0;

beforeAll(async () => {
  s = await startTestServer({ workers: { webhooks: { retryScale: 0.001 } } });
  hanging = await startReceiver();
  healthy = await startReceiver();
  hanging.behave((_r, res) => {
    mostOpen = Math.max(mostOpen, ++open);
    res.on('close', () => open--);
  });
});
afterAll(async () => {
  // Cut the hanging requests first, so stopping the dispatcher does not wait out their timeouts.
  await hanging.close();
  await healthy.close();
  await s.close();
});

async function client(url: string) {
  const auth = await s.credentials();
  const res = await s.http({
    method: 'POST',
    path: '/api/v1/client/update-webhooks-url',
    auth,
    json: { webhook_url: url },
  });
  expect(res.status).toBe(200);
  return auth[0];
}

/** Commits `n` events of the client in one transaction (as an operation does); returns their ids. */
function emit(clientId: string, n: number): Promise<string[]> {
  return inTransaction(s.core.ctx, async (_tx, c) => {
    const ids: string[] = [];
    for (let i = 0; i < n; i++)
      ids.push(
        await recordEvent(c, { clientId, type: 'webhook.test', data: { client_id: clientId, message: `event ${i}` } }),
      );
    return ids;
  });
}

/** Commits one event of the client and waits for it at the receiver; returns the delay in ms. */
async function arrival(clientId: string, rx: Receiver): Promise<number> {
  const started = performance.now();
  const [id] = await emit(clientId, 1);
  await rx.waitFor((all) => all.some((r) => r.headers['webhook-id'] === id), 60_000);
  return performance.now() - started;
}

it('a hanging receiver with 64 events queued has at most 4 tries out, then one at a time; another client’s events arrive within 5 s', async () => {
  const slow = await client(hanging.url);
  const other = await client(healthy.url);

  await emit(slow, 64);
  await hanging.waitFor((all) => all.length >= 4);
  expect(await arrival(other, healthy)).toBeLessThan(5_000);

  // Unanswered after a second, its tries opened its circuit: once they time out (10 s), its
  // backlog goes through the slow lane, one try at a time.
  await hanging.waitFor((all) => all.length >= 5, 30_000);
  expect(await arrival(other, healthy)).toBeLessThan(5_000);
  await new Promise((r) => setTimeout(r, 2_000));
  expect(hanging.received).toHaveLength(5);

  expect(mostOpen).toBe(4);
  expect(healthy.received).toHaveLength(2);
}, 120_000);
