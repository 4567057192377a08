import { join } from 'node:path';
import { AxeBuilder } from '@axe-core/playwright';
import type { Browser, Page } from 'playwright-core';
import { expect } from 'vitest';
import { SCREENSHOTS } from './support.js';

/** The two widths every portal view is looked at: a desktop and a phone. */
export const WIDTHS = [1280, 390] as const;

export const portalErrors: string[] = [];

export async function portalPage(browser: Browser, width = 1280): Promise<Page> {
  const ctx = await browser.newContext({ locale: 'en-US', viewport: { width, height: 900 } });
  await ctx.grantPermissions(['clipboard-read', 'clipboard-write']);
  const page = await ctx.newPage();
  page.on('pageerror', (e) => portalErrors.push(`${page.url()}: ${e.message}`));
  page.on('console', (m) => {
    // A CSP violation is reported on the console: the page must cause none.
    if (m.type() === 'error' && /Content Security Policy/i.test(m.text()))
      portalErrors.push(`${page.url()}: ${m.text()}`);
  });
  return page;
}

/**
 * Screenshots the state at 1280 and 390 px (`test-output/screenshots/portal-<name>-<width>.png`)
 * and scans each with axe: no violation of WCAG 2.1 A/AA or best practice, no horizontal scroll
 * on the phone, no page error.
 */
export async function checkPortal(page: Page, name: string): Promise<void> {
  const original = page.viewportSize()!;
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    await page.waitForTimeout(50);
    await page.screenshot({ path: join(SCREENSHOTS, `portal-${name}-${width}.png`), fullPage: true });
    // The email preview is a sandboxed frame that runs no script, so axe cannot enter it: its content is the email, not the portal.
    const result = await new AxeBuilder({ page })
      .exclude('iframe.email')
      .options({ iframes: false })
      .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
      .analyze();
    const found = result.violations.map(
      (v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`,
    );
    expect(found, `${name} at ${width} px`).toEqual([]);
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow, `${name} at ${width} px scrolls sideways`).toBeLessThanOrEqual(0);
  }
  await page.setViewportSize(original);
  expect(portalErrors, name).toEqual([]);
}

/** Everything the page's origin keeps in the browser: cookies readable by script, both storages, IndexedDB, caches. */
export async function browserStorage(page: Page): Promise<string> {
  return page.evaluate(async () => {
    const dbs = (await indexedDB.databases?.()) ?? [];
    const caches_ = 'caches' in self ? await caches.keys() : [];
    return JSON.stringify({
      cookie: document.cookie,
      local: Object.entries(localStorage),
      session: Object.entries(sessionStorage),
      indexedDB: dbs.map((d) => d.name),
      caches: caches_,
    });
  });
}
