import { newMerchant } from '../apps/server/src/testing/fixtures.js';
import { startTestServer } from '../apps/server/src/testing/harness.js';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchChromium } from '../e2e/browser.js';

/**
 * Pay page budget: from navigation start to the card number accepting typing, in Chromium on
 * localhost (the server's real page, state and server rendering), median of RUNS fresh contexts.
 *
 * The figure is the page's own clock: its time origin (navigation start) → the first `input` event
 * it handled, the typed text arriving in the field. The driver types as soon as the field exists:
 * the page tells it (a MutationObserver calling a binding) instead of Playwright's locator polling,
 * whose 20/50/100 ms back-off would add its own wait to the figure. Typing then goes through
 * Playwright's `fill` (visible, enabled, editable checks; focus; text inserted as the keyboard
 * would), so the event only happens once Chromium delivers input to the page (not before its first
 * paint) and its main thread is free (a running script delays it). The bench also checks that what
 * was typed, maybe before the script hydrated the form, is still there once it has.
 *
 * `BENCH_PAY_DIR=<a built apps/pay/dist>` serves another build (side-by-side comparisons).
 */
const RUNS = Number(process.env.BENCH_PAY_RUNS ?? 21);

type Win = { firstInput?: number; __remitFieldReady?: () => void };

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const p90 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.9)]!;

export async function runPayPageBench(): Promise<{ median: number; p90: number; readyMedian: number; floor: number }> {
  const s = await startTestServer({ payDir: process.env.BENCH_PAY_DIR });
  const browser = await launchChromium();
  try {
    const m = await newMerchant(s);
    const res = await s.http({ method: 'POST', path: '/api/v1/pay-link', auth: m.auth, json: { merchant_key: m.merchant_key, amount: '10.00' } });
    const url = String(res.body.data.payment_link).replace(/^https?:\/\/[^/]+/, s.url);
    const rows: Array<Record<string, number>> = [];
    const wall: number[] = [];
    for (let i = 0; i < RUNS + 1; i++) {
      const { page, ctx, nav, wall: took } = await typeOnArrival(browser, url);
      wall.push(took);
      await nav;
      await page.waitForFunction(() => performance.getEntriesByName('remit:ready').length === 1);
      // Honest: what was typed, maybe before the script hydrated the server-rendered form, is still there.
      const kept = await page.getByLabel('Card number').inputValue();
      if (kept !== '4242') throw new Error(`typed 4242 into the card number, the page kept ${JSON.stringify(kept)}`);
      const row = await page.evaluate(() => {
        const n = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
        const paint = performance.getEntriesByName('first-paint')[0]?.startTime ?? NaN;
        const css = performance.getEntriesByType('resource').find((r) => r.name.endsWith('.css')) as PerformanceResourceTiming | undefined;
        return {
          ttfb: n.responseStart,
          server: n.responseStart - n.requestStart,
          html: n.responseEnd,
          css: css?.responseEnd ?? NaN,
          parsed: n.domInteractive,
          paint,
          input: (window as unknown as Win).firstInput!,
          ready: performance.getEntriesByName('remit:ready')[0]!.startTime,
        };
      });
      if (process.env.BENCH_PAY_DEBUG) console.log(Object.fromEntries(Object.entries(row).map(([k, v]) => [k, Math.round(v)])));
      if (i > 0) rows.push(row); // the first run warms the server's caches
      await ctx.close();
    }
    const col = (k: string) => rows.map((r) => r[k]!);
    const result = { median: median(col('input')), p90: p90(col('input')), readyMedian: median(col('ready')) };
    const med = (k: string) => median(col(k)).toFixed(0);
    console.log('\n== pay page: navigation → card number accepts typing (Chromium, localhost) ==');
    console.log(
      `median ${result.median.toFixed(0)} ms   p90 ${result.p90.toFixed(0)} ms   (${rows.length} runs)   budget < 100 ms ${result.median < 100 ? 'ok' : 'OVER'}`,
    );
    console.log(
      `medians: first byte ${med('ttfb')} ms (server ${med('server')} ms), HTML in ${med('html')}, CSS in ${rows.every((r) => Number.isNaN(r.css)) ? 'the HTML' : med('css')}, parsed ${med('parsed')}, ` +
        `first paint ${med('paint')}, first input ${med('input')}, hydrated (remit:ready) ${med('ready')} ms`,
    );
    console.log(`(as the test driver sees it, goto → fill returned: median ${median(wall)} ms)`);
    const floor = await floorOf(browser);
    console.log(`floor: the same measure on a page of one field and nothing else (a bare Node server): median ${floor.toFixed(0)} ms`);
    return { ...result, floor };
  } finally {
    await browser.close();
    await s.close();
  }
}

/**
 * A fresh context opens `url`, and the driver types into the card number the moment it exists: the
 * page tells it (a MutationObserver calling a binding) instead of Playwright's locator polling,
 * whose 20/50/100 ms back-off would add its own wait. The page records its first `input` event.
 */
async function typeOnArrival(browser: Browser, url: string): Promise<{ page: Page; ctx: BrowserContext; nav: Promise<unknown>; wall: number }> {
  const ctx = await browser.newContext();
  const page = await ctx.newPage();
  let fieldThere!: () => void;
  const there = new Promise<void>((resolve) => (fieldThere = resolve));
  await page.exposeBinding('__remitFieldReady', () => fieldThere());
  await page.addInitScript(() => {
    const w = window as unknown as Win;
    document.addEventListener('input', () => (w.firstInput ??= performance.now()), true);
    const seen = new MutationObserver(() => {
      if (!document.getElementById('card-number')) return;
      seen.disconnect();
      w.__remitFieldReady!();
    });
    seen.observe(document, { childList: true, subtree: true });
  });
  const t0 = Date.now();
  const nav = page.goto(url);
  await there;
  await page.getByLabel('Card number').fill('4242', { timeout: 10_000 });
  return { page, ctx, nav, wall: Date.now() - t0 };
}

/**
 * The same measure on a page holding one labelled field and nothing else, from a bare Node server:
 * what this machine's Chromium takes before any page can be typed in (a fresh renderer, its first
 * layout and paint, the driver's own work), the floor under the pay page's figure.
 */
async function floorOf(browser: Browser): Promise<number> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end('<!doctype html><html lang="en"><title>Floor</title><label>Card number <input id="card-number"></label>');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  try {
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    const input: number[] = [];
    for (let i = 0; i < RUNS + 1; i++) {
      const { page, ctx, nav } = await typeOnArrival(browser, url);
      await nav;
      if (i > 0) input.push(await page.evaluate(() => (window as unknown as Win).firstInput!));
      await ctx.close();
    }
    return median(input);
  } finally {
    await new Promise((r) => server.close(r));
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await runPayPageBench();
