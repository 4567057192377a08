import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { AxeBuilder } from '@axe-core/playwright';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { expect } from 'vitest';
import { newMerchant, type TestMerchant } from '../apps/server/src/testing/fixtures.js';
import { startTestServer, type TestServer } from '../apps/server/src/testing/harness.js';
import { launchChromium } from './browser.js';
import { fillCard as kitFillCard } from '@remit/testing/playwright';

export const SCREENSHOTS = join(process.cwd(), 'test-output', 'screenshots');
mkdirSync(SCREENSHOTS, { recursive: true });

export const YY = String((new Date().getUTCFullYear() + 3) % 100).padStart(2, '0');
export const CARDS = {
  visa: '4242424242424242',
  amex: '378282246310005',
  declined: '4000000000000002',
  insufficient: '4000000000009995',
  threeDs: '4000000000003220',
};

export interface World {
  s: TestServer;
  m: TestMerchant;
  browser: Browser;
  close(): Promise<void>;
}

/** A real server (PGlite or Postgres per REMIT_TEST_DB), an approved merchant, and Chromium. */
export async function startWorld(): Promise<World> {
  const s = await startTestServer({ workers: { messages: { pollMs: 20 }, webhooks: { pollMs: 20 } } });
  const m = await newMerchant(s);
  const browser = await launchChromium();
  return {
    s,
    m,
    browser,
    async close() {
      await browser.close();
      await s.close();
    },
  };
}

/** `POST /pay-link` (or `/requests` when an order id, tax… is given) through the real API → link id. */
export async function createLink(
  w: World,
  body: Record<string, unknown> = {},
  who: TestMerchant = w.m,
): Promise<string> {
  const simple = Object.keys(body).every((k) =>
    ['amount', 'allow_card', 'allow_ach', 'invoice_number', 'embed_origin'].includes(k),
  );
  const res = await w.s.http({
    method: 'POST',
    path: simple ? '/api/v1/pay-link' : '/api/v1/requests',
    auth: who.auth,
    json: {
      merchant_key: who.merchant_key,
      amount: '10.00',
      ...(simple ? {} : { order_id: `o-${Date.now()}-${Math.random().toString(36).slice(2, 8)}` }),
      ...body,
    },
  });
  if (res.status !== 200) throw new Error(`link: ${res.status} ${res.text}`);
  return simple ? String(res.body.data.payment_link).split('/').pop()! : res.body.data.link_id;
}

export async function transactions(w: World): Promise<Array<Record<string, any>>> {
  const res = await w.s.http({
    method: 'GET',
    path: `/api/v1/merchant/transactions?merchant_key=${w.m.merchant_key}&limit=100`,
    auth: w.m.auth,
  });
  if (res.status !== 200) throw new Error(`transactions: ${res.status} ${res.text}`);
  return res.body.data;
}

/** Uncaught errors in any page: checkState fails on them. */
export const pageErrors: string[] = [];

export async function newPage(w: World, opts: BrowserContextOptions = {}): Promise<Page> {
  const ctx = await w.browser.newContext({ locale: 'en-US', viewport: { width: 1024, height: 800 }, ...opts });
  const page = await ctx.newPage();
  page.on('pageerror', (e) => pageErrors.push(`${page.url()}: ${e.message}`));
  return page;
}

/** Screenshot the state and scan it with axe: no violations of WCAG 2.1 A/AA or best practice. */
export async function checkState(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
  const result = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
    .analyze();
  const found = result.violations.map(
    (v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`,
  );
  expect(found, name).toEqual([]);
  expect(pageErrors, name).toEqual([]);
}

/** The test kit's fillCard (@remit/testing/playwright), as merchants use it: every pay-page test goes through it. */
export async function fillCard(page: Page, number: string, opts: { cvc?: string; name?: string; zip?: string } = {}) {
  await kitFillCard(page, {
    number,
    expiry: `12/${YY}`,
    cvc: opts.cvc ?? '123',
    name: opts.name ?? 'Ada Lovelace',
    zip: opts.zip ?? '94105',
  });
}
