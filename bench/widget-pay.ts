import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, CDPSession, Frame, Page } from 'playwright-core';
import { newMerchant } from '../apps/server/src/testing/fixtures.js';
import { DEFAULT_WIDGET_LIMITS } from '../apps/server/src/plugins/widget-limits.js';
import { startTestServer } from '../apps/server/src/testing/harness.js';
import { launchChromium } from '../e2e/browser.js';

/**
 * Pay button budget: from a click on a shop page's pay button (another origin, the script tag
 * already loaded) to the card number in the modal accepting typing, in Chromium on localhost.
 *
 * The figure is the browser's clocks: the shop page's `click` event → the first `input` event the
 * card number in the modal handled (epoch times, `performance.timeOrigin + now()`). The driver does
 * not wait for the field: from the click on it sends, through the browser's own input pipeline
 * (CDP `Input.dispatchMouseEvent` at the card number's place in the modal, found once by a warm-up
 * run, then `Input.insertText`), a click and a keystroke every TICK_MS, until the field has handled
 * one, as a person typing the instant the field is there would. (Playwright's `fill` would add
 * its own actionability checks and injected script, 100–180 ms here, after the field exists.)
 *
 * Two setups:
 * - `running`: one browser context for all runs, each run in a NEW tab with the HTTP cache and
 *   cookies cleared first (CDP `Network.clearBrowserCache`/`clearBrowserCookies`): a shopper's
 *   running browser on the shop for the first time. The budget is judged here.
 * - `fresh`: a new browser context per run (a new profile: its first renderers and network state).
 * and two ways in:
 * - `cold`: the click comes with no warning (the pointer arrives with the press; the widget chunk
 *   is fetched on it);
 * - `hover`: the pointer rests on the button first (BENCH_WIDGET_HOVER_MS, default 150 ms, about
 *   the shortest hover-to-click of a person), so the loader has warmed up on `pointerover`.
 * Each also prints where its time went (the phases below), and a floor per setup.
 */
const RUNS = Number(process.env.BENCH_WIDGET_RUNS ?? 11);
const HOVER_MS = Number(process.env.BENCH_WIDGET_HOVER_MS ?? 150);
const TICK_MS = 4;
const SETUPS = (process.env.BENCH_WIDGET_SETUPS ?? 'running,fresh').split(',') as Setup[];

type Mode = 'cold' | 'hover';
type Setup = 'running' | 'fresh';
type Point = { x: number; y: number };

interface Phases {
  total: number;
  chunk: number | null;
  link: number | null;
  /** The pay frame's document started (negative: it was there before the click, warm). */
  frame: number | null;
  html: number | null;
  /** The pay page rendered (hydrated, or the warm frame's render of the link): `remit:ready`. */
  ready: number | null;
}

/** Hooks the page calls back through a binding: the card number handled its first `input`. */
interface Hooks {
  typed: (f: Frame) => void;
}

/**
 * The clocks every page of the context keeps: the top page's `click`, and in any frame the first
 * `input` event on `#card-number` (then the driver is told, and stops typing).
 */
async function instrument(ctx: BrowserContext, hooks: Hooks): Promise<void> {
  await ctx.exposeBinding('__remitTyped', (source) => hooks.typed(source.frame));
  await ctx.addInitScript(() => {
    const w = window as unknown as { clickAt?: number; firstInput?: number; __remitTyped: () => void };
    // No named functions in here: tsx would wrap them in a helper the browser does not have.
    if (window === window.top) {
      document.addEventListener('click', () => (w.clickAt ??= performance.timeOrigin + performance.now()), true);
      return;
    }
    document.addEventListener(
      'input',
      (e) => {
        if ((e.target as Element).id !== 'card-number' || w.firstInput) return;
        w.firstInput = performance.timeOrigin + performance.now();
        void w.__remitTyped();
      },
      true,
    );
  });
}

/** Phase ends, in ms after the click: widget chunk loaded, pay link answered, the frame's document started, its HTML in, the page rendered. */
async function phases(page: Page, frame: Frame, clickAt: number, typedAt: number): Promise<Phases> {
  const top = await page.evaluate(() => ({
    origin: performance.timeOrigin,
    entries: (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).map((e) => ({
      name: e.name,
      end: e.responseEnd,
    })),
  }));
  const inner = await frame.evaluate(() => ({
    origin: performance.timeOrigin,
    nav:
      (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined)?.responseEnd ?? null,
    ready: performance.getEntriesByName('remit:ready')[0]?.startTime ?? null,
  }));
  const at = (origin: number, t: number | null | undefined) => (t == null ? null : Math.round(origin + t - clickAt));
  const last = (part: string) => top.entries.filter((e) => e.name.includes(part)).at(-1);
  return {
    total: Math.round(typedAt - clickAt),
    chunk: at(top.origin, last('/js/widgets.')?.end),
    link: at(top.origin, last('/widget/v1/pay-links')?.end),
    frame: at(inner.origin, 0),
    html: at(inner.origin, inner.nav),
    ready: at(inner.origin, inner.ready),
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const click = async (cdp: CDPSession, p: Point) => {
  await cdp.send('Input.dispatchMouseEvent', { type: 'mousePressed', x: p.x, y: p.y, button: 'left', clickCount: 1 });
  await cdp.send('Input.dispatchMouseEvent', { type: 'mouseReleased', x: p.x, y: p.y, button: 'left', clickCount: 1 });
};

/** Where the card number is on the screen (the middle of it), in whichever frame holds it. */
async function fieldPoint(page: Page): Promise<Point> {
  for (let i = 0; i < 1000; i++) {
    for (const f of page.frames()) {
      const box = await f
        .locator('#card-number')
        .boundingBox({ timeout: 50 })
        .catch(() => null);
      if (box && box.width > 0) return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
    }
    await sleep(20);
  }
  throw new Error('no card number appeared');
}

/**
 * One run in `page` (a new tab): the shop page, the pointer resting on `#pay` first (`hover`) or
 * not, a press on it, and from then on a click on the card number's place and a keystroke every
 * TICK_MS until the card number has handled one. `field` unknown (the warm-up run): found on the
 * screen first. Returns the phases, and where the field was.
 */
async function clickToTyping(page: Page, hooks: Hooks, url: string, mode: Mode, field: Point | null, clear: boolean) {
  const cdp = await page.context().newCDPSession(page);
  if (clear) {
    await cdp.send('Network.clearBrowserCache');
    await cdp.send('Network.clearBrowserCookies');
  }
  await page.goto(url);
  await page.waitForFunction(
    () => typeof (window as unknown as { getPaymentPage?: unknown }).getPaymentPage === 'function',
  );
  const box = (await page.locator('#pay').boundingBox())!;
  const button = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
  if (mode === 'hover') {
    await cdp.send('Input.dispatchMouseEvent', { type: 'mouseMoved', x: button.x, y: button.y });
    await sleep(HOVER_MS);
  }
  let typedIn: Frame | null = null;
  const typed = new Promise<Frame>((resolve) => (hooks.typed = resolve)).then((f) => (typedIn = f));
  await click(cdp, button);
  const at = field ?? (await fieldPoint(page));
  const until = Date.now() + 15_000;
  for (let n = 1; !typedIn; n++) {
    // The binding is the quick way back; a frame whose binding is not there yet is found by looking.
    if (n % 10 === 0)
      for (const f of page.frames().slice(1))
        if (await f.evaluate(() => !!(window as unknown as { firstInput?: number }).firstInput).catch(() => false))
          typedIn = f;
    if (Date.now() > until) {
      const seen = await Promise.all(
        page
          .frames()
          .map((f) =>
            f
              .evaluate(() => [
                location.href,
                document.activeElement?.id,
                (document.getElementById('card-number') as HTMLInputElement | null)?.value,
                (window as unknown as { firstInput?: number }).firstInput,
              ])
              .catch(String),
          ),
      );
      throw new Error(
        `no input handled by the card number 15 s after the click (${url}, ${mode}, at ${JSON.stringify(at)}): ${JSON.stringify(seen)}`,
      );
    }
    await click(cdp, at);
    await cdp.send('Input.insertText', { text: '4' });
    await Promise.race([typed, sleep(TICK_MS)]);
  }
  const frame: Frame = typedIn ?? (await typed);
  const clickAt = await page.evaluate(() => (window as unknown as { clickAt: number }).clickAt);
  const typedAt = await frame.evaluate(() => (window as unknown as { firstInput: number }).firstInput);
  await cdp.detach();
  return { phases: await phases(page, frame, clickAt, typedAt), field: at };
}

/** RUNS runs (after one warm-up) in a setup: a new tab of one context each (`running`), or a new context each (`fresh`). */
async function series(
  browser: Browser,
  url: string,
  setup: Setup,
  mode: Mode,
  field: { at: Point | null },
): Promise<Phases[]> {
  const hooks: Hooks = { typed: () => {} };
  const shared = setup === 'running' ? await browser.newContext() : null;
  if (shared) await instrument(shared, hooks);
  const runs: Phases[] = [];
  try {
    for (let i = 0; i < RUNS + 1; i++) {
      const ctx = shared ?? (await browser.newContext());
      if (!shared) await instrument(ctx, hooks);
      const page = await ctx.newPage();
      try {
        const r = await clickToTyping(page, hooks, url, mode, field.at, !!shared);
        field.at ??= r.field;
        if (i > 0) runs.push(r.phases); // the first run warms the server (and finds the field)
      } catch (e) {
        // Rare here: the card number focused but no keystroke reaching it. Said, and left out.
        console.log(`(a ${setup} ${mode} run left out: ${(e as Error).message.slice(0, 300)})`);
      }
      await page.close();
      if (!shared) await ctx.close();
    }
  } finally {
    await shared?.close();
  }
  return runs;
}

const pick = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * q)]!;

export async function runWidgetPayBench(): Promise<Record<`${Setup} ${Mode}`, { median: number; p90: number }>> {
  // Every run's click opens a pay link from this one address: the widget's limits (120 calls and
  // 30 pay links a minute per address) would refuse runs past a few dozen per series. Raised, not off.
  const raised = { limit: 1_000_000, windowMs: 60_000 };
  const s = await startTestServer({
    widgetLimits: {
      ...DEFAULT_WIDGET_LIMITS,
      perKey: { ...DEFAULT_WIDGET_LIMITS.perKey, ...raised },
      perAddress: { ...DEFAULT_WIDGET_LIMITS.perAddress, ...raised },
      payLinksPerAddress: { ...DEFAULT_WIDGET_LIMITS.payLinksPerAddress, ...raised },
    },
  });
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
  const out = {} as Record<`${Setup} ${Mode}`, { median: number; p90: number }>;
  const field = { at: null as Point | null };
  try {
    for (const setup of SETUPS) {
      for (const mode of ['cold', 'hover'] as const) {
        const runs = await series(browser, url, setup, mode, field);
        const totals = runs.map((r) => r.total);
        const median = pick(totals, 0.5);
        const p90 = pick(totals, 0.9);
        const mid = (k: keyof Phases) => {
          const v = runs.map((r) => r[k]).filter((x): x is number => x !== null);
          return v.length ? `${pick(v, 0.5)}` : '-';
        };
        const where = setup === 'running' ? 'running browser, new tab, cache and cookies cleared' : 'fresh context';
        const judged = setup === 'running' ? `   budget < 300 ms ${median < 300 ? 'ok' : 'OVER'}` : '';
        console.log(
          `\n== pay button (${setup}, ${mode}${mode === 'hover' ? ` ${HOVER_MS} ms` : ''}): click → card number in the modal handles typing (Chromium, localhost, ${where}) ==`,
        );
        console.log(`median ${median} ms   p90 ${p90} ms   (${runs.length} runs)${judged}`);
        console.log(
          `phase ends after the click (medians, ms): chunk ${mid('chunk')}  pay link ${mid('link')}  pay frame's document ${mid('frame')}  its HTML ${mid('html')}  rendered ${mid('ready')}  first input ${mid('total')}`,
        );
        out[`${setup} ${mode}`] = { median, p90 };
      }
      const floor = await floorOf(browser, setup);
      console.log(
        `floor (${setup}): the same click (pointer resting first) opening a frame of another origin, its process warm, with one field and nothing else, no pay link (bare Node servers): median ${floor} ms`,
      );
    }
    return out;
  } finally {
    await browser.close();
    await new Promise((r) => shop.close(r));
    await s.close();
  }
}

/**
 * The same click with nothing of ours in it: a shop page whose button puts a frame of another
 * origin holding one labelled field (bare Node servers, no widget, no pay link, the pointer resting
 * first), that origin's process already running (a hidden frame of it since the page loaded, as
 * the widget's warm-up gives). What this machine's Chromium takes for a cross-site frame to take
 * typing: the floor.
 */
async function floorOf(browser: Browser, setup: Setup): Promise<number> {
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
    const runs = await series(browser, url, setup, 'hover', { at: null });
    return pick(
      runs.map((r) => r.total),
      0.5,
    );
  } finally {
    await new Promise((r) => field.close(r));
    await new Promise((r) => shop.close(r));
  }
}

if (process.argv[1]?.endsWith('widget-pay.ts')) await runWidgetPayBench();
