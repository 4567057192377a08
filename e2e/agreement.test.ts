import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { Browser, Page } from 'playwright-core';
import { validOnboarding } from '../apps/server/src/testing/fixtures.js';
import { startTestServer, type TestServer } from '../apps/server/src/testing/harness.js';
import { eventsOf, rows } from '../apps/server/src/testing/payments.js';
import {
  emulatedStripe,
  startStripeEmulator,
  type StripeEmulator,
} from '../apps/server/src/testing/stripe-emulator.js';
import { launchChromium } from './browser.js';
import { checkState } from './support.js';

/**
 * The merchant agreement page in Chromium, with the Stripe connector (its Connected Account
 * Agreement shown): read, refused unticked, accepted by keyboard alone, axe-clean in every state.
 */

let emu: StripeEmulator;
let s: TestServer;
let browser: Browser;
beforeAll(async () => {
  emu = await startStripeEmulator();
  const processor = emulatedStripe(emu);
  s = await startTestServer({ processor });
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await s?.close();
  await emu?.close();
});

async function onboard(): Promise<{ path: string; merchantId: string; account: string }> {
  const auth = await s.credentials();
  const res = await s.http({
    method: 'POST',
    path: '/api/v1/onboarding',
    auth,
    json: validOnboarding({ business_name: 'Keyboard Kites LLC' }),
  });
  expect(res.status).toBe(201);
  const [m] = await rows<{ id: string; stripe_account_id: string }>(
    s,
    sql`select id, stripe_account_id from merchants where public_key = ${res.body.data.public_key}`,
  );
  return { path: new URL(res.body.data.agreement_link).pathname, merchantId: m!.id, account: m!.stripe_account_id };
}

/** Presses Tab until the focused element matches `selector`. */
async function tabTo(page: Page, selector: string): Promise<void> {
  for (let i = 0; i < 40; i++) {
    if (await page.evaluate((sel) => document.activeElement?.matches(sel) ?? false, selector)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached ${selector}`);
}

describe('the merchant agreement page', () => {
  it('is read, refused unticked and accepted by keyboard; documents.signed and the terms acceptance at Stripe', async () => {
    const { path, merchantId, account } = await onboard();
    const ctx = await browser.newContext({ locale: 'en-US', viewport: { width: 1024, height: 800 } });
    const page = await ctx.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    // A CSP refusal would show here (the 400 of the unticked form is expected, and not).
    page.on(
      'console',
      (m) => m.type() === 'error' && /Content Security Policy/.test(m.text()) && errors.push(m.text()),
    );
    await page.goto(`${s.url}${path}`);
    await expect(page.title()).resolves.toBe('Merchant agreement – Keyboard Kites LLC');
    expect(await page.getByRole('link', { name: 'Stripe Connected Account Agreement' }).getAttribute('href')).toBe(
      'https://stripe.com/connect-account/legal',
    );
    await checkState(page, 'agreement');

    // Sent unticked: the error summary takes focus and links to the box.
    await tabTo(page, 'button[type=submit]');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'There is a problem' }).waitFor();
    expect(await page.evaluate(() => document.activeElement?.className)).toBe('error-summary');
    expect(await page.getByRole('checkbox').getAttribute('aria-invalid')).toBe('true');
    await checkState(page, 'agreement-error');
    expect(await eventsOf(s, merchantId, 'documents.signed')).toEqual([]);

    await tabTo(page, '#accept');
    await page.keyboard.press('Space');
    expect(await page.getByRole('checkbox').isChecked()).toBe(true);
    await tabTo(page, 'button[type=submit]');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Agreement accepted' }).waitFor();
    expect(await page.getByRole('status').textContent()).toMatch(/^Accepted on /);
    await checkState(page, 'agreement-accepted');

    const userAgent = await page.evaluate(() => navigator.userAgent);
    expect(emu.accounts.get(account)!.tos_acceptance).toMatchObject({ ip: '127.0.0.1', user_agent: userAgent });
    expect(await eventsOf(s, merchantId, 'documents.signed')).toEqual([
      expect.objectContaining({ merchant_id: merchantId, business_name: 'Keyboard Kites LLC' }),
    ]);
    expect(errors).toEqual([]);
    await ctx.close();
  });

  it('reflows at 320 px without scrolling sideways', async () => {
    const { path } = await onboard();
    const ctx = await browser.newContext({ locale: 'en-US', viewport: { width: 320, height: 640 } });
    const page = await ctx.newPage();
    await page.goto(`${s.url}${path}`);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
    const box = await page.getByRole('checkbox').boundingBox();
    expect(box!.width).toBeGreaterThanOrEqual(24);
    await checkState(page, 'agreement-320');
    await ctx.close();
  });
});
