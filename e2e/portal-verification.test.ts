import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../apps/server/src/testing/harness.js';
import { newMerchant } from '../apps/server/src/testing/fixtures.js';
import { launchChromium } from './browser.js';
import { checkPortal, portalPage } from './portal-support.js';

/**
 * The portal's merchants view shows what the processor still needs: a sandbox merchant put in a
 * restricted state with a refused document (`POST /sandbox/merchant-verification`), in Chromium,
 * scanned by axe and photographed at 1280 and 390 px (portal-merchants-verification-*.png).
 */
let s: TestServer;
let browser: Browser;
let page: Page;
beforeAll(async () => {
  s = await startTestServer();
  browser = await launchChromium();
  page = await portalPage(browser);
});
afterAll(async () => {
  await browser?.close();
  await s?.close();
});

describe('the portal shows each merchant’s verification', () => {
  it('restricted with a refused document, beside a complete one', async () => {
    const auth = await s.credentials();
    await newMerchant(s, { auth, business_name: 'Complete Coffee' });
    const held = await newMerchant(s, { auth, business_name: 'Held Hardware' });
    const set = await s.http({
      method: 'POST',
      path: '/sandbox/merchant-verification',
      auth,
      json: {
        merchant_key: held.merchant_key,
        restricted: true,
        errors: [
          {
            requirement: 'individual.verification.document',
            code: 'verification_document_expired',
            reason: 'The document has expired.',
          },
        ],
      },
    });
    expect(set.status).toBe(200);

    await page.goto(`${s.url}/portal`);
    await page.getByLabel('Client ID').fill(auth[0]);
    await page.getByLabel('Secret key').fill(auth[1]);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Merchants' }).waitFor();
    const card = page.locator('li.item', { has: page.getByRole('heading', { name: 'Held Hardware' }) });
    await card.getByText('Restricted: payments paused').waitFor();
    expect(await card.locator('dd', { hasText: 'requirements.past_due' }).count()).toBe(1);
    expect(await card.getByText('Identity document of the owner: The document has expired.').count()).toBe(1);
    expect(await card.getByText('Charges off, payouts off').count()).toBe(1);
    const ok = page.locator('li.item', { has: page.getByRole('heading', { name: 'Complete Coffee' }) });
    expect(await ok.locator('.badge--approved', { hasText: 'Complete' }).count()).toBe(1);
    await checkPortal(page, 'merchants-verification');
  });
});
