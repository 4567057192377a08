import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReceiver, type Receiver } from '../packages/core/src/webhooks/test-support.js';
import { startTestServer, type TestServer } from '../apps/server/src/testing/harness.js';
import { bankAccount, charge, newCustomer } from '../apps/server/src/testing/payments.js';
import { launchChromium } from './browser.js';
import { browserStorage, checkPortal, portalPage } from './portal-support.js';

/** The copyable snippets (the pinned tag and policy card above them has the same look). */
const SNIPPET = '.snippet:not([aria-labelledby="embed-policy"])';

/**
 * Every portal view and state, scanned by axe and photographed at 1280 and 390 px; the secret in
 * no storage; a cross-site POST refused; sign-out; production without a portal.
 */
let s: TestServer;
let rx: Receiver;
let browser: Browser;
let page: Page;
let creds: { client_id: string; secret_key: string };
beforeAll(async () => {
  s = await startTestServer({ workers: { messages: { pollMs: 20 }, webhooks: { pollMs: 20 } } });
  rx = await startReceiver();
  browser = await launchChromium();
  page = await portalPage(browser);
});
afterAll(async () => {
  await browser?.close();
  await rx?.close();
  await s?.close();
});

const nav = (name: string) => page.getByRole('navigation', { name: 'Portal' }).getByRole('link', { name }).click();

describe('portal views', () => {
  it('signed out: credentials and sign-in, with errors and with the secret shown once', async () => {
    const res = await page.goto(`${s.url}/portal`);
    expect(res!.status()).toBe(200);
    expect(res!.headers()['content-security-policy']).toContain("script-src 'self'");
    await page.getByRole('heading', { level: 1, name: 'Remit sandbox portal' }).waitFor();
    await checkPortal(page, 'signin');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.locator('.error-summary').waitFor();
    expect(await page.evaluate(() => document.activeElement?.className)).toBe('error-summary');
    await checkPortal(page, 'signin-errors');
    await page.getByRole('button', { name: 'Create sandbox credentials' }).click();
    creds = {
      client_id: (await page.locator('#made-client-id').textContent())!,
      secret_key: (await page.locator('#made-secret').textContent())!,
    };
    // The fresh credentials stand alone with their next step: no empty sign-in form beside them.
    expect(await page.getByRole('heading', { name: 'Sign in', exact: true }).count()).toBe(0);
    await checkPortal(page, 'credentials');
    await page.getByRole('button', { name: 'Sign in with these credentials' }).click();
    await page.getByRole('heading', { level: 1, name: 'Merchants' }).waitFor();
    expect(await browserStorage(page)).not.toContain(creds.secret_key);
  });

  it('merchants and onboarding: empty, the editable submission, its errors, pending and approved', async () => {
    await page.getByText('No merchants yet').waitFor();
    await checkPortal(page, 'merchants-empty');
    await page.getByRole('button', { name: 'Review and edit the submission first' }).click();
    await page.getByRole('heading', { level: 1, name: 'Onboard a merchant' }).waitFor();
    expect(page.url()).toBe(`${s.url}/portal/onboarding`);
    await page.getByLabel('Legal business name').waitFor();
    await checkPortal(page, 'onboarding');
    await page.getByLabel('EIN').fill('12');
    await page.getByRole('button', { name: 'Submit onboarding' }).click();
    await page.locator('.error-summary a[href="#ob-BusinessInfo-ein"]').waitFor();
    await checkPortal(page, 'onboarding-errors');
    await page.getByLabel('EIN').fill('12-3456789');
    await page.getByLabel('Legal business name').fill('Ada Coffee Roasters');
    await page.getByRole('button', { name: 'Submit onboarding' }).click();
    await page.getByRole('heading', { level: 1, name: 'Merchants' }).waitFor();
    await page.getByRole('button', { name: 'Approve Ada Coffee Roasters' }).waitFor();
    await checkPortal(page, 'merchants-pending');
    await page.getByRole('button', { name: 'Approve Ada Coffee Roasters' }).click();
    // The merchant's status badge (its verification shows a badge of its own, 'Complete').
    await page.locator('.badge--approved', { hasText: 'approved' }).waitFor();
    // The next step after Approve: a test payment, with the way there.
    await page
      .locator('.next', { hasText: 'Ada Coffee Roasters approved. Next: take a test payment.' })
      .getByRole('link', { name: 'Make a pay link' })
      .waitFor();
    await checkPortal(page, 'merchants');
  });

  it('webhooks: the URL, the signing secret, a test event and its delivery with bodies', async () => {
    await nav('Webhooks');
    await page.getByText('No deliveries yet').waitFor();
    // The URL and the secret are the client's: no merchant picker on this view.
    expect(await page.getByLabel('Merchant', { exact: true }).count()).toBe(0);
    await checkPortal(page, 'webhooks-empty');
    await page.getByLabel('Webhook URL').fill('not a url');
    await page.getByRole('button', { name: 'Save webhook URL' }).click();
    await page.locator('.error-summary').waitFor();
    await checkPortal(page, 'webhooks-errors');
    await page.getByLabel('Webhook URL').fill(rx.url);
    await page.getByRole('button', { name: 'Save webhook URL' }).click();
    await page.getByText(/^whsec_/).waitFor();
    await page.getByRole('button', { name: 'Send test event' }).click();
    const d = page.locator('.delivery[data-event-type="webhook.test"]');
    await d.locator('.badge--delivered').waitFor({ timeout: 20_000 });
    await d.getByText('Request and response of webhook.test').click();
    await checkPortal(page, 'webhooks');
  });

  it('transactions: a sale, a preauthorization and an ACH debit with their actions', async () => {
    const list = await s.http({ method: 'GET', path: '/api/v1/merchant', auth: [creds.client_id, creds.secret_key] });
    const id = list.body.data[0].merchant_id;
    const owner = await s.http({
      method: 'GET',
      path: `/api/v1/merchant/${id}`,
      auth: [creds.client_id, creds.secret_key],
    });
    const tm = {
      auth: [creds.client_id, creds.secret_key] as [string, string],
      merchant_key: owner.body.data.merchant_key,
      merchant_id: id,
      public_key: '',
    };
    const card = await newCustomer(s, tm);
    await charge(s, tm, card, '42.00');
    await charge(s, tm, card, '15.00', { preAuth: true });
    await charge(s, tm, await newCustomer(s, tm, { bank_account: bankAccount() }), '99.00');
    await nav('Transactions');
    await page.getByRole('button', { name: 'Approve ACH debit' }).waitFor();
    await page.getByRole('button', { name: 'Capture' }).waitFor();
    await checkPortal(page, 'transactions');
    await page.getByRole('button', { name: 'Approve ACH debit' }).click();
    await page.locator('.note').waitFor();
    await page.getByRole('button', { name: 'Settle now' }).click();
    await page.locator('.note', { hasText: /^Settled/ }).waitFor();
  });

  it('inbox: an emailed pay link, the email shown in a sandboxed frame', async () => {
    await page.getByRole('button', { name: 'Create pay link' }).click();
    await page.locator('#made-pay-link').waitFor();
    await nav('Inbox');
    const msg = page.locator('.message[data-channel="email"]').first();
    await msg.getByRole('button', { name: 'Show email' }).click();
    await page.frameLocator('iframe.email').locator('body').waitFor();
    // The frame runs no script: its document is sandboxed without allow-scripts.
    expect(await msg.locator('iframe').getAttribute('sandbox')).toBe('');
    expect(await msg.locator('iframe').getAttribute('title')).toMatch(/^Email: /);
    await checkPortal(page, 'inbox');
  });

  it('snippets carry the keys; the secret only while this tab made it, and never in storage', async () => {
    await nav('Snippets');
    const curl = page.locator(`#snippet-curl + button, ${SNIPPET}`).first();
    await curl.waitFor();
    expect(await page.locator(SNIPPET).first().textContent()).toContain(`${creds.client_id}:${creds.secret_key}`);
    await checkPortal(page, 'snippets');
    // The page still has them in memory from this tab. A reload forgets them, the session stays.
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Snippets' }).waitFor();
    expect(await page.locator(SNIPPET).first().textContent()).toContain(`${creds.client_id}:$REMIT_SECRET_KEY`);
    const stored = await browserStorage(page);
    expect(stored).not.toContain(creds.secret_key);
    const cookies = await page.context().cookies();
    expect(cookies.map((c) => [c.name, c.httpOnly, c.sameSite, c.path])).toEqual([
      ['remit_portal', true, 'Strict', '/portal'],
    ]);
    expect(JSON.stringify(cookies)).not.toContain(creds.secret_key);
  });

  it('a cross-site POST without the CSRF token is refused and changes nothing', async () => {
    const before = (
      await s.http({ method: 'GET', path: '/portal/api/deliveries', headers: { cookie: await cookieHeader() } })
    ).body.totalCount;
    const evil = await startEvilSite(`${s.url}/portal/api/test-event`);
    try {
      const other = await page.context().newPage();
      await other.goto(evil.url);
      await other.getByRole('button', { name: 'Win a prize' }).click();
      await other.waitForURL(`${s.url}/portal/api/test-event`);
      const answer = JSON.parse((await other.locator('body').textContent())!);
      // Same site (127.0.0.1), other origin: the cookie goes along, the Origin check and the missing token stop it.
      expect(answer).toMatchObject({ result: false, code: 'csrf_rejected' });
      await other.close();
    } finally {
      await evil.close();
    }
    await page.waitForTimeout(300);
    const after = (
      await s.http({ method: 'GET', path: '/portal/api/deliveries', headers: { cookie: await cookieHeader() } })
    ).body.totalCount;
    expect(after).toBe(before);
  });

  it('sign-out ends the session on the server', async () => {
    const cookie = await cookieHeader();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { level: 1, name: 'Remit sandbox portal' }).waitFor();
    expect(await page.context().cookies()).toEqual([]);
    const res = await s.http({ method: 'GET', path: '/portal/api/session', headers: { cookie } });
    expect(res.status).toBe(401);
    await page.reload();
    await page.getByRole('button', { name: 'Create sandbox credentials' }).waitFor();
    // A returning user signs in through the form.
    await page.getByLabel('Client ID', { exact: true }).fill(creds.client_id);
    await page.getByLabel('Secret key', { exact: true }).fill(creds.secret_key);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Merchants' }).waitFor();
  });
});

describe('production', () => {
  it('hides the portal: /portal is a 404 page', async () => {
    const prod = await startTestServer({ env: 'production' });
    try {
      const p = await portalPage(browser);
      const res = await p.goto(`${prod.url}/portal`);
      expect(res!.status()).toBe(404);
      await p.getByRole('heading', { level: 1, name: 'Not found' }).waitFor();
      expect(await p.locator('body').textContent()).toContain('There is no portal here');
      await checkPortal(p, 'production-404');
      expect((await p.goto(`${prod.url}/portal/webhooks`))!.status()).toBe(404);
      await p.context().close();
    } finally {
      await prod.close();
    }
  });
});

async function cookieHeader(): Promise<string> {
  return (await page.context().cookies()).map((c) => `${c.name}=${c.value}`).join('; ');
}

/** Another origin on the same site (127.0.0.1, another port) with a form that posts to the portal. */
async function startEvilSite(target: string): Promise<{ url: string; close(): Promise<void> }> {
  const html = `<!doctype html><html lang="en"><head><title>Prize</title></head><body><main>
<form method="post" action="${target}" enctype="text/plain"><input type="hidden" name='{"x":"' value='"}'><button>Win a prize</button></form>
</main></body></html>`;
  const server: Server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(html));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
