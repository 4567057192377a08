import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemo, type Demo } from '@remit/demo/serve';
import { CARDS, newPage, pageErrors, SCREENSHOTS, startWorld, transactions, YY, type World } from './support.js';

/**
 * The React and the Vue demo apps (apps/demo, built; @remit/react and @remit/vue from their dist)
 * each on its own origin, the Remit server on another: click the pay button, pay with the test
 * card in the modal, see the completed-transactions table update. Needs `npm run build` first.
 */
let w: World;
let demo: Demo;

beforeAll(async () => {
  w = await startWorld();
  demo = await startDemo({ remitUrl: w.s.url, publicKey: w.m.public_key });
});
afterAll(async () => {
  await demo?.close();
  await w?.close();
});

const table = (page: Page) => page.locator('[data-remit-widget="completed-transactions"] table');

async function payWithTestCard(page: Page) {
  const form = page.frameLocator('iframe[title^="Payment form"]');
  await form.getByLabel('Card number').fill(CARDS.visa);
  await form.getByLabel('Expiry date').fill(`12 / ${YY}`);
  await form.getByLabel('Security code').fill('123');
  await form.getByLabel('Name on card').fill('Ada Lovelace');
  await form.getByLabel('ZIP code').fill('94105');
  await form.getByRole('button', { name: /^Pay/ }).click();
}

describe.each([
  ['React', () => demo.react, 1],
  ['Vue', () => demo.vue, 2],
] as const)('the %s demo app on its own origin', (name, origin, paidSoFar) => {
  it('pay button → modal → test card → resolved with the transaction, the table shows it', async () => {
    const page = await newPage(w);
    const scripts: string[] = [];
    page.on('request', (r) => r.url().includes('/js/dynamic-launch.js') && scripts.push(r.url()));
    await page.goto(origin());
    expect(new URL(origin()).origin).not.toBe(new URL(w.s.url).origin);
    // Loaded: the empty state before any payment, else the payments made so far (the React app's, for the Vue one).
    const before = paidSoFar === 1 ? ['No completed transactions yet.'] : [expect.stringContaining('$12.50')];
    await expect.poll(() => table(page).locator('tbody tr').allTextContents()).toEqual(before);
    // One script per page, whatever mounted it (the React app runs in StrictMode).
    expect(scripts).toEqual([`${w.s.url}/js/dynamic-launch.js?remit_merchant_public_key=${w.m.public_key}`]);
    expect(await page.locator('[data-remit-widget="completed-transactions"]').count()).toBe(1);
    await page.screenshot({ path: `${SCREENSHOTS}/wrappers-${name.toLowerCase()}-page.png`, fullPage: true });

    await page.getByRole('button', { name: 'Buy for $12.50' }).click();
    await page.getByRole('dialog').waitFor();
    await page.frameLocator('iframe[title^="Payment form"]').getByLabel('Card number').waitFor();
    await page.screenshot({ path: `${SCREENSHOTS}/wrappers-${name.toLowerCase()}-modal.png`, fullPage: true });
    await payWithTestCard(page);

    const status = page.getByRole('status').filter({ hasText: /^Paid: / });
    await status.waitFor();
    const txn = (await status.textContent())!.replace('Paid: ', '');
    expect(txn).toMatch(/^txn_/);
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
    const stored = (await transactions(w)).find((t) => t.transaction_id === txn);
    expect(stored).toMatchObject({ amount: '12.50' });

    const rows = table(page).locator('tbody tr');
    await expect.poll(() => rows.count()).toBe(paidSoFar);
    await expect.poll(() => rows.first().locator('td').allTextContents()).toEqual([
      expect.any(String),
      '$12.50',
      'Visa •••• 4242',
      expect.stringMatching(/^Completed$/i),
    ]);
    await page.screenshot({ path: `${SCREENSHOTS}/wrappers-${name.toLowerCase()}-paid.png`, fullPage: true });
    expect(pageErrors).toEqual([]);
    await page.context().close();
  });

  it('request payment: the phone typed in the app gets the SMS in the sandbox inbox; onSuccess/success gets the confirmation', async () => {
    const phone = paidSoFar === 1 ? '(415) 555-0142' : '+1 415 555 0143';
    const e164 = `+1415555014${paidSoFar + 1}`;
    const page = await newPage(w);
    await page.goto(origin());
    await page.getByLabel('Customer phone').fill(phone);
    await page.getByRole('button', { name: 'Text a $20.00 payment request' }).click();
    await page.getByRole('status').filter({ hasText: `Payment request sent to the phone ending ${e164.slice(-4)}` }).waitFor();
    await page.screenshot({ path: `${SCREENSHOTS}/wrappers-${name.toLowerCase()}-request.png`, fullPage: true });
    await expect
      .poll(async () => {
        const res = await w.s.http({ method: 'GET', path: `/sandbox/messages?recipient=${encodeURIComponent(e164)}`, auth: w.m.auth });
        return res.body.data.messages.map((m: { channel: string; body_text: string }) => ({ channel: m.channel, body_text: m.body_text }));
      })
      .toEqual([{ channel: 'sms', body_text: expect.stringContaining(`${w.s.url}/pay/`) }]);
    expect(pageErrors).toEqual([]);
    await page.context().close();
  });
});
