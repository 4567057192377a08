import { newMerchant } from '../apps/server/src/testing/fixtures.js';
import { startTestServer } from '../apps/server/src/testing/harness.js';
import { launchChromium } from '../e2e/browser.js';

/**
 * Pay page budget: from navigation start to the first successful `fill` of the card number, in
 * Chromium on localhost (the server's real page and state injection), median of RUNS fresh contexts:
 * the page's own clock from its time origin to the first input event it handled (the fill), and to
 * the `remit:ready` mark main.tsx sets once the form is rendered.
 */
const RUNS = Number(process.env.BENCH_PAY_RUNS ?? 21);

export async function runPayPageBench(): Promise<{ median: number; p90: number; readyMedian: number }> {
  const s = await startTestServer();
  const browser = await launchChromium();
  try {
    const m = await newMerchant(s);
    const res = await s.http({ method: 'POST', path: '/api/v1/pay-link', auth: m.auth, json: { merchant_key: m.merchant_key, amount: '10.00' } });
    const url = String(res.body.data.payment_link).replace(/^https?:\/\/[^/]+/, s.url);
    const times: number[] = [];
    const wall: number[] = [];
    const ready: number[] = [];
    for (let i = 0; i < RUNS + 1; i++) {
      const ctx = await browser.newContext();
      const page = await ctx.newPage();
      // The page's own clock: navigation start (time origin) → the first input event it handled.
      await page.addInitScript(() => {
        document.addEventListener('input', () => ((window as unknown as { firstInput?: number }).firstInput ??= performance.now()), true);
      });
      const t0 = Date.now();
      const nav = page.goto(url);
      await page.getByLabel('Card number').fill('4242', { timeout: 10_000 });
      wall.push(Date.now() - t0);
      await nav;
      const inPage = await page.evaluate(() => (window as unknown as { firstInput: number }).firstInput);
      const readyMark = await page.evaluate(() => performance.getEntriesByName('remit:ready')[0]!.startTime);
      // Honest: the field was visible and enabled (fill checks both) and what was typed, maybe
      // before the script hydrated the server-rendered form, is still there after it did.
      const kept = await page.getByLabel('Card number').inputValue();
      if (kept !== '4242') throw new Error(`typed 4242 into the card number, the page kept ${JSON.stringify(kept)}`);
      if (i > 0) {
        // the first run warms the server's caches
        times.push(inPage);
        ready.push(readyMark);
      }
      if (process.env.BENCH_PAY_DEBUG) {
        console.log(
          await page.evaluate(() => {
            const n = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
            const ready = performance.getEntriesByName('remit:ready')[0]?.startTime;
            return { req: n.requestStart, ttfb: n.responseStart, html: n.responseEnd, dcl: n.domContentLoadedEventEnd, ready, input: (window as unknown as { firstInput: number }).firstInput };
          }),
        );
      }
      await ctx.close();
    }
    times.sort((a, b) => a - b);
    const median = times[Math.floor(times.length / 2)]!;
    const p90 = times[Math.floor(times.length * 0.9)]!;
    console.log('\n== pay page: navigation → card number accepts typing (Chromium, localhost) ==');
    wall.sort((a, b) => a - b);
    ready.sort((a, b) => a - b);
    const readyMedian = ready[Math.floor(ready.length / 2)]!;
    console.log(`median ${median.toFixed(0)} ms   p90 ${p90.toFixed(0)} ms   (${times.length} runs)   budget < 100 ms ${median < 100 ? 'ok' : 'OVER'}`);
    console.log(`form rendered and interactive (performance mark remit:ready): median ${readyMedian.toFixed(0)} ms`);
    console.log(`(as the test driver sees it, goto → fill returned: median ${wall[Math.floor(wall.length / 2)]} ms)`);
    return { median, p90, readyMedian };
  } finally {
    await browser.close();
    await s.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await runPayPageBench();
