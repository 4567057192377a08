/** The HTTP load of each hot route (autocannon, 50 connections), and the request each sends. */
import autocannon from 'autocannon';
import { CONNECTIONS, dollars, SECONDS, WARMUP_SECONDS, type Route, type Setup } from './setup.js';
import { postgresCpuMs, processCpuMs, processCpuTotalMs, selfCpuMs } from './process-cpu.js';
import type { Figures } from './stats.js';

export async function load(opts: autocannon.Options, seconds = SECONDS): Promise<Figures> {
  const r = await autocannon({ connections: CONNECTIONS, duration: seconds, ...opts });
  // Successes only: a refusal (a consumed row, a 404) is cheaper than the work and would flatter the rate.
  return {
    rps: r['2xx'] / r.duration,
    count: r['2xx'],
    p50: r.latency.p50,
    p99: r.latency.p99,
    errors: r.non2xx + r.errors + r.timeouts,
  };
}

/**
 * Lends each request in flight a row of its own (its own sale to refund, its own preauthorization),
 * given back when the answer comes, so requests never queue on one another's row.
 */
function rowPool(build: (i: number) => object, after?: (i: number, ok: boolean) => void) {
  const free = Array.from({ length: CONNECTIONS }, (_, i) => i);
  return [
    {
      setupRequest: (req: autocannon.Request, context: { i?: number }) => {
        context.i = free.pop() ?? Math.floor(Math.random() * CONNECTIONS);
        return { ...req, body: JSON.stringify(build(context.i)) };
      },
      onResponse: (status: number, _body: string, context: { i?: number }) => {
        after?.(context.i!, status === 200);
        free.push(context.i!);
      },
    },
  ] as unknown as autocannon.Request[];
}

/** A request with a fixed body (for a second load tool): method, path, JSON body. */
export interface FixedRequest {
  method: 'GET' | 'POST';
  url: string;
  headers: Record<string, string>;
  body: string;
}

export function fixedRequests(base: string, s: Setup): Partial<Record<Route, FixedRequest>> {
  const headers = { authorization: s.auth, 'content-type': 'application/json' };
  return {
    payLink: {
      method: 'POST',
      url: `${base}/api/v1/pay-link`,
      headers,
      body: JSON.stringify({ merchant_key: s.merchantKey, amount: '25.00' }),
    },
    get: {
      method: 'GET',
      url: `${base}/api/v1/merchant/transactions/${s.readId}`,
      headers,
      body: JSON.stringify({ merchant_key: s.merchantKey }),
    },
    list: {
      method: 'GET',
      url: `${base}/api/v1/merchant/transactions`,
      headers,
      body: JSON.stringify({ merchant_key: s.merchantKey, limit: '20', pageNumber: 0 }),
    },
  };
}

/**
 * One load per route against the server at `base`; each call runs the route's load once for
 * `seconds`. A route that consumes rows (the voids, the capture) takes the first half of its list.
 */
export function routeLoads(base: string, s: Setup): Record<Route, (seconds?: number) => Promise<Figures>> {
  const headers = { authorization: s.auth, 'content-type': 'application/json' };
  const post = (path: string) => ({ url: `${base}/api/v1${path}`, method: 'POST' as const, headers });
  const fixed = fixedRequests(base, s);
  const plain = (r: FixedRequest) => ({ url: r.url, method: r.method, headers: r.headers, body: r.body });
  let order = 0;
  const next: number[] = [];
  const toVoid = voidQueue(s, 'voidable');
  const toCapture = voidQueue(s, 'capturable');
  const toVoidHold = voidQueue(s, 'preauthVoidable');
  /** Each request takes a row no other request touched (none left: the request fails, counted as an error). */
  const consuming = (path: string, queue: string[]) => (sec?: number) =>
    load(
      {
        ...post(path),
        requests: [
          {
            setupRequest: (req: autocannon.Request) => ({
              ...req,
              body: JSON.stringify({ merchant_key: s.voidMerchantKey, transaction_id: queue.pop() ?? 'txn_none' }),
            }),
          },
        ] as unknown as autocannon.Request[],
      },
      sec,
    );
  return {
    payLink: (sec) => load(plain(fixed.payLink!), sec),
    charge: (sec) =>
      load(
        {
          ...post(`/customers/charge/${s.customerId}`),
          requests: rowPool(() => ({
            merchant_key: s.merchantKey,
            amount: 12.5,
            order_id: `c-${process.pid}-${order++}`,
            preAuth: false,
          })),
        },
        sec,
      ),
    refund: (sec) =>
      load(
        {
          ...post('/order/sales-return'),
          requests: rowPool((i) => ({ merchant_key: s.merchantKey, transaction_id: s.sales[i], amount: '0.01' })),
        },
        sec,
      ),
    void: consuming('/order/sales-void', toVoid),
    preauthUpdate: (sec) =>
      load(
        {
          ...post('/preauth/update'),
          requests: rowPool(
            (i) => {
              const pa = s.preauths[i]!;
              // Up and down by a cent in turn, so the amount stays put over the run.
              next[i] = pa.cents + (pa.cents % 2 === 0 ? 1 : -1);
              return {
                merchant_key: s.merchantKey,
                transaction_id: pa.id,
                last_authorized_amount: dollars(pa.cents),
                new_authorized_amount: dollars(next[i]!),
                order_id: `bench-pa-${i}`,
              };
            },
            // The amount only ever takes two values: after a success it is the new one; after a refusal
            // (a request of an earlier load, cut off by its end, had moved it) it was already the new one.
            (i) => {
              s.preauths[i]!.cents = next[i]!;
            },
          ),
        },
        sec,
      ),
    capture: consuming('/preauth/capture', toCapture),
    preauthVoid: consuming('/preauth/void', toVoidHold),
    get: (sec) => load(plain(fixed.get!), sec),
    list: (sec) => load(plain(fixed.list!), sec),
  };
}

type Consumable = 'voidable' | 'capturable' | 'preauthVoidable';
const queues = new WeakMap<Setup, Partial<Record<Consumable, string[]>>>();
/** The rows HTTP loads consume (the first half of the list), shared by every load of one setup. */
function voidQueue(s: Setup, list: Consumable): string[] {
  if (!queues.has(s)) queues.set(s, {});
  const q = queues.get(s)!;
  return (q[list] ??= s[list].slice(0, s[list].length / 2).reverse());
}

/** A warm-up load (discarded), then the measured one with its CPU cost per request (see withCost). */
export async function warmThenLoad(run: (seconds?: number) => Promise<Figures>, serverPid?: number): Promise<Figures> {
  if (WARMUP_SECONDS > 0) await run(WARMUP_SECONDS);
  return withCost(() => (serverPid ? withServerCpu(serverPid, run) : run()), serverPid);
}

/**
 * `run`'s figures with its CPU cost per answered request: this process (the load tool, or the
 * replaying driver) and the load tools it ran, Postgres, and the server `pid` (the other processes
 * on the machine are left out).
 */
export async function withCost(run: () => Promise<Figures>, pid?: number): Promise<Figures> {
  const total = () => selfCpuMs() + postgresCpuMs() + (pid ? processCpuTotalMs(pid) : 0);
  const before = total();
  const f = await run();
  const ms = total() - before;
  return { ...f, costUs: f.count ? (ms * 1000) / f.count : undefined };
}

/** `run`'s figures with the server's CPU (user + system, from /proc) per answered request. */
export async function withServerCpu(serverPid: number, run: () => Promise<Figures>): Promise<Figures> {
  const before = processCpuMs(serverPid);
  const f = await run();
  const after = processCpuMs(serverPid);
  const ms = after.user - before.user + after.system - before.system;
  return { ...f, cpuUs: f.count ? (ms * 1000) / f.count : undefined };
}
