import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { newMerchant } from '../apps/server/src/testing/fixtures.js';
import { startTestServer } from '../apps/server/src/testing/harness.js';
import { launchChromium } from '../e2e/browser.js';

/**
 * Pay button budget: from a click on a shop page's pay button (another origin, the script tag
 * already loaded) to the card number in the modal accepting typing, in Chromium on localhost,
 * each run in a fresh browser context (nothing cached). Two ways in:
 * - `cold`: the click comes with no warning (the widget chunk is fetched on the click);
 * - `hover`: the pointer rests on the button first (BENCH_WIDGET_HOVER_MS, default 150 ms, about
 *   the shortest hover-to-click of a person), so the loader has warmed up on `pointerover`.
 * Each run also says where its time went (the phases below), to find what to cut.
 *
 * The figure is the browser's clocks, not the driver's: the shop page's `click` event → the first
 * `input` event the pay page in the modal handled (both as epoch times, `performance.timeOrigin +
 * now()`). The driver types the moment the card number exists (the framed page tells it through a
 * binding), not on Playwright's locator polling, whose 20/50/100 ms back-off would add its own wait.
 */
const RUNS = Number(process.env.BENCH_WIDGET_RUNS ?? 11);
const HOVER_MS = Number(process.env.BENCH_WIDGET_HOVER_MS ?? 150);

interface Phases {
  total: number;
  chunk: number | null;
  link: number | null;
  frame: number | null;
  html: number | null;
  css: number | null;
  form: number | null;
}

/** Phase ends, in ms after the click: widget chunk loaded, pay link answered, the frame's navigation started, pay page HTML and CSS in, and the form filled. */
async function phases(page: Page, clickAt: number, filledAt: number): Promise<Phases> {
  const top = await page.evaluate(() => ({
    origin: performance.timeOrigin,
    entries: (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).map((e) => ({ name: e.name, start: e.startTime, end: e.responseEnd })),
  }));
  const frame = page.frames().find((f) => /\/pay\/(?!preload)/.test(f.url()));
  const inner = frame
    ? await frame.evaluate(() => ({
        origin: performance.timeOrigin,
        nav: (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined)?.responseEnd ?? null,
        css: (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).find((e) => e.name.endsWith('.css'))?.responseEnd ?? null,
      }))
    : null;
  const at = (origin: number, t: number | null | undefined) => (t == null ? null : Math.round(origin + t - clickAt));
  const last = (part: string) => top.entries.filter((e) => e.name.includes(part)).at(-1);
  return {
    total: Math.round(filledAt - clickAt),
    chunk: at(top.origin, last('/js/widgets.')?.end),
    link: at(top.origin, last('/widget/v1/pay-links')?.end),
    frame: inner ? at(inner.origin, 0) : null,
    html: inner ? at(inner.origin, inner.nav) : null,
    css: inner ? at(inner.origin, inner.css) : null,
    form: Math.round(filledAt - clickAt),
  };
}

export async function runWidgetPayBench(): Promise<Record<'cold' | 'hover', { median: number; p90: number }>> {
  const s = await startTestServer();
  const browser = await launchChromium();
  const m = await newMerchant(s);
  const shop = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(`<!doctype html><html lang="en"><head><title>Shop</title>
<script src="${s.url}/js/dynamic-launch.js?remit_merchant_public_key=${m.public_key}"></script></head>
<body><button id="pay" onclick="getPaymentPage(10)">Pay</button>
</body></html>`);
  });
  await new Promise<void>((r) => shop.listen(0, '127.0.0.1', r));
  const url = `http://localhost:${(shop.address() as AddressInfo).port}/`;
  const out = {} as Record<'cold' | 'hover', { median: number; p90: number }>;
  try {
    for (const mode of ['cold', 'hover'] as const) {
      const runs: Phases[] = [];
      for (let i = 0; i < RUNS + 1; i++) {
        const { page, ctx, clickAt, filledAt } = await clickToTyping(browser, url, mode);
        if (i > 0) runs.push(await phases(page, clickAt, filledAt)); // the first run warms the server
        await ctx.close();
      }
      const sorted = runs.map((r) => r.total).sort((a, b) => a - b);
      const median = Math.round(sorted[Math.floor(sorted.length / 2)]!);
      const p90 = Math.round(sorted[Math.floor(sorted.length * 0.9)]!);
      const mid = (k: keyof Phases) => {
        const v = runs.map((r) => r[k]).filter((x): x is number => x !== null).sort((a, b) => a - b);
        return v.length ? `${v[Math.floor(v.length / 2)]}` : '-';
      };
      console.log(`\n== pay button (${mode}${mode === 'hover' ? ` ${HOVER_MS} ms` : ''}): click → card number in the modal accepts typing (Chromium, localhost, fresh context) ==`);
      console.log(`median ${median} ms   p90 ${p90} ms   (${runs.length} runs)   budget < 300 ms ${median < 300 ? 'ok' : 'OVER'}`);
      console.log(
        `phase ends after the click (medians, ms): chunk ${mid('chunk')}  pay link ${mid('link')}  frame navigates ${mid('frame')}  pay page HTML ${mid('html')}  CSS ${mid('css')}  form filled ${mid('form')}`,
      );
      out[mode] = { median, p90 };
    }
    const floor = await floorOf(browser);
    console.log(`floor: the same click (pointer resting first) opening a frame of another origin, its process warm, with one field and nothing else, no pay link (bare Node servers): median ${floor} ms`);
    return out;
  } finally {
    await browser.close();
    await new Promise((r) => shop.close(r));
    await s.close();
  }
}

/**
 * One run in a fresh context: the shop page, the pointer resting on `#pay` first (`hover`) or not,
 * a click, and typing into the card number of the framed page (`/pay/…`, not the preload frame)
 * the moment it exists. Returns the `click` event's and the first `input` event's epoch times.
 */
async function clickToTyping(browser: Browser, url: string, mode: 'cold' | 'hover') {
  const ctx = await browser.newContext();
  let fieldThere!: () => void;
  const there = new Promise<void>((resolve) => (fieldThere = resolve));
  await ctx.exposeBinding('__remitFieldReady', () => fieldThere());
  await ctx.addInitScript(() => {
    const w = window as unknown as { clickAt?: number; firstInput?: number; __remitFieldReady: () => void };
    // No named functions in here: tsx would wrap them in a helper the browser does not have.
    if (window === window.top) {
      document.addEventListener('click', () => (w.clickAt ??= performance.timeOrigin + performance.now()), true);
      return;
    }
    if (!/^\/pay\/(?!preload)/.test(location.pathname)) return;
    document.addEventListener('input', () => (w.firstInput ??= performance.timeOrigin + performance.now()), true);
    const seen = new MutationObserver(() => {
      if (!document.getElementById('card-number')) return;
      seen.disconnect();
      w.__remitFieldReady();
    });
    seen.observe(document, { childList: true, subtree: true });
  });
  const page = await ctx.newPage();
  await page.goto(url);
  await page.waitForFunction(() => typeof (window as unknown as { getPaymentPage?: unknown }).getPaymentPage === 'function');
  if (mode === 'hover') {
    await page.hover('#pay');
    await page.waitForTimeout(HOVER_MS);
  }
  await page.click('#pay');
  await there;
  const frame = page.frames().find((f) => /\/pay\/(?!preload)/.test(f.url()))!;
  await frame.getByLabel('Card number').fill('4242', { timeout: 10_000 });
  const clickAt = await page.evaluate(() => (window as unknown as { clickAt: number }).clickAt);
  const filledAt = await frame.evaluate(() => (window as unknown as { firstInput: number }).firstInput);
  return { page, ctx, clickAt, filledAt };
}

/**
 * The same click with nothing of ours in it: a shop page whose button puts a frame of another
 * origin holding one labelled field (bare Node servers, no widget, no pay link, the pointer resting
 * first), that origin's process already running (a hidden frame of it since the page loaded, as
 * the widget's warm-up gives). What this machine's Chromium takes for a cross-site frame to take
 * typing: the floor.
 */
async function floorOf(browser: Browser): Promise<number> {
  const field = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end('<!doctype html><html lang="en"><title>Floor</title><label>Card number <input id="card-number"></label>');
  });
  await new Promise<void>((r) => field.listen(0, '127.0.0.1', r));
  const src = `http://127.0.0.1:${(field.address() as AddressInfo).port}/pay/floor`;
  const shop = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(`<!doctype html><html lang="en"><title>Shop</title><script>window.getPaymentPage = () => {
  const f = document.createElement('iframe'); f.src = ${JSON.stringify(src)}; f.title = 'Payment form'; document.body.append(f);
};</script><button id="pay" onclick="getPaymentPage()">Pay</button>
<iframe hidden src="${new URL(src).origin}/warm"></iframe>`);
  });
  await new Promise<void>((r) => shop.listen(0, '127.0.0.1', r));
  try {
    const url = `http://localhost:${(shop.address() as AddressInfo).port}/`;
    const took: number[] = [];
    for (let i = 0; i < RUNS + 1; i++) {
      const { ctx, clickAt, filledAt } = await clickToTyping(browser, url, 'hover');
      if (i > 0) took.push(filledAt - clickAt);
      await ctx.close();
    }
    return Math.round(took.sort((a, b) => a - b)[Math.floor(took.length / 2)]!);
  } finally {
    await new Promise((r) => field.close(r));
    await new Promise((r) => shop.close(r));
  }
}

if (process.argv[1]?.endsWith('widget-pay.ts')) await runWidgetPayBench();
