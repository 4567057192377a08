/**
 * Micro-benchmark of the money rules' TypeScript side: `feeFor`, `isSettled` and
 * `paymentSuccessData`, A/B in one process (rounds alternate, so load on the machine hits both).
 *
 *   git archive <ref> packages/core/src | tar -x -C .bench-a   # the A side, inside the checkout for node_modules
 *   npx tsx bench/rule-eval.ts .bench-a [<dir B>]              # B defaults to this checkout
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const [dirA, dirB = process.cwd()] = process.argv.slice(2);
if (!dirA) throw new Error('usage: tsx bench/rule-eval.ts <dir A> [<dir B>]');

async function load(dir: string) {
  const at = (f: string) => pathToFileURL(path.resolve(dir, 'packages/core/src/payments', f)).href;
  const fees = await import(at('fees.ts'));
  const settlement = await import(at('settlement.ts'));
  // Before the row rules, the payload was built in charges.ts.
  const payloads = await import(at('payloads.ts')).catch(() => import(at('charges.ts')));
  return { feeFor: fees.feeFor, isSettled: settlement.isSettled, paymentSuccessData: payloads.paymentSuccessData };
}

const pricing = { cardFeeRateE7: 29_000_000, cardFeeFixedCents: 30, achFeeRateE7: 8_000_000, achFeeCapCents: 500 };
const t0 = Date.parse('2026-11-20T10:00:00Z');
const rows = Array.from({ length: 20 }, (_, i) => ({
  id: `txn_${i}`,
  merchantId: 'mer_1',
  type: 'Sale',
  amountCents: 1000 + i * 37,
  netCents: 941 + i * 36,
  feeCents: 59 + i,
  refundedCents: 0,
  authorizedCents: null,
  isStatus: i % 3 === 0 ? 0 : 2,
  status: 'completed',
  paymentMethod: i % 4 === 0 ? 'ach' : 'card',
  settled: i % 5 === 0,
  completedAt: i % 2 ? new Date(t0 + i * 3_600_000) : null,
  createdAt: new Date(t0 + i * 3_000_000),
  orderId: i % 2 ? `ord_${i}` : null,
  orderCreatedfrom: 'api',
  lastFour: '4242',
  cardBrand: 'visa',
  payLinkId: null,
}));
const at = new Date('2026-11-21T12:00:00Z');

type Impl = Awaited<ReturnType<typeof load>>;
let sink = 0;
const cases: Record<string, (m: Impl, i: number) => void> = {
  feeFor: (m, i) => {
    sink += m.feeFor(pricing, i & 1 ? 'ach' : 'card', 1000 + (i & 1023)).feeCents;
  },
  isSettled: (m, i) => {
    if (m.isSettled(rows[i % 20], at, 0)) sink++;
  },
  paymentSuccessData: (m, i) => {
    sink += m.paymentSuccessData(rows[i % 20]).amount;
  },
};

/** Nanoseconds per call over `n` calls. */
function time(m: Impl, f: (m: Impl, i: number) => void, n: number) {
  const start = process.hrtime.bigint();
  for (let i = 0; i < n; i++) f(m, i);
  return Number(process.hrtime.bigint() - start) / n;
}

const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;

const a = await load(dirA);
const b = await load(dirB);
const N = 200_000;
const ROUNDS = 15;
for (const [name, f] of Object.entries(cases)) {
  time(a, f, N);
  time(b, f, N);
  const ta: number[] = [];
  const tb: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    ta.push(time(a, f, N));
    tb.push(time(b, f, N));
  }
  console.log(
    `${name.padEnd(20)} A ${(median(ta) / 1000).toFixed(3)} µs   B ${(median(tb) / 1000).toFixed(3)} µs   (median of ${ROUNDS} × ${N})`,
  );
}
if (sink === 42) console.log('');
