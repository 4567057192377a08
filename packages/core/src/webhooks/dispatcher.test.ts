import { eq, sql } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { verifyWebhook } from '@remit/sdk';
import { createCredentials } from '../clients/credentials.js';
import { updateWebhookUrl } from '../clients/webhooks.js';
import { clients, events, webhookDeliveries } from '../db/schema.js';
import { EVENT_TYPES, type EventData, type EventType } from '@remit/contract';
import { WebhookDispatcher, type WebhookDispatcherOptions } from './dispatcher.js';
import type { DeliveryAttempt } from './deliveries.js';
import { recordEvent } from './outbox.js';
import { newKey } from '../secret-keys.js';
import { eventually, openTestCore, startReceiver, type Receiver, type TestCore } from './test-support.js';
import { inTransaction } from '../operation.js';

const voidRecord = {
  merchant_id: 'm_1',
  transaction_id: 'txn_void',
  linked_txn_id: 'txn_orig',
  sales_id: 'txn_void',
  order_createdfrom: 'api',
  amount: 12.3,
  txn_id: 'txn_void',
  txn_date: '2026-01-02T03:04:05.678Z',
};
const dispute = (status: string) => ({
  merchant_id: 'm_1',
  transaction_id: 'txn_a',
  dispute_id: 'dp_1',
  amount: 12.3,
  reason: 'fraudulent',
  status,
  evidence_due_by: '2026-01-12T00:00:00.000Z',
});
const SAMPLES: { [K in EventType]: EventData[K] } = {
  'webhook.test': { client_id: 'cl_1', message: 'A test event from the Remit sandbox portal.' },
  'payment.success': {
    transaction_id: 'txn_a',
    merchant_id: 'm_1',
    amount: 12.3,
    net_amount: 11.64,
    fee_amount: 0.66,
    order_id: 'o1',
    last_four: '4242',
    brand: 'Visa',
    link_id: 'ord_1',
  },
  'payment.failed': {
    transaction_id: 'txn_b',
    merchant_id: 'm_1',
    order_id: 'o2',
    amount: 12.3,
    code: 'insufficient_funds',
    message: 'Your card has insufficient funds.',
    method: 'card',
  },
  'merchant.onboarding': {
    merchant_key: 'mk_test_x',
    merchant_id: 'm_1',
    business_name: 'Acme',
    email: 'a@b.co',
    public_key: 'pk_test_x',
  },
  'merchant.approval': { merchant_id: 'm_1', business_name: 'Acme', email: 'a@b.co', company_id: 'c1' },
  'merchant.verification': {
    merchant_id: 'm_1',
    verification: {
      status: 'action_required',
      currently_due: [{ requirement: 'individual.verification.document', label: 'Identity document of the owner' }],
      eventually_due: [],
      past_due: [],
      pending_verification: [],
      errors: [
        {
          requirement: 'individual.verification.document',
          label: 'Identity document of the owner',
          code: 'verification_document_expired',
          reason: 'The document has expired.',
        },
      ],
      deadline: '2026-01-12T00:00:00.000Z',
      disabled_reason: null,
      charges_enabled: true,
      payouts_enabled: true,
      upcoming: { eventually_due: [], deadline: null },
    },
  },
  'documents.signed': {
    merchant_id: 'm_1',
    business_name: 'Acme',
    website: 'https://acme.example',
    email: 'a@b.co',
    company_id: 'c1',
  },
  'ach.update': {
    merchant_id: 'm_1',
    status: 'Declined',
    tran_id: 'txn_ach',
    message: 'Insufficient Funds',
    return_transaction_id: 'txn_ret',
  },
  'payment.void': { ...voidRecord, type: 'Void', Status: 'Success' },
  'payment.refund': { ...voidRecord, type: 'Refund', Status: 'Success', parent_transaction_id: 'txn_orig' },
  preauth: { merchant_id: 'm_1', guid: 'txn_pa', amount: 20, order_id: 'o2', customer_id: 0 },
  'preauth.increment': {
    merchant_id: 'm_1',
    transaction_id: 'txn_pa',
    order_id: 'o2',
    last_authorized_amount: 20,
    authorized_amount: 25,
  },
  'preauth.decrement': {
    merchant_id: 'm_1',
    transaction_id: 'txn_pa',
    order_id: 'o2',
    last_authorized_amount: 25,
    authorized_amount: 15,
  },
  'preauth.charge': {
    merchant_id: 'm_1',
    transaction_id: 'txn_pa',
    order_id: 'o2',
    amount: 15,
    net_amount: 14.27,
    fee_amount: 0.73,
  },
  'preauth.void': { ...voidRecord, type: 'Void', Status: 'Success' },
  'dispute.created': dispute('needs_response'),
  'dispute.updated': dispute('under_review'),
  'dispute.closed': dispute('won'),
  'merchant.csp_violation': {
    merchant_id: 'm_1',
    report_id: 'csp_1',
    blocked_uri: 'https://evil.example/x.js',
    directive: 'script-src-elem',
    document_uri: 'https://shop.example/pay',
    remit_resource: false,
  },
  'payment.refund.failed': {
    ...voidRecord,
    type: 'Refund',
    Status: 'Error',
    parent_transaction_id: 'txn_orig',
    reason: 'Stripe: invalid_request_error: Refund amount ($12.30) is greater than unrefunded amount on charge ($0.00)',
  },
  'payment.void.failed': { ...voidRecord, type: 'Void', Status: 'Error', reason: 'Stripe: invalid_request_error: …' },
  'preauth.charge.failed': {
    merchant_id: 'm_1',
    transaction_id: 'txn_pa',
    order_id: 'o2',
    amount: 15,
    Status: 'Error',
    reason: 'Stripe: invalid_request_error: …',
  },
};

let core: TestCore;
let rx: Receiver;
let dispatcher: WebhookDispatcher | null = null;

beforeAll(async () => {
  core = await openTestCore();
  rx = await startReceiver();
});
afterAll(async () => {
  await rx.close();
  await core.close();
});
afterEach(async () => {
  await dispatcher?.stop();
  dispatcher = null;
  rx.behave((_r, res) => res.writeHead(200).end('ok'));
});

const start = (o: WebhookDispatcherOptions = {}) => {
  dispatcher = new WebhookDispatcher(core.ctx, { pollMs: 10, retryScale: 0.001, random: () => 0.5, ...o }).start();
  return dispatcher;
};

async function newClient(url = rx.url) {
  const { client_id } = await createCredentials(core.ctx);
  const { signing_secret } = await updateWebhookUrl(core.ctx, client_id, { webhook_url: url });
  return { clientId: client_id, secret: signing_secret };
}

async function emit<T extends EventType>(clientId: string, type: T, data: EventData[T]) {
  return inTransaction(core.ctx, (_tx, c) => recordEvent(c, { clientId, type, data }, core.ctx.vault));
}

const delivery = async (eventId: string) =>
  (await core.ctx.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.eventId, eventId)))[0];
const forEvent = (eventId: string) => rx.received.filter((r) => r.headers['webhook-id'] === eventId);
const attemptsOf = async (eventId: string) => ((await delivery(eventId))?.attempts ?? []) as DeliveryAttempt[];

describe('webhook dispatcher', () => {
  it('POSTs every event type as {event_type, data} signed per Standard Webhooks', async () => {
    const { clientId, secret } = await newClient();
    const ids: Record<string, string> = {};
    for (const type of EVENT_TYPES) ids[type] = await emit(clientId, type, SAMPLES[type] as never);
    start();
    await rx.waitFor(() => EVENT_TYPES.every((t) => forEvent(ids[t]!).length === 1));
    const wh = new Webhook(secret);
    for (const type of EVENT_TYPES) {
      const r = forEvent(ids[type]!)[0]!;
      expect(r.path).toBe('/hooks');
      expect(r.headers['content-type']).toBe('application/json');
      expect(r.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
      expect(Math.abs(Number(r.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(30);
      const body = JSON.parse(r.body);
      expect(Object.keys(body)).toEqual(['event_type', 'data', 'id', 'created_at']);
      expect(body).toEqual({
        event_type: type,
        data: SAMPLES[type],
        id: ids[type],
        created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      });
      // Both verifiers accept the exact bytes received.
      expect(wh.verify(r.body, r.headers as Record<string, string>)).toEqual(body);
      expect(verifyWebhook(secret, r.headers, r.body)).toEqual(body);
      expect(() => verifyWebhook(secret, r.headers, r.body.replace('"data"', '"data" '))).toThrow(/signature/);
    }
    const d = await eventually(async () => {
      const row = await delivery(ids['payment.success']!);
      return row?.status === 'delivered' ? row : null;
    });
    expect(d.id).toBe(`dlv_${ids['payment.success']!.slice(4)}`);
    expect(d.url).toBe(rx.url);
    expect(d.attempts).toEqual([
      {
        at: expect.any(String),
        status_code: 200,
        latency_ms: expect.any(Number),
        error: null,
        response_body: expect.any(String),
      },
    ]);
    expect(d.deliveredAt).toBeInstanceOf(Date);
  });

  it('marks events of a client without a URL dispatched and makes no delivery', async () => {
    const { client_id } = await createCredentials(core.ctx);
    const id = await emit(client_id, 'merchant.approval', SAMPLES['merchant.approval']);
    const d = new WebhookDispatcher(core.ctx);
    await d.runOnce();
    await d.stop();
    const [ev] = await core.ctx.db.select().from(events).where(eq(events.id, id));
    expect(ev!.dispatchedAt).toBeInstanceOf(Date);
    expect(await delivery(id)).toBeUndefined();
  });

  it('receiver answers 500 then 200: delivered once, after one retry', async () => {
    const { clientId } = await newClient();
    let n = 0;
    rx.behave((_r, res) => res.writeHead(n++ === 0 ? 500 : 200).end());
    const id = await emit(clientId, 'payment.success', SAMPLES['payment.success']);
    start();
    await eventually(async () => (await delivery(id))?.status === 'delivered');
    const attempts = await attemptsOf(id);
    expect(attempts.map((a) => [a.status_code, a.error])).toEqual([
      [500, 'HTTP 500'],
      [200, null],
    ]);
    expect(forEvent(id)).toHaveLength(2);
    // The retry came after the (scaled) 5 s delay, not at once.
    expect(Date.parse(attempts[1]!.at) - Date.parse(attempts[0]!.at)).toBeGreaterThanOrEqual(4);
  });

  it('receiver hangs: the try times out and is retried', async () => {
    const { clientId } = await newClient();
    let n = 0;
    rx.behave((_r, res) => {
      if (n++ === 0) return; // never answers
      res.writeHead(204).end();
    });
    const id = await emit(clientId, 'preauth', SAMPLES.preauth);
    start({ timeoutMs: 200 });
    await eventually(async () => (await delivery(id))?.status === 'delivered');
    const attempts = await attemptsOf(id);
    expect(attempts).toHaveLength(2);
    expect(attempts[0]).toMatchObject({ status_code: null, error: 'timed out after 200 ms' });
    expect(attempts[0]!.latency_ms).toBeGreaterThanOrEqual(195);
    expect(attempts[1]).toMatchObject({ status_code: 204, error: null });
  });

  it('receiver destroys the socket: failure, retried', async () => {
    const { clientId } = await newClient();
    let n = 0;
    rx.behave((_r, res, req) => {
      if (n++ === 0) return req.socket.destroy();
      res.writeHead(200).end();
    });
    const id = await emit(clientId, 'payment.void', SAMPLES['payment.void']);
    start();
    await eventually(async () => (await delivery(id))?.status === 'delivered');
    const attempts = await attemptsOf(id);
    expect(attempts[0]!.status_code).toBeNull();
    expect(attempts[0]!.error).toMatch(/socket hang up|ECONNRESET/);
    expect(attempts[1]!.status_code).toBe(200);
  });

  it('a 3xx is a failure and the redirect is not followed', async () => {
    const { clientId } = await newClient();
    let n = 0;
    rx.behave((_r, res) =>
      n++ === 0 ? res.writeHead(302, { location: `${rx.url}/elsewhere` }).end() : res.writeHead(200).end(),
    );
    const id = await emit(clientId, 'payment.refund', SAMPLES['payment.refund']);
    start();
    await eventually(async () => (await delivery(id))?.status === 'delivered');
    expect((await attemptsOf(id)).map((a) => a.status_code)).toEqual([302, 200]);
    expect(forEvent(id).map((r) => r.path)).toEqual(['/hooks', '/hooks']);
  });

  it('410 disables the URL until it is registered again; held deliveries then go out', async () => {
    const { clientId } = await newClient();
    rx.behave((_r, res) => res.writeHead(410).end());
    const first = await emit(clientId, 'ach.update', SAMPLES['ach.update']);
    start();
    await eventually(async () => (await delivery(first))?.status === 'disabled');
    const [c] = await core.ctx.db.select().from(clients).where(eq(clients.id, clientId));
    expect(c!.webhookDisabledAt).toBeInstanceOf(Date);
    expect((await attemptsOf(first)).map((a) => a.status_code)).toEqual([410]);

    rx.behave((_r, res) => res.writeHead(200).end());
    const second = await emit(clientId, 'ach.update', SAMPLES['ach.update']);
    await eventually(async () => (await delivery(second))?.status === 'disabled');
    expect(forEvent(second)).toHaveLength(0);

    await updateWebhookUrl(core.ctx, clientId, { webhook_url: `${rx.url}/v2` });
    await eventually(
      async () => (await delivery(first))?.status === 'delivered' && (await delivery(second))?.status === 'delivered',
    );
    expect(forEvent(second).map((r) => r.path)).toEqual(['/hooks/v2']);
    expect((await delivery(second))!.url).toBe(`${rx.url}/v2`);
    const [c2] = await core.ctx.db.select().from(clients).where(eq(clients.id, clientId));
    expect(c2!.webhookDisabledAt).toBeNull();
  });

  it('gives up after the 8th try (1 + 7 retries) and marks the delivery failed', async () => {
    const { clientId } = await newClient();
    rx.behave((_r, res) => res.writeHead(503).end());
    const id = await emit(clientId, 'documents.signed', SAMPLES['documents.signed']);
    start({ retryScale: 0.000005 });
    await eventually(async () => (await delivery(id))?.status === 'failed', 15_000);
    expect(await attemptsOf(id)).toHaveLength(8);
    expect(forEvent(id)).toHaveLength(8);
  });

  it('a delivery claimed by a process that died is sent once its lease runs out', async () => {
    const { clientId } = await newClient();
    const id = await emit(clientId, 'merchant.onboarding', SAMPLES['merchant.onboarding']);
    const d0 = new WebhookDispatcher(core.ctx);
    await d0.createDeliveries();
    await d0.stop();
    // As if another process claimed it and was killed mid-send.
    await core.ctx.db.execute(
      sql`update webhook_deliveries set lease_id = 'dead', locked_until = now() + interval '400 milliseconds' where event_id = ${id}`,
    );
    start();
    await new Promise((r) => setTimeout(r, 200));
    expect(forEvent(id)).toHaveLength(0);
    await eventually(async () => (await delivery(id))?.status === 'delivered');
    expect(forEvent(id)).toHaveLength(1);
  });

  it('a new URL applies to deliveries not yet sent', async () => {
    const { clientId } = await newClient();
    rx.behave((_r, res) => res.writeHead(500).end());
    const id = await emit(clientId, 'preauth.charge', SAMPLES['preauth.charge']);
    start({ retryScale: 1000 }); // the retry is hours away: nothing is sent before the URL changes
    await eventually(async () => (await delivery(id))?.status === 'retrying');
    rx.behave((_r, res) => res.writeHead(200).end());
    await updateWebhookUrl(core.ctx, clientId, { webhook_url: `${rx.url}/new` });
    // Then the retry's time comes (the clock moved on, in effect).
    await core.ctx.db
      .update(webhookDeliveries)
      .set({ nextAttemptAt: sql`now()` })
      .where(eq(webhookDeliveries.eventId, id));
    await eventually(async () => (await delivery(id))?.status === 'delivered');
    expect(forEvent(id).map((r) => r.path)).toEqual(['/hooks', '/hooks/new']);
  });

  it('production refuses http, loopback addresses and names that resolve to them', async () => {
    const cases = ['http://127.0.0.1:9/x', 'https://127.0.0.1:9/x', 'https://[::1]:9/x', 'https://localhost:9/x'];
    const ids: string[] = [];
    for (const url of cases) {
      const { client_id } = await createCredentials(core.ctx);
      // Stored directly: registration in production would refuse these already.
      await core.ctx.db
        .update(clients)
        .set({ webhookUrl: url, webhookSecretEnc: core.ctx.vault.encrypt('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw') })
        .where(eq(clients.id, client_id));
      ids.push(await emit(client_id, 'preauth', SAMPLES.preauth));
    }
    start({ allowPrivateAddresses: false, retryScale: 1000 });
    const errors = await eventually(async () => {
      const all = await Promise.all(ids.map(attemptsOf));
      return all.every((a) => a.length === 1) ? all.map((a) => a[0]!.error) : null;
    });
    expect(errors[0]).toBe('refused: production webhooks use https only');
    expect(errors[1]).toBe(
      'refused to connect to 127.0.0.1: it is or resolves to a loopback, private, link-local, metadata or other special-use address',
    );
    expect(errors[2]).toMatch(/^refused to connect to ::1: it is or resolves to a loopback/);
    // The name, never the address it resolved to.
    expect(errors[3]).toBe(
      'EBLOCKEDADDRESS: refused to connect to localhost: it is or resolves to a loopback, private, link-local, metadata or other special-use address',
    );
  });

  it("decrypts a client's secret once per claim, and each claim signs with the secret registered then", async () => {
    const { clientId, secret } = await newClient();
    const sealedSecret = async () =>
      (await core.ctx.db.select().from(clients).where(eq(clients.id, clientId)))[0]!.webhookSecretEnc!;
    const opened: string[] = [];
    const vault = Object.create(core.ctx.vault, {
      decrypt: { value: (sealed: string) => (opened.push(sealed), core.ctx.vault.decrypt(sealed)) },
    }) as typeof core.ctx.vault;
    const d = new WebhookDispatcher(
      { db: core.ctx.db, env: core.ctx.env, vault },
      { concurrency: 32, perClient: 32, wakeOnCommit: false },
    );
    try {
      const first = await Promise.all(Array.from({ length: 10 }, () => emit(clientId, 'preauth', SAMPLES.preauth)));
      const firstSealed = await sealedSecret();
      expect(await d.runOnce()).toBe(10);
      expect(opened.filter((s) => s === firstSealed)).toHaveLength(1);
      for (const id of first)
        expect(verifyWebhook(secret, forEvent(id)[0]!.headers, forEvent(id)[0]!.body)).toBeTruthy();

      // A secret replaced between claims (stored directly: registration keeps the one it has).
      const rotated = newKey.webhookSecret();
      await core.ctx.db
        .update(clients)
        .set({ webhookSecretEnc: core.ctx.vault.encrypt(rotated) })
        .where(eq(clients.id, clientId));
      const second = await Promise.all(Array.from({ length: 3 }, () => emit(clientId, 'preauth', SAMPLES.preauth)));
      expect(await d.runOnce()).toBe(3);
      expect(opened.filter((s) => s === firstSealed)).toHaveLength(1);
      const secondSealed = await sealedSecret();
      expect(opened.filter((s) => s === secondSealed)).toHaveLength(1);
      for (const id of second) {
        const r = forEvent(id)[0]!;
        expect(verifyWebhook(rotated, r.headers, r.body)).toBeTruthy();
        expect(() => verifyWebhook(secret, r.headers, r.body)).toThrow(/signature/);
      }
    } finally {
      await d.stop();
    }
  });

  it('a delivery claimed ahead that waited past its lease’s slack is sent under a renewed lease when the slot frees, before its client’s retries', async () => {
    const { clientId } = await newClient();
    const first = await emit(clientId, 'preauth', SAMPLES.preauth);
    // Claims go by created_at, then by the (random) id: two events of the same millisecond could be
    // claimed second first, and the one meant to wait would be sent at once (a CI run saw it).
    await new Promise((r) => setTimeout(r, 5));
    const second = await emit(clientId, 'preauth', SAMPLES.preauth);
    rx.behave((r, res) => r.headers['webhook-id'] !== first && res.writeHead(200).end()); // the first hangs
    const t0 = Date.now();
    // One slot, and a client may hold two (so the second is claimed ahead); the lease is the least
    // allowed: the try's 800 ms and one second. The first's retries are due within milliseconds.
    start({ concurrency: 1, perClient: 2, timeoutMs: 800, leaseMs: 0, retryScale: 0.001 });
    await eventually(async () => (await delivery(second))?.status === 'delivered');
    // The second waited out the first's 800 ms try, too long for what was left of its lease (1.8 s):
    // renewed, it took the freed slot at once. Dropped to be claimed again, it was still leased when
    // the first's retry came due and took the slot, try after try.
    expect(forEvent(second)).toHaveLength(1);
    expect(Date.now() - t0).toBeLessThan(1_800);
    expect(await attemptsOf(second)).toHaveLength(1);
    expect((await attemptsOf(first))[0]!.error).toBe('timed out after 800 ms');
  });
});

describe('shares of the slots between clients', () => {
  const many = (clientId: string, n: number) =>
    Promise.all(Array.from({ length: n }, () => emit(clientId, 'preauth', SAMPLES.preauth)));
  const sent = (ids: string[]) => ids.filter((id) => forEvent(id).length > 0).length;

  it('one client’s due retries fill at most 4 of 16 slots; another client’s new event goes in the same pass', async () => {
    const a = await newClient();
    const b = await newClient();
    const d = new WebhookDispatcher(core.ctx, { wakeOnCommit: false });
    try {
      const retries = await many(a.clientId, 20);
      await d.createDeliveries();
      // As if each had failed once and were due again, long before the other client's event.
      await core.ctx.db.execute(sql`
        update webhook_deliveries set status = 'retrying', tries = 1, next_attempt_at = now() - interval '1 minute'
        where client_id = ${a.clientId}`);
      const other = await emit(b.clientId, 'preauth', SAMPLES.preauth);
      await d.runOnce();
      expect(forEvent(other)).toHaveLength(1);
      expect(sent(retries)).toBe(4);
    } finally {
      await d.stop();
      await core.ctx.db.execute(
        sql`update webhook_deliveries set status = 'failed' where client_id = ${a.clientId} and status = 'retrying'`,
      );
    }
  });

  it('clients take turns however long one’s due backlog: each client’s oldest due, up to its share', async () => {
    const a = await newClient();
    const b = await newClient();
    const d = new WebhookDispatcher(core.ctx, { wakeOnCommit: false });
    try {
      const backlog = await many(a.clientId, 300);
      const other = await emit(b.clientId, 'preauth', SAMPLES.preauth);
      await d.createDeliveries();
      // All due, a's long before b's, in the order of the list; a's oldest two leased by another
      // process, still sending them.
      await core.ctx.db.execute(sql`
        update webhook_deliveries d set next_attempt_at = now() - interval '1 hour' + make_interval(secs => o.n)
        from unnest(${`{${backlog.join(',')}}`}::text[]) with ordinality o(event_id, n)
        where d.event_id = o.event_id`);
      const elsewhere = backlog.slice(0, 2).map((id) => `dlv_${id.slice(4)}`);
      await core.ctx.db.execute(sql`
        update webhook_deliveries set locked_until = now() + interval '1 hour', lease_id = 'elsewhere'
        where id in (${sql.join(elsewhere, sql`, `)})`);
      await d.runOnce();
      expect(forEvent(other)).toHaveLength(1);
      // The next four of a's, oldest first.
      expect(backlog.filter((id) => forEvent(id).length > 0)).toEqual(backlog.slice(2, 6));
    } finally {
      await d.stop();
      await core.ctx.db.execute(
        sql`update webhook_deliveries set status = 'failed' where client_id = ${a.clientId} and status = 'pending'`,
      );
    }
  });

  it('a running dispatcher holds a client’s next batch beside the one it sends, but sends no more than its share at once', async () => {
    const slow = await newClient(`${rx.url}/slow`);
    const fast = await newClient();
    let open = 0;
    let most = 0;
    rx.behave((r, res) => {
      if (!r.path.endsWith('/slow')) return void res.writeHead(200).end();
      most = Math.max(most, ++open);
      res.on('close', () => open--);
    });
    await many(slow.clientId, 20);
    const d = new WebhookDispatcher(core.ctx, { pollMs: 10, timeoutMs: 1_000 }).start();
    try {
      await eventually(async () => open === 4);
      // Claimed ahead: four waiting behind the four it sends.
      const leased = async () =>
        (
          await core.ctx.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.clientId, slow.clientId))
        ).filter((r) => r.lockedUntil && r.lockedUntil > new Date()).length;
      expect(await leased()).toBe(8);
      const t0 = performance.now();
      const other = await emit(fast.clientId, 'preauth', SAMPLES.preauth);
      await rx.waitFor(() => forEvent(other).length === 1);
      expect(performance.now() - t0).toBeLessThan(500);
      expect(most).toBe(4);
    } finally {
      await d.stop();
      await core.ctx.db.execute(
        sql`update webhook_deliveries set status = 'failed' where client_id = ${slow.clientId} and status in ('pending', 'retrying')`,
      );
    }
  });

  it('a running dispatcher drains one client’s backlog claim after claim, without waiting for its poll', async () => {
    const { clientId } = await newClient();
    const ids = await many(clientId, 120);
    // Answers that come while the next claim runs leave the client holding less than it could:
    // the claim took all its room all the same, and asks for the next once half is free.
    const d = new WebhookDispatcher(core.ctx, { pollMs: 60_000, wakeOnCommit: false }).start();
    try {
      await rx.waitFor(() => sent(ids) === ids.length, 5_000);
    } finally {
      await d.stop();
    }
  });

  it('a client’s share grows with fast 2xx answers up to all slots but 4; failures open its circuit (one probe at a time) until a fast 2xx, then 4', async () => {
    const { clientId } = await newClient();
    const d = new WebhookDispatcher(core.ctx, { wakeOnCommit: false, retryScale: 1000 });
    try {
      const ids = await many(clientId, 60);
      const passes: number[] = [];
      const pass = async () => {
        const before = sent(ids);
        await d.runOnce();
        passes.push(sent(ids) - before);
      };
      for (let i = 0; i < 4; i++) await pass();
      rx.behave((_r, res) => res.writeHead(503).end());
      await pass();
      rx.behave((_r, res) => res.writeHead(200).end());
      await pass();
      await pass();
      expect(passes).toEqual([4, 8, 12, 12, 12, 1, 4]);
    } finally {
      await d.stop();
    }
  });
});

describe('the circuit and the slow lane', () => {
  const many = (clientId: string, n: number) =>
    Promise.all(Array.from({ length: n }, () => emit(clientId, 'preauth', SAMPLES.preauth)));
  const sent = (ids: string[]) => ids.filter((id) => forEvent(id).length > 0).length;
  const circuit = async (clientId: string) =>
    (
      await core.ctx.db
        .select({ failures: clients.webhookFailures, slowSince: clients.webhookSlowSince })
        .from(clients)
        .where(eq(clients.id, clientId))
    )[0]!;

  it('a try unanswered after the slow threshold opens the circuit in the database; another dispatcher then sends the client one try at a time, and a fast 2xx closes it', async () => {
    const { clientId } = await newClient(`${rx.url}/slow`);
    rx.behave((r, res) => {
      if (!r.path.endsWith('/slow')) return void res.writeHead(200).end();
      setTimeout(() => res.writeHead(200).end(), 600);
    });
    const first = await emit(clientId, 'preauth', SAMPLES.preauth);
    const a = new WebhookDispatcher(core.ctx, { wakeOnCommit: false, slowAfterMs: 200 });
    const b = new WebhookDispatcher(core.ctx, { wakeOnCommit: false, slowAfterMs: 200 });
    try {
      await a.runOnce();
      // Answered 2xx in 600 ms: delivered, but past the slow threshold, so the circuit is open.
      expect((await delivery(first))?.status).toBe('delivered');
      expect((await circuit(clientId)).slowSince).not.toBeNull();

      // The other dispatcher knows it from the database alone: one try of the client per pass.
      const ids = await many(clientId, 6);
      await b.runOnce();
      expect(sent(ids)).toBe(1);
      // A 2xx within the threshold closes it, for both.
      rx.behave((_r, res) => res.writeHead(200).end());
      await b.runOnce();
      expect(await circuit(clientId)).toEqual({ failures: 0, slowSince: null });
      // The first dispatcher learns it from its next claim (which still takes one), then sends the rest.
      await a.runOnce();
      expect(sent(ids)).toBe(3);
      await a.runOnce();
      expect(sent(ids)).toBe(6);
    } finally {
      await a.stop();
      await b.stop();
    }
  });

  it('three failed tries in a row open the circuit; a new URL closes it', async () => {
    const { clientId } = await newClient(`${rx.url}/down`);
    rx.behave((_r, res) => res.writeHead(503).end());
    const ids = await many(clientId, 3);
    const d = new WebhookDispatcher(core.ctx, { wakeOnCommit: false, retryScale: 1000 });
    try {
      await d.runOnce();
      expect(sent(ids)).toBe(3);
      const open = await circuit(clientId);
      expect(open.failures).toBe(3);
      expect(open.slowSince).not.toBeNull();
      await updateWebhookUrl(core.ctx, clientId, { webhook_url: `${rx.url}/up` });
      expect(await circuit(clientId)).toEqual({ failures: 0, slowSince: null });
    } finally {
      await d.stop();
      await core.ctx.db.execute(
        sql`update webhook_deliveries set status = 'failed' where client_id = ${clientId} and status = 'retrying'`,
      );
    }
  });
});
