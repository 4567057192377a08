import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { sql, type SQL } from 'drizzle-orm';
import type { Ctx } from '../context.js';
import type { Db } from '../db/connect.js';
import { ClaimLoop, claimDueQuery, newLease, renewLease, type DispatcherLogger } from '../poll-loop.js';
import { preparedSql } from '../db/prepared-sql.js';
import { DeliveryResults } from './delivery-results.js';
import { BlockedAddressError, guardedLookup, isBlockedAddress, portRefused, webhookPort } from './address-guard.js';
import { isIP } from 'node:net';
import { retryDelayMs, type DeliveryAttempt } from './deliveries.js';
import { openPayload } from './outbox.js';
import { responseExcerpt } from './response-excerpt.js';
import { webhookSigner, type WebhookSigner } from './signing.js';
import { ClientShares } from './client-shares.js';
import { Circuits } from './circuits.js';
import { urlToHttpOptions } from 'node:url';
import type { OutboxSignal } from '../outbox-signal.js';

export type { DispatcherLogger } from '../poll-loop.js';

export interface WebhookDispatcherOptions {
  /** Multiplies the retry schedule (REMIT_WEBHOOK_RETRY_SCALE). Default 1. */
  retryScale?: number;
  /** A try that has no complete answer in this time has failed. Default 10 000 ms. */
  timeoutMs?: number;
  /** How often an idle dispatcher looks for new events and due deliveries. Default 50 ms. */
  pollMs?: number;
  /** Look at once when an operation of this process commits an event. Default true (off: poll only, for comparison). */
  wakeOnCommit?: boolean;
  /** Under a stream of commits, passes start at least this far apart (PollLoopOptions.wakeGapMs). Default 10 ms. */
  wakeGapMs?: number;
  /** Deliveries in flight at once in this process. Default 16. */
  concurrency?: number;
  /**
   * How many deliveries of one client this process sends at once until its receiver answers fast
   * (a running dispatcher holds as many again, claimed ahead and waiting behind them): one client's
   * hanging receiver, backlog or retries leave the other slots to other clients. Default a quarter of `concurrency` (4 of 16). Fast 2xx
   * answers raise a client's share, up to all slots but `perClient` (see ClientShares).
   */
  perClient?: number;
  /**
   * A try still unanswered after this long is slow: it leaves its slot (for `overtime`, see there)
   * and opens its client's circuit; only a 2xx within it closes the circuit again. Default 1 000 ms.
   */
  slowAfterMs?: number;
  /**
   * Slots for the clients whose circuit is open, all together (the slow lane): each sends one try
   * at a time through them. Default a quarter of `concurrency` (4 of 16).
   */
  slowSlots?: number;
  /** Failed tries in a row that open a client's circuit. Default 3. */
  failuresToOpen?: number;
  /**
   * Slow tries that wait out their deadline outside the slots at once (sockets, not slots: each
   * client's share still counts them); past it, a slow try keeps its slot. Default 4 × `concurrency`.
   */
  overtime?: number;
  /** How long a claim holds a delivery; a killed process's deliveries are due again after it. */
  leaseMs?: number;
  /** Connect to loopback/private addresses. Default: in sandbox yes, in production no. */
  allowPrivateAddresses?: boolean;
  /**
   * Origins (`http://127.0.0.1:4010`) reached even where private addresses are refused: the test
   * kit's own receiver on loopback, registered by the kit itself (a client's registration refuses them).
   */
  privateOrigins?: readonly string[];
  /** Refuse http targets. Default: where private addresses are refused (startWorkers: in production). */
  httpsOnly?: boolean;
  /** The only ports a target may use (Ctx.webhookPorts in production); null: any. Default null. */
  ports?: readonly number[] | null;
  random?: () => number;
  logger?: DispatcherLogger;
  /** Told each try's outcome (the server's metrics count them). */
  onOutcome?: (outcome: DeliveryOutcome) => void;
}

/** What became of one try: answered 2xx, will be retried, given up, URL gone (410), or no URL to send to. */
export type DeliveryOutcome = 'delivered' | 'retrying' | 'failed' | 'gone' | 'disabled';

/** The dispatchers' default gap between woken passes: at most 100 passes a second under load. */
export const DEFAULT_WAKE_GAP_MS = 10;

interface Claimed {
  id: string;
  event_id: string;
  event_type: string;
  tries: number;
  lease_id: string;
  client_id: string;
  webhook_url: string | null;
  webhook_secret_enc: string | null;
  /** The secret a rotation replaced, while its overlap lasts (the claim reads it as null after). */
  webhook_previous_secret_enc: string | null;
  webhook_disabled_at: Date | null;
  webhook_failures: number;
  webhook_slow_since: Date | null;
  payload: unknown;
  event_created_at: Date;
  /** Shared by the deliveries of this claim (not a column). */
  batch: Batch;
  /** When the claim's answer came (performance.now()); the lease runs from about then. */
  claimedAt: number;
}

/** Where and how a batch's deliveries to one client go: its URL parsed and its secret's signer. */
interface Target {
  sign: WebhookSigner;
  /** Null: not a URL. */
  url: {
    https: boolean;
    hostname: string;
    port: number;
    origin: string;
    options: ReturnType<typeof urlToHttpOptions>;
  } | null;
}

/**
 * What one claim's deliveries share, worked out once per client and batch instead of per
 * delivery: the secret decrypted (held only in the signer's closure while the batch is in flight,
 * never logged or stored) and the URL parsed. Keyed by the sealed secret and the URL as claimed,
 * so a change to either made between claims is seen by the next claim.
 */
class Batch {
  readonly #targets = new Map<string, Target>();
  constructor(readonly vault: Pick<Ctx['vault'], 'decrypt'>) {}

  target(url: string, secretEnc: string, previousEnc: string | null): Target {
    const key = `${secretEnc}\n${previousEnc ?? ''}\n${url}`;
    let t = this.#targets.get(key);
    if (!t) {
      const previous = previousEnc ? this.vault.decrypt(previousEnc) : null;
      t = { sign: webhookSigner(this.vault.decrypt(secretEnc), previous), url: parseTarget(url) };
      this.#targets.set(key, t);
    }
    return t;
  }
}

function parseTarget(raw: string): Target['url'] {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return null;
  }
  return {
    https: url.protocol === 'https:',
    hostname: url.hostname,
    port: webhookPort(url),
    origin: url.origin,
    options: urlToHttpOptions(url),
  };
}

interface Outcome {
  statusCode: number | null;
  error: string | null;
  latencyMs: number;
  /** The start of the receiver's answer; the delivery log keeps an excerpt of it (responseExcerpt). */
  responseBody: string | null;
}

/** How much of a receiver's answer is kept with each attempt. */
export const RESPONSE_BODY_KEPT = 2000;

/**
 * Turns outbox events into webhook deliveries and sends them. Several dispatchers (in several
 * processes) share one database: claims use `FOR UPDATE SKIP LOCKED` and are leases, so no
 * delivery is in flight twice at once and none is lost when a process dies mid-send.
 */
export class WebhookDispatcher {
  readonly #db: Db;
  readonly #ctx: Pick<Ctx, 'vault' | 'env'>;
  readonly #o: Required<Omit<WebhookDispatcherOptions, 'logger' | 'onOutcome'>> &
    Pick<WebhookDispatcherOptions, 'logger' | 'onOutcome'>;
  readonly #httpAgent: HttpAgent;
  readonly #httpsAgent: HttpsAgent;
  readonly #loop: ClaimLoop<Claimed>;
  readonly #results: DeliveryResults;
  /** Results sent for writing that are not written yet (their deliveries' slots are free). */
  readonly #recording = new Set<Promise<void>>();
  readonly #shares: ClientShares;
  readonly #circuits: Circuits;
  /** Tries sent outside the claim loop's slots: in overtime and in the slow lane. */
  readonly #outside = new Set<Promise<void>>();
  /** Tries in overtime now. */
  #overtime = 0;
  /** The slow lane: deliveries of open clients, claimed, waiting for its slots. */
  #slowQueue: Claimed[] = [];
  /** Clients with a try in the slow lane's slots now (one each). */
  readonly #slowSending = new Set<string>();
  #stopping = false;
  #unsubscribe: (() => void) | null = null;
  /** The commits this dispatcher wakes on (the context's signal); none: it only polls. */
  readonly #outbox: OutboxSignal | undefined;

  constructor(
    ctx: Pick<Ctx, 'db' | 'vault' | 'env'> & Partial<Pick<Ctx, 'outbox'>>,
    opts: WebhookDispatcherOptions = {},
  ) {
    this.#db = ctx.db;
    this.#outbox = ctx.outbox;
    this.#ctx = ctx;
    this.#results = new DeliveryResults(ctx.db);
    const timeoutMs = opts.timeoutMs ?? 10_000;
    this.#o = {
      retryScale: opts.retryScale ?? 1,
      timeoutMs,
      pollMs: opts.pollMs ?? 50,
      wakeOnCommit: opts.wakeOnCommit ?? true,
      wakeGapMs: opts.wakeGapMs ?? DEFAULT_WAKE_GAP_MS,
      concurrency: opts.concurrency ?? 16,
      perClient: Math.max(1, Math.floor(opts.perClient ?? (opts.concurrency ?? 16) / 4)),
      // A lease shorter than a try could let a second process send while the first still waits.
      leaseMs: Math.max(opts.leaseMs ?? timeoutMs + 30_000, timeoutMs + 1_000),
      slowAfterMs: opts.slowAfterMs ?? 1_000,
      slowSlots: Math.max(1, Math.floor(opts.slowSlots ?? (opts.concurrency ?? 16) / 4)),
      failuresToOpen: Math.max(1, opts.failuresToOpen ?? 3),
      overtime: Math.max(0, opts.overtime ?? 4 * (opts.concurrency ?? 16)),
      allowPrivateAddresses: opts.allowPrivateAddresses ?? ctx.env === 'sandbox',
      httpsOnly: opts.httpsOnly ?? !(opts.allowPrivateAddresses ?? ctx.env === 'sandbox'),
      privateOrigins: opts.privateOrigins ?? [],
      ports: opts.ports ?? null,
      random: opts.random ?? Math.random,
      logger: opts.logger,
      onOutcome: opts.onOutcome,
    };
    const { perClient, concurrency } = this.#o;
    this.#shares = new ClientShares(perClient, Math.max(perClient, concurrency - perClient));
    this.#circuits = new Circuits(ctx.db, this.#o.failuresToOpen, (write) =>
      this.#track(write, 'webhook circuit could not be written'),
    );
    // The guarded lookup makes the checked address the one the socket connects to.
    const agentOpts = { keepAlive: true, ...(this.#o.allowPrivateAddresses ? {} : { lookup: guardedLookup }) };
    this.#httpAgent = new HttpAgent(agentOpts);
    this.#httpsAgent = new HttpsAgent(agentOpts);
    this.#loop = new ClaimLoop<Claimed>({
      claim: (n, ahead) => this.#claim(n, ahead),
      handle: (c) => this.#deliver(c),
      // A client sends at most its share at once; its other claimed deliveries wait, others' go ahead.
      ready: (c) => this.#shares.maySend(c.client_id),
      concurrency: this.#o.concurrency,
      // A backlog's next batch is claimed while this one is sent: full claims, slots refilled at once.
      prefetch: true,
      pollMs: this.#o.pollMs,
      wakeGapMs: this.#o.wakeGapMs,
      failureMessage: 'webhook dispatcher pass failed',
      logger: this.#o.logger,
    });
  }

  start(): this {
    this.#stopping = false;
    this.#loop.start();
    // An operation of this process that committed an event wakes the loop; the poll covers the rest.
    if (this.#o.wakeOnCommit)
      this.#unsubscribe ??= this.#outbox?.listen((kind) => kind === 'webhooks' && this.nudge()) ?? null;
    return this;
  }

  /** Look for work now instead of at the next poll (call after a commit that wrote events). */
  nudge(): void {
    this.#loop.wake();
  }

  /** Stops claiming, waits for deliveries in flight to finish and be recorded. */
  async stop(): Promise<void> {
    this.#unsubscribe?.();
    this.#unsubscribe = null;
    this.#stopping = true;
    await this.#loop.stop();
    await this.#handBack();
    await this.#outsideDone();
    await this.#recorded();
    this.#httpAgent.destroy();
    this.#httpsAgent.destroy();
  }

  /** One pass: create deliveries for new events, claim what is due, send it. For tests and tools. */
  async runOnce(): Promise<number> {
    const n = await this.#loop.runOnce();
    await this.#outsideDone();
    await this.#recorded();
    return n;
  }

  /** Waits until no try runs in overtime or the slow lane and (unless stopping) the slow lane's queue is empty. */
  async #outsideDone(): Promise<void> {
    for (;;) {
      this.#pumpSlow();
      if (!this.#outside.size) return;
      await Promise.allSettled([...this.#outside]);
    }
  }

  /**
   * A stopping process gives the slow lane's waiting deliveries back (not sent: due at once for
   * another process) instead of waiting out one slow try after another.
   */
  async #handBack(): Promise<void> {
    const rows = this.#slowQueue.splice(0).map((c) => ({ id: c.id, lease_id: c.lease_id }));
    if (!rows.length) return;
    await this.#db
      .execute(
        sql`update webhook_deliveries d set locked_until = null, lease_id = null
            from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as v(id text, lease_id text)
            where d.id = v.id and d.lease_id = v.lease_id`,
      )
      .catch((err) => this.#o.logger?.warn({ err }, 'webhook slow lane could not give its deliveries back'));
  }

  /** Keeps a write that nothing waits for until it is done (stop waits for it), logging its failure. */
  #track(p: Promise<unknown>, failure: string): void {
    const tracked = p.then(
      () => {},
      (err) => this.#o.logger?.warn({ err }, failure),
    );
    this.#recording.add(tracked);
    void tracked.finally(() => this.#recording.delete(tracked));
  }

  /** Waits until every result sent for writing is written (or failed). */
  async #recorded(): Promise<void> {
    while (this.#recording.size) await Promise.allSettled([...this.#recording]);
  }

  /**
   * Marks new events dispatched and makes one delivery per event of a client with a URL. Events
   * of clients without a URL are marked too and never delivered (a URL registered later gets
   * only later events). One statement, so it is atomic without a transaction.
   */
  async createDeliveries(limit = 500): Promise<number> {
    const r = await this.#db.execute(sql`with ${newDeliveries(limit, null)} select count(*)::int as n from made`);
    return Number((r as unknown as { rows: Array<{ n: number }> }).rows[0]?.n ?? 0);
  }

  /**
   * One pass's claim, one statement (prepared once): up to `n` due deliveries, and new events made
   * into deliveries, as many of those leased at once as slots remain (the rest are claimed by a
   * later pass), each with the client's URL and secret and the event's payload. No client gets
   * more than its share's room (`ahead`: a batch that waits for slots, see ClientShares), and
   * clients take turns (see `claimDueQuery`'s share).
   */
  async #claim(n: number, ahead: boolean): Promise<Claimed[]> {
    const start = performance.now();
    // The slow lane takes one delivery per open client while at most two rounds of it wait.
    const slowRoom = this.#slowQueue.length + this.#slowSending.size < 2 * this.#o.slowSlots ? 1 : 0;
    const room = this.#shares.room(ahead);
    for (const client of this.#circuits.openClients()) room[client] = this.#slowHeld(client) ? 0 : slowRoom;
    const r = await claimStatement.run(this.#db, {
      n,
      lease: newLease(),
      leaseSeconds: this.#o.leaseMs / 1000,
      room: JSON.stringify(room),
      perClient: this.#shares.fresh(ahead),
      slowRoom,
    });
    const rows = (r as unknown as { rows: Claimed[] }).rows;
    const batch = new Batch(this.#ctx.vault);
    const claimedAt = performance.now();
    const fast: Claimed[] = [];
    for (const row of rows) {
      Object.assign(row, { batch, claimedAt });
      this.#circuits.seen(row, start);
      // An open client's deliveries wait for the slow lane, outside the loop's slots and shares.
      if (this.#circuits.isOpen(row.client_id)) this.#slowQueue.push(row);
      else fast.push(row);
    }
    this.#shares.took(
      fast.map((row) => row.client_id),
      ahead,
      room,
    );
    if (fast.length < rows.length) this.#pumpSlow();
    return fast;
  }

  #slowHeld(client: string): boolean {
    return this.#slowSending.has(client) || this.#slowQueue.some((c) => c.client_id === client);
  }

  /**
   * Starts the slow lane's waiting deliveries, oldest first, one per client, while its slots are
   * free. A client's tries still out (in slots or overtime) go first: it never has more out than its share.
   */
  #pumpSlow(): void {
    for (let i = 0; i < this.#slowQueue.length && this.#slowSending.size < this.#o.slowSlots && !this.#stopping; ) {
      const c = this.#slowQueue[i]!;
      if (this.#slowSending.has(c.client_id) || this.#shares.busy(c.client_id)) {
        i++;
        continue;
      }
      this.#slowQueue.splice(i, 1);
      this.#slowSending.add(c.client_id);
      const sent = this.#send(c)
        .catch((err) => this.#o.logger?.warn({ err, delivery_id: c.id }, 'webhook slow lane: a delivery failed'))
        .finally(() => {
          this.#slowSending.delete(c.client_id);
          this.#outside.delete(sent);
          this.#pumpSlow();
          // Room in the slow lane again: its next deliveries need a claim.
          if (!this.#stopping) this.#loop.wake(true);
        });
      this.#outside.add(sent);
    }
  }

  /**
   * Sends one delivery; its slot is free once the receiver has answered. The result is written
   * behind it, in the next batch (the lease still holds the row, so no claim takes it meanwhile):
   * waiting for the write would hold the slot for a database round trip per delivery. While more
   * results than twice the slots wait to be written, the slot waits too (back-pressure on a slow database).
   */
  async #deliver(c: Claimed): Promise<void> {
    this.#shares.sending(c.client_id);
    if (this.#circuits.isOpen(c.client_id)) {
      // Its circuit opened while it waited for a slot: it goes through the slow lane.
      if (this.#shares.released(c.client_id)) this.#loop.wake(true);
      this.#slowQueue.push(c);
      this.#pumpSlow();
      return;
    }
    let overtime = false;
    let leaveSlot!: () => void;
    const left = new Promise<void>((resolve) => (leaveSlot = resolve));
    // Still unanswered after the slow threshold: the try waits out its deadline outside the slots
    // (while overtime has room) and its client's circuit opens, so it costs its client, not the pool.
    const onSlow = () => {
      this.#circuits.slow(c.client_id);
      if (this.#overtime >= this.#o.overtime) return;
      this.#overtime++;
      overtime = true;
      this.#outside.add(sent);
      leaveSlot();
    };
    const sent: Promise<void> = this.#send(c, onSlow).finally(() => {
      // A client held back by its share may have more due: claim without waiting for the poll.
      if (this.#shares.released(c.client_id)) this.#loop.wake(true);
      if (overtime) {
        this.#overtime--;
        this.#outside.delete(sent);
      }
      // The client's slow-lane delivery may have waited for this try.
      if (this.#slowQueue.length) this.#pumpSlow();
    });
    await Promise.race([sent, left]);
    // Failures of a try in overtime are the claim loop's no longer: logged here.
    if (overtime)
      void sent.catch((err) =>
        this.#o.logger?.warn({ err, delivery_id: c.id }, 'webhook dispatcher: a delivery in overtime failed'),
      );
  }

  /** `onSlow`: called if the receiver has not answered after the slow threshold (fast lane only). */
  async #send(c: Claimed, onSlow?: () => void): Promise<void> {
    // A claimed delivery that waited for a slot is sent only under a lease that outlasts a whole
    // try (with half a second to spare). One that waited longer (behind its client's hanging
    // tries) has its lease renewed: dropped, it would be leased still when the retries of those
    // tries came due and took the slots again, and so on, never sent.
    if (!this.#leaseCovers(c)) {
      if (!(await renewLease(this.#db, 'webhook_deliveries', c.id, c.lease_id, this.#o.leaseMs / 1000))) return;
      c.claimedAt = performance.now();
    }
    let recorded: Promise<void>;
    try {
      if (!c.webhook_url || !c.webhook_secret_enc || c.webhook_disabled_at) {
        recorded = this.#results.record({
          id: c.id,
          lease_id: c.lease_id,
          status: 'disabled',
          tries: null,
          url: null,
          attempt: null,
          delay_ms: null,
        });
        this.#o.onOutcome?.('disabled');
      } else {
        const target = c.batch.target(c.webhook_url, c.webhook_secret_enc, c.webhook_previous_secret_enc);
        const createdAt = new Date(c.event_created_at).toISOString();
        const body = JSON.stringify({
          event_type: c.event_type,
          data: openPayload(c.payload, this.#ctx.vault),
          id: c.event_id,
          created_at: createdAt,
        });
        const at = new Date();
        const outcome = await this.#post(target.url, target.sign(c.event_id, body, at), body, onSlow);
        this.#shares.answered(c.client_id, succeeded(outcome), outcome.latencyMs);
        this.#circuit(c, outcome);
        recorded = this.#record(c, c.webhook_url, at, outcome);
      }
    } catch (err) {
      recorded = Promise.reject(err);
    }
    // The lease runs out and the delivery is tried again; nothing is lost.
    const tracked = recorded.catch((err) =>
      this.#o.logger?.warn({ err, delivery_id: c.id }, 'webhook delivery could not be recorded'),
    );
    this.#recording.add(tracked);
    void tracked.finally(() => this.#recording.delete(tracked));
    // Room for one batch being written and one gathering behind it: a full round of answers that
    // comes while a write runs does not hold its slots (and the claim they would prompt) for it.
    if (this.#recording.size > 2 * this.#o.concurrency) await tracked;
  }

  /** What a try's outcome tells the client's circuit (a 410 disables the URL instead). */
  #circuit(c: Claimed, o: Outcome): void {
    if (succeeded(o)) {
      if (o.latencyMs < this.#o.slowAfterMs) this.#circuits.answered(c);
    } else if (o.statusCode !== 410) this.#circuits.failed(c.client_id);
  }

  #leaseCovers(c: Claimed): boolean {
    return performance.now() - c.claimedAt + this.#o.timeoutMs + 500 <= this.#o.leaseMs;
  }

  async #record(c: Claimed, url: string, at: Date, o: Outcome): Promise<void> {
    const attempt: DeliveryAttempt = {
      at: at.toISOString(),
      status_code: o.statusCode,
      latency_ms: o.latencyMs,
      error: o.error,
      response_body: responseExcerpt(o.responseBody),
    };
    const tries = c.tries + 1;
    const ok = succeeded(o);
    const row = { id: c.id, lease_id: c.lease_id, tries, url, attempt: [attempt] };
    if (ok) {
      this.#o.onOutcome?.('delivered');
      await this.#results.record({ ...row, status: 'delivered', delay_ms: null });
      return;
    }
    if (o.statusCode === 410) {
      this.#o.onOutcome?.('gone');
      const log = JSON.stringify([attempt]);
      // The receiver says the URL is gone: stop sending to it until the client registers again.
      await this.#db.transaction(async (tx) => {
        await tx.execute(sql`
          update clients set webhook_disabled_at = now()
          where id = ${c.client_id} and webhook_url = ${url} and webhook_disabled_at is null`);
        // Held until the next registration; if the URL changed meanwhile, due again for the new one.
        await tx.execute(sql`
          update webhook_deliveries
          set status = (select case when webhook_disabled_at is null then 'pending' else 'disabled' end
                        from clients where id = ${c.client_id}),
              next_attempt_at = now(), tries = ${tries}, url = ${url}, attempts = attempts || ${log}::jsonb,
              locked_until = null, lease_id = null
          where id = ${c.id} and lease_id = ${c.lease_id}`);
      });
      return;
    }
    const delay = retryDelayMs(tries, this.#o.retryScale, this.#o.random);
    this.#o.onOutcome?.(delay === null ? 'failed' : 'retrying');
    await this.#results.record({ ...row, status: delay === null ? 'failed' : 'retrying', delay_ms: delay ?? 0 });
    if (delay !== null && delay < this.#o.pollMs) this.nudge();
  }

  /** One POST; never throws: every failure becomes an outcome. Redirects are not followed. */
  #post(url: Target['url'], headers: Record<string, string>, body: string, onSlow?: () => void): Promise<Outcome> {
    const started = performance.now();
    const latency = () => Math.round(performance.now() - started);
    return new Promise<Outcome>((resolve) => {
      let settled = false;
      let timer: NodeJS.Timeout | undefined;
      let slowTimer: NodeJS.Timeout | undefined;
      let kept = '';
      const finish = (statusCode: number | null, error: string | null) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        clearTimeout(slowTimer);
        resolve({ statusCode, error, latencyMs: latency(), responseBody: statusCode === null && !kept ? null : kept });
      };
      if (!url) return finish(null, 'invalid URL');
      const https = url.https;
      if (!https && this.#o.httpsOnly) return finish(null, 'refused: production webhooks use https only');
      if (this.#o.ports && !this.#o.ports.includes(url.port)) return finish(null, portRefused(url.port, this.#o.ports));
      if (!this.#o.allowPrivateAddresses && !this.#o.privateOrigins.includes(url.origin)) {
        // IP literals skip the agent's lookup, so they are checked here.
        const host = url.hostname.replace(/^\[|\]$/g, '');
        if (isIP(host) && isBlockedAddress(host)) return finish(null, new BlockedAddressError(host).message);
      }
      const req = (https ? httpsRequest : httpRequest)(
        {
          ...url.options,
          method: 'POST',
          agent: https ? this.#httpsAgent : this.#httpAgent,
          headers: {
            'content-type': 'application/json',
            'content-length': String(Buffer.byteLength(body)),
            'user-agent': 'Remit-Webhooks/1',
            ...headers,
          },
        },
        (res: IncomingMessage) => {
          res.on('error', (e) => finish(null, describe(e, url.hostname)));
          res.on('end', () => finish(res.statusCode ?? null, statusError(res.statusCode)));
          res.on('close', () => finish(null, 'connection closed before the response ended'));
          res.setEncoding('utf8');
          // Read to the end (the connection is reused), keeping only the start.
          res.on('data', (chunk: string) => {
            if (kept.length < RESPONSE_BODY_KEPT) kept = (kept + chunk).slice(0, RESPONSE_BODY_KEPT);
          });
        },
      );
      // One deadline for the whole try, from the request to the answer's last byte: a receiver that
      // trickles its headers or body byte by byte is cut off at it like one that never answers.
      timer = setTimeout(() => {
        finish(null, `timed out after ${this.#o.timeoutMs} ms`);
        req.destroy();
      }, this.#o.timeoutMs);
      if (onSlow) slowTimer = setTimeout(onSlow, this.#o.slowAfterMs);
      req.on('error', (e) => finish(null, describe(e, url.hostname)));
      req.end(body);
    });
  }
}

const succeeded = (o: Outcome) => o.statusCode !== null && o.statusCode >= 200 && o.statusCode < 300;

function statusError(code: number | undefined): string | null {
  if (code === undefined) return 'no status';
  if (code >= 200 && code < 300) return null;
  if (code >= 300 && code < 400) return `HTTP ${code}: redirects are not followed`;
  return `HTTP ${code}`;
}

/** Socket errors as Node words them name the address connected to ("connect ECONNREFUSED 10.0.0.5:443"). */
const SOCKET_ERRORS: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  ETIMEDOUT: 'connection timed out',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  EPIPE: 'connection closed while sending',
  ENOTFOUND: 'host name not found',
  EAI_AGAIN: 'host name lookup failed for now',
};
const IPV4 = /\b\d{1,3}(?:\.\d{1,3}){3}(?::\d+)?\b/g;
const IPV6 = /\[?\b(?:[0-9a-f]{0,4}:){2,7}[0-9a-f]{0,4}\b\]?(?::\d+)?/gi;

/**
 * What a failed try records (shown to the client in the delivery log): the host as the client
 * registered it, never the address its name resolved to, so the log cannot be used to map the
 * network behind a name.
 */
function describe(e: Error & { code?: string }, host: string): string {
  const known = e.code ? SOCKET_ERRORS[e.code] : undefined;
  if (known) return `${e.code}: ${known} (${host})`;
  const message = e.message.replace(IPV6, '[address]').replace(IPV4, '[address]');
  return e.code && !message.includes(e.code) ? `${e.code}: ${message}` : message;
}

/**
 * The CTEs `ev` (up to `limit` new events, marked dispatched) and `made` (one delivery each for a
 * client with a URL; 'disabled' while the client's URL is disabled). With `leased`, up to `slots`
 * pending ones, each client's within its room and the clients taking turns (oldest first), are
 * made already leased to this pass.
 */
function newDeliveries(
  limit: number,
  leased: { id: unknown; seconds: unknown; slots: SQL; room: (client: SQL) => SQL } | null,
): SQL {
  const take = leased ? sql`(n.fits and n.rn <= ${leased.slots})` : sql`false`;
  // Within its client's room; those that fit are ranked round-robin between clients.
  const fits = leased ? sql`(not k.disabled and k.crn <= ${leased.room(sql`k.client_id`)})` : sql`false`;
  return sql`
    ev as (
      update events set dispatched_at = now()
      where id in (
        select id from events where dispatched_at is null
        order by created_at, id limit ${limit} for update skip locked)
      returning id, client_id, event_type, payload, created_at),
    made as (
      insert into webhook_deliveries (id, client_id, event_id, event_type, url, status, next_attempt_at, created_at, locked_until, lease_id)
      select 'dlv_' || substr(n.id, 5), n.client_id, n.id, n.event_type, n.webhook_url,
             case when n.disabled then 'disabled' else 'pending' end, now(), now(),
             case when ${take} then now() + make_interval(secs => ${leased?.seconds ?? 0}::float8) end,
             case when ${take} then ${leased?.id ?? null}::text end
      from (
        select k.*, ${fits} as fits, row_number() over (order by ${fits} desc, k.crn, k.created_at, k.id) as rn
        from (
          select ev.*, c.webhook_url, c.webhook_disabled_at is not null as disabled,
                 row_number() over (partition by ev.client_id order by ev.created_at, ev.id) as crn
          from ev join clients c on c.id = ev.client_id
          where c.webhook_url is not null) k) n
      on conflict (event_id) do nothing
      returning id, event_id, event_type, tries, lease_id, client_id)`;
}

/**
 * `#claim`'s statement, built once and prepared: the slots (`n`), the lease and its length, and
 * each client's room (`room`: JSON, client id to how many more it may take; `perClient` for a
 * client not in it) are its parameters.
 */
const claimStatement = preparedSql('remit_webhook_claim', () => {
  const ph = sql.placeholder;
  // An open circuit's client (opened by any server) takes at most `slowRoom`: its deliveries wait
  // for the slow lane, which holds few. One primary-key probe per client with deliveries due.
  const room = (client: SQL) => sql`least(coalesce((${ph('room')}::jsonb ->> ${client})::int, ${ph('perClient')}::int),
    case when exists (select 1 from clients o where o.id = ${client} and o.webhook_slow_since is not null) then ${ph('slowRoom')}::int else 2147483647 end)`;
  const claimed = sql`d.id, d.event_id, d.event_type, d.tries, d.lease_id, d.client_id, c.webhook_url, c.webhook_secret_enc,
              case when c.webhook_previous_secret_until > now() then c.webhook_previous_secret_enc end as webhook_previous_secret_enc,
              c.webhook_disabled_at, c.webhook_failures, c.webhook_slow_since, e.payload, e.created_at as event_created_at`;
  const due = claimDueQuery(
    {
      table: 'webhook_deliveries',
      limit: ph('n'),
      leaseSeconds: ph('leaseSeconds'),
      join: { from: sql`clients c, events e`, on: sql`c.id = d.client_id and e.id = d.event_id` },
      returning: claimed,
      share: { column: 'client_id', room },
    },
    ph('lease'),
  );
  const leased = {
    id: ph('lease'),
    seconds: ph('leaseSeconds'),
    slots: sql`${ph('n')}::int - (select count(*) from due)`,
    // What the due deliveries just claimed took of the client's room is not its new events' to take.
    room: (client: SQL) => sql`${room(client)} - (select count(*) from due where due.client_id = ${client})`,
  };
  return sql`
    with due as (${due}), ${newDeliveries(500, leased)}
    select * from due
    union all
    select ${claimed} from made d join ev e on e.id = d.event_id join clients c on c.id = d.client_id
    where d.lease_id is not null`;
});

export function startWebhookDispatcher(
  ctx: Pick<Ctx, 'db' | 'vault' | 'env'> & Partial<Pick<Ctx, 'outbox'>>,
  opts: WebhookDispatcherOptions = {},
) {
  return new WebhookDispatcher(ctx, opts).start();
}
