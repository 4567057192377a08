import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReceiver, type Receiver } from '../packages/core/src/webhooks/test-support.js';
import { startTestServer, type TestServer } from '../apps/server/src/testing/harness.js';
import { launchChromium } from './browser.js';
import { fillCard } from './support.js';
import { browserStorage, portalErrors, portalPage } from './portal-support.js';
import type { Browser } from 'playwright-core';

/**
 * The five-minute path, timed, in real Chromium against the real server: create credentials,
 * sign in, onboard and approve a merchant, point the webhook at a local receiver, make a pay link,
 * pay it on the hosted page, see the delivery and its body, retry it, read the receipt email,
 * refund the payment. Nothing is reloaded: the lists update themselves.
 */
let s: TestServer;
let rx: Receiver;
let browser: Browser;
beforeAll(async () => {
  s = await startTestServer({ workers: { messages: { pollMs: 20 }, webhooks: { pollMs: 20 } } });
  rx = await startReceiver();
  rx.behave((_r, res) =>
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true,"from":"local receiver"}'),
  );
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await rx?.close();
  await s?.close();
});

describe('the five-minute walk', () => {
  it('goes from nothing to a refunded payment with its webhook received, well inside five minutes', async () => {
    const marks: Array<[string, number]> = [];
    const started = performance.now();
    const mark = (step: string) => marks.push([step, Math.round(performance.now() - started)]);
    const page = await portalPage(browser);

    // Credentials, shown once, then sign in with them.
    await page.goto(`${s.url}/portal`);
    await page.getByRole('button', { name: 'Create sandbox credentials' }).click();
    const secret = (await page.locator('#made-secret').textContent())!;
    expect(secret).toMatch(/^sk_test_/);
    await page.getByRole('button', { name: 'Sign in with these credentials' }).click();
    await page.getByRole('heading', { level: 1, name: 'Merchants' }).waitFor();
    mark('credentials and sign-in');
    // The secret is in no browser storage, and the session cookie is invisible to script.
    const stored = await browserStorage(page);
    expect(stored).not.toContain(secret);
    expect(stored).not.toContain('remit_portal');

    // Onboard the demo merchant in one click, approve it.
    await page.getByRole('button', { name: 'Onboard a demo merchant' }).click();
    const approve = page.getByRole('button', { name: /^Approve Demo Store \d{4}$/ });
    await approve.click();
    await page.locator('.badge--approved', { hasText: 'approved' }).waitFor();
    mark('merchant onboarded and approved');

    // The webhook URL, pointing at the local receiver.
    await page.getByRole('link', { name: 'Webhooks' }).click();
    await page.getByLabel('Webhook URL').fill(rx.url);
    await page.getByRole('button', { name: 'Save webhook URL' }).click();
    await page.getByText(/^whsec_/).waitFor();
    mark('webhook URL set');

    // A pay link, paid on the hosted page.
    await page.getByRole('link', { name: 'Transactions' }).click();
    await page.getByLabel('Amount (USD)').fill('25.00');
    await page.getByLabel('Customer email (optional)').fill('ada@example.com');
    await page.getByRole('button', { name: 'Create pay link' }).click();
    const payLink = (await page.locator('#made-pay-link').getAttribute('href'))!;
    expect(payLink).toMatch(new RegExp(`^${s.url}/pay/ord_`));
    const pay = await page.context().newPage();
    await pay.goto(payLink);
    await fillCard(pay, '4242424242424242');
    await pay.getByRole('button', { name: 'Pay $25.00' }).click();
    await pay.getByRole('heading', { name: 'Payment successful' }).waitFor();
    const txnId = (await pay.locator('.receipt dt:text("Transaction ID") + dd').textContent())!;
    await pay.close();
    mark('pay link made and paid');

    // The delivery appears without a reload, with its request and response bodies.
    await page.getByRole('link', { name: 'Webhooks' }).click();
    const delivery = page.locator('.delivery[data-event-type="payment.success"]');
    await delivery.locator('.badge--delivered').waitFor({ timeout: 20_000 });
    await delivery.getByText('Request and response of payment.success').click();
    const body = (await delivery.getByLabel('Request body of payment.success').textContent())!;
    expect(JSON.parse(body)).toMatchObject({
      event_type: 'payment.success',
      data: { transaction_id: txnId, amount: 25 },
    });
    expect(await delivery.getByLabel('Response body of attempt 1').textContent()).toContain('"from": "local receiver"');
    const received = () =>
      rx.received.filter((r) => r.body.includes(txnId) && r.body.includes('payment.success')).length;
    expect(received()).toBe(1);
    mark('delivery and its body seen');

    // Retry it: a second attempt reaches the receiver and shows in the list.
    await delivery.getByRole('button', { name: 'Retry payment.success' }).click();
    await delivery.getByText('Attempt 2:').waitFor({ timeout: 20_000 });
    expect(received()).toBe(2);
    mark('delivery retried');

    // The receipt email in the inbox, shown in a sandboxed frame.
    await page.getByRole('link', { name: 'Inbox' }).click();
    const receipt = page.locator('.message', { hasText: 'Receipt from Demo Store' });
    await receipt.getByRole('button', { name: 'Show email' }).click();
    const frame = receipt.locator('iframe.email');
    expect(await frame.getAttribute('sandbox')).toBe('');
    await page.frameLocator('iframe.email').getByText(txnId).first().waitFor();
    mark('receipt email read');

    // Refund the payment from the portal.
    await page.getByRole('link', { name: 'Transactions' }).click();
    const row = page.locator(`.txn[data-transaction-id="${txnId}"]`);
    expect(await row.getByLabel('Refund amount').inputValue()).toBe('25.00');
    await row.getByRole('button', { name: 'Refund' }).click();
    await page.locator('.note', { hasText: /refund/i }).waitFor();
    await row.locator('.badge--refunded').waitFor({ timeout: 20_000 });
    mark('payment refunded');

    const total = Math.round(performance.now() - started);
    console.log(`portal walk: ${total} ms\n${marks.map(([m, t]) => `  ${String(t).padStart(6)} ms  ${m}`).join('\n')}`);
    expect(total).toBeLessThan(5 * 60_000);
    expect(portalErrors).toEqual([]);
  });
});
