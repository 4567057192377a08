import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CARDS, checkState, newPage, SCREENSHOTS, startWorld, YY, type World } from './support.js';

/**
 * The widgets on a merchant's own page, served by a second local HTTP server (another origin than
 * Remit's), under a strict nonce-based CSP: the script tag, the pay modal with the hosted pay page,
 * the request payment confirmation and the completed-transactions table, in real Chromium.
 */
let w: World;
let shop: string;
const servers: Server[] = [];
const NONCE = 'r4nd0mN0nce';

type Csp = 'host' | 'strict-dynamic';
/** A shop page; `csp: host` allows the Remit origin plus the nonce, `strict-dynamic` the nonce alone. */
function shopPage(remit: string, key: string, csp: Csp): { headers: Record<string, string>; html: string } {
  const script = csp === 'host' ? `'nonce-${NONCE}' ${remit}` : `'nonce-${NONCE}' 'strict-dynamic'`;
  return {
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': `default-src 'none'; script-src ${script}; connect-src ${remit}; frame-src ${remit}; style-src 'self'; base-uri 'none'`,
    },
    html: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Acme shop</title>
<script nonce="${NONCE}" src="${remit}/js/dynamic-launch.js?remit_merchant_public_key=${key}"></script></head>
<body><main aria-label="Acme shop"><h1>Acme shop</h1>
<p><button id="pay" type="button">Pay $12.50</button></p>
<p><label for="phone">Customer phone</label> <input id="phone" value="(415) 555-0142" autocomplete="tel"> <button id="req" type="button">Request payment</button></p>
<p id="out" role="status"></p>
<table id="remit_complete_transactions"></table>
</main>
<script nonce="${NONCE}">
window.events = []; window.violations = [];
document.addEventListener('securitypolicyviolation', (e) => violations.push(e.violatedDirective + ' ' + e.blockedURI));
for (const t of ['remit:payment-success', 'remit:close', 'remit:error']) document.addEventListener(t, (e) => events.push({ type: e.type, detail: e.detail }));
const out = document.getElementById('out');
document.getElementById('pay').addEventListener('click', () => getPaymentPage(12.5).then((r) => (out.textContent = 'Payment ' + r.status), (e) => (out.textContent = 'Error: ' + e.message)));
document.getElementById('req').addEventListener('click', () => sendRequestPayment(15, document.getElementById('phone').value).then(() => (out.textContent = 'Request sent'), (e) => (out.textContent = 'Error: ' + e.message)));
</script></body></html>`,
  };
}

async function shopSite(csp: Csp = 'host'): Promise<string> {
  const server = createServer((req, res) => {
    const { headers, html } = shopPage(w.s.url, w.m.public_key, csp);
    res.writeHead(req.url === '/' ? 200 : 404, headers);
    res.end(req.url === '/' ? html : 'not found');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  servers.push(server);
  // localhost (not 127.0.0.1): another origin than the Remit server's.
  return `http://localhost:${(server.address() as AddressInfo).port}`;
}

beforeAll(async () => {
  w = await startWorld();
  shop = await shopSite();
  const id = (
    await w.s.http({ method: 'GET', path: '/api/v1/widgets', auth: w.m.auth, json: { merchant_key: w.m.merchant_key } })
  ).body.data[0].id;
  const put = await w.s.http({
    method: 'PUT',
    path: `/api/v1/widgets/${id}`,
    auth: w.m.auth,
    json: { merchant_key: w.m.merchant_key, allowed_origins: [shop] },
  });
  expect(put.status).toBe(200);
});
afterAll(async () => {
  await w?.close();
  for (const s of servers) await new Promise((r) => s.close(r));
});

const out = (page: Page) => page.locator('#out');
const events = (page: Page) =>
  page.evaluate(() => (window as unknown as { events: Array<{ type: string; detail: any }> }).events);
const violations = (page: Page) => page.evaluate(() => (window as unknown as { violations: string[] }).violations);
const modal = (page: Page) => page.getByRole('dialog', { name: 'Pay $12.50' });

/** What has focus, seen from the top: an element of the page, or inside the pay modal (its shadow root's element, or the frame). */
const focused = (page: Page) =>
  page.evaluate(() => {
    const a = document.activeElement;
    if (!a || a === document.body) return 'BODY';
    if (a.tagName !== 'REMIT-PAY') return a.id || a.tagName;
    const inner = a.shadowRoot!.activeElement;
    return `REMIT-PAY>${inner ? inner.tagName + (inner.className ? '.' + inner.className : '') : '?'}`;
  });

/** The pay page inside the modal, once it is there (the warm frame given the link, or a frame navigated to it). */
async function payFrame(page: Page) {
  const modalFrame = page.locator('iframe[title="Payment form: Pay $12.50"]');
  await page.frameLocator('iframe[title="Payment form: Pay $12.50"]').getByLabel('Card number').waitFor();
  return (await (await modalFrame.elementHandle())!.contentFrame())!;
}

/** Tab (or Shift+Tab) until the pay page's focused field has this label; fails after 30 presses. */
async function tabTo(page: Page, label: RegExp, back = false) {
  const frame = await payFrame(page);
  for (let i = 0; i < 30; i++) {
    const at = await frame.evaluate(() => {
      const el = document.activeElement as HTMLInputElement | null;
      if (!el || el === document.body) return '';
      return (
        (el.labels?.[0]?.textContent ?? '') +
        '|' +
        (el.getAttribute('aria-label') ?? '') +
        '|' +
        (el.tagName === 'BUTTON' ? el.textContent : '')
      );
    });
    if (label.test(at)) return;
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
  }
  throw new Error(`never reached ${label} by keyboard`);
}

/** Pays with the test card in the pay page: the modal's frame, or the popup. */
async function payWithCard(where: Pick<Page, 'getByLabel' | 'getByRole'>) {
  await where.getByLabel('Card number').fill(CARDS.visa);
  await payWithTheRest(where);
}

/** The rest of the card form (the number already typed), then Pay. */
async function payWithTheRest(where: Pick<Page, 'getByLabel' | 'getByRole'>) {
  await where.getByLabel('Expiry date').fill(`12 / ${YY}`);
  await where.getByLabel('Security code').fill('123');
  await where.getByLabel('Name on card').fill('Ada Lovelace');
  await where.getByLabel('ZIP code').fill('94105');
  await where.getByRole('button', { name: /^Pay/ }).click();
}

const payInModal = (page: Page) => payWithCard(page.frameLocator('iframe[title="Payment form: Pay $12.50"]'));

describe('the widgets on a shop page of another origin, under a nonce CSP', () => {
  it('pay: the modal opens the pay page; paying with 4242… closes it, resolves, and the table shows the payment', async () => {
    const page = await newPage(w);
    await page.goto(shop);
    await expect.poll(() => page.getByText('No completed transactions yet.').count()).toBe(1);
    await page.screenshot({ path: join(SCREENSHOTS, 'widgets-shop-empty.png'), fullPage: true });
    await page.getByRole('button', { name: 'Pay $12.50' }).click();
    await modal(page).waitFor();
    await page.frameLocator('iframe[title="Payment form: Pay $12.50"]').getByLabel('Card number').waitFor();
    await checkState(page, 'widgets-pay-modal');
    await payInModal(page);
    await expect.poll(() => out(page).textContent(), { timeout: 15_000 }).toBe('Payment succeeded');
    expect(await modal(page).count()).toBe(0);
    const ev = await events(page);
    expect(ev).toEqual([
      {
        type: 'remit:payment-success',
        detail: { status: 'succeeded', transaction_id: expect.stringMatching(/^txn_/) },
      },
    ]);
    const row = page.locator('#remit_complete_transactions tbody tr').first();
    await expect
      .poll(() => row.locator('td').allTextContents())
      .toEqual([expect.any(String), '$12.50', 'Visa •••• 4242', 'Completed']);
    expect(await violations(page)).toEqual([]);
    await checkState(page, 'widgets-shop-paid');
    await page.context().close();
  });

  it('the pointer on a button warms the pay frame (a hidden /pay/preload shell), and the click shows that very frame: the form typed into is in the frame that was warm', async () => {
    const page = await newPage(w);
    await page.goto(shop);
    await expect.poll(() => page.locator('#remit_complete_transactions tbody tr').count()).toBeGreaterThan(0);
    const preload = page.locator('iframe[src$="/pay/preload"]');
    expect(await preload.count()).toBe(0); // a table alone warms nothing
    await page.getByRole('button', { name: 'Pay $12.50' }).hover();
    await expect.poll(() => preload.count()).toBe(1);
    expect(
      await preload.evaluate((f: HTMLIFrameElement) => [
        getComputedStyle(f).display,
        f.tabIndex,
        f.getAttribute('aria-hidden'),
      ]),
    ).toEqual(['none', -1, 'true']);
    const warm = (await (await preload.elementHandle())!.contentFrame())!;
    await warm.waitForLoadState('load');
    expect(await warm.locator('#app').innerHTML()).toBe(''); // a shell: nothing rendered, no link
    await warm.evaluate(() => ((window as unknown as { wasWarm: boolean }).wasWarm = true));
    await page.getByRole('button', { name: 'Pay $12.50' }).click();
    const frame = await payFrame(page);
    // The same document (not a navigation after the click): the mark set before the click is there.
    expect(frame).toBe(warm);
    expect(await frame.evaluate(() => (window as unknown as { wasWarm?: boolean }).wasWarm)).toBe(true);
    expect(frame.url()).toMatch(/\/pay\/preload$/);
    await frame.getByLabel('Card number').fill(CARDS.visa);
    expect(await frame.getByLabel('Card number').inputValue()).toBe('4242 4242 4242 4242');
    // Shown in the modal now: titled, focusable, no longer hidden; and the only Remit frame.
    expect(
      await preload.evaluate((f: HTMLIFrameElement) => [
        getComputedStyle(f).display,
        f.title,
        f.getAttribute('tabindex'),
        f.getAttribute('aria-hidden'),
      ]),
    ).toEqual(['block', 'Payment form: Pay $12.50', null, null]);
    expect(await page.locator('iframe').count()).toBe(1);
    expect(await violations(page)).toEqual([]);
    await payWithTheRest(page.frameLocator('iframe[title="Payment form: Pay $12.50"]'));
    await expect.poll(() => out(page).textContent(), { timeout: 15_000 }).toBe('Payment succeeded');
    expect(await modal(page).count()).toBe(0);
    await page.context().close();
  });

  it('keyboard only: Enter opens the modal, focus stays in it, Escape closes it and focus returns to the button', async () => {
    const page = await newPage(w);
    await page.goto(shop);
    let tabs = 0;
    while ((await page.evaluate(() => document.activeElement?.id)) !== 'pay' && tabs++ < 10)
      await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await modal(page).waitFor();
    const card = page.frameLocator('iframe[title="Payment form: Pay $12.50"]').getByLabel('Card number');
    await card.waitFor();
    // Tab cycles through the modal (the pay page's frame, the close button) and the browser's own
    // controls: the page behind is inert (a modal <dialog>) and never gets focus.
    const seen = new Set<string>();
    for (let i = 0; i < 20; i++) {
      await page.keyboard.press('Tab');
      seen.add((await page.evaluate(() => document.activeElement?.id || document.activeElement?.tagName)) ?? '');
    }
    expect(seen.has('REMIT-PAY')).toBe(true);
    for (const behind of ['pay', 'req', 'phone']) expect(seen.has(behind)).toBe(false);
    await card.focus();
    await page.keyboard.type('4242');
    await page.keyboard.press('Escape');
    await expect.poll(() => out(page).textContent()).toBe('Payment closed');
    expect(await modal(page).count()).toBe(0);
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('pay');
    expect(await events(page)).toEqual([{ type: 'remit:close', detail: { status: 'closed', transaction_id: null } }]);
    // Escape with focus on the modal's own close button closes it too.
    await page.keyboard.press('Enter');
    await modal(page).waitFor();
    // The form takes focus once its frame is ready; move to the close button after that, not before
    // (a CI run focused it first, and the frame then took focus and the Escape).
    await expect.poll(() => focused(page)).toBe('REMIT-PAY>IFRAME');
    await page.getByRole('button', { name: 'Close payment' }).focus();
    await page.keyboard.press('Escape');
    await expect.poll(() => modal(page).count()).toBe(0);
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('pay');
    await page.context().close();
  });

  it('a key pressed while the form is on its way keeps focus where the customer put it: the form, once ready, does not take it', async () => {
    const page = await newPage(w);
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    // The pay link held back, so the customer acts in the modal before its form is there.
    await page.route('**/widget/v1/pay-links?*', async (route) => (await held, route.continue()));
    await page.goto(shop);
    await page.waitForFunction(
      () => typeof (window as unknown as { getPaymentPage?: unknown }).getPaymentPage === 'function',
    );
    await page.getByRole('button', { name: 'Pay $12.50' }).focus();
    await page.keyboard.press('Enter');
    await modal(page).waitFor();
    await expect.poll(() => focused(page)).toBe('REMIT-PAY>BUTTON.x');
    // Tab with nothing else to reach yet: the dialog's guard keeps focus on the close button.
    await page.keyboard.press('Tab');
    expect(await focused(page)).toBe('REMIT-PAY>BUTTON.x');
    release();
    await payFrame(page);
    await new Promise((r) => setTimeout(r, 500)); // time for a focus move, if one were coming
    expect(await focused(page)).toBe('REMIT-PAY>BUTTON.x');
    await page.keyboard.press('Escape');
    await expect.poll(() => modal(page).count()).toBe(0);
    expect(await focused(page)).toBe('pay');
    await page.context().close();
  });

  it('keyboard only, all the way: Tab to the button, Enter, pay with the test card in the frame, the modal closes, the table refreshes, focus is back on the button', async () => {
    const page = await newPage(w);
    await page.goto(shop);
    const rows = page.locator('#remit_complete_transactions tbody tr');
    await expect.poll(() => page.locator('#remit_complete_transactions caption [role=status]').textContent()).toBe('');
    const before = await rows.count();
    let tabs = 0;
    while ((await focused(page)) !== 'pay' && tabs++ < 10) await page.keyboard.press('Tab');
    expect(await focused(page)).toBe('pay');
    await page.keyboard.press('Enter');
    await modal(page).waitFor();
    await payFrame(page);
    // The frame takes focus once loaded; from there the keyboard reaches every field.
    await expect.poll(() => focused(page)).toBe('REMIT-PAY>IFRAME');
    await tabTo(page, /Card number/);
    await page.keyboard.type(CARDS.visa);
    await tabTo(page, /Expiry date/);
    await page.keyboard.type(`12${YY}`);
    await tabTo(page, /Security code/);
    await page.keyboard.type('123');
    await tabTo(page, /Name on card/);
    await page.keyboard.type('Ada Lovelace');
    await tabTo(page, /ZIP code/);
    await page.keyboard.type('94105');
    await tabTo(page, /^\|\|Pay/);
    await page.keyboard.press('Enter');
    await expect.poll(() => out(page).textContent(), { timeout: 15_000 }).toBe('Payment succeeded');
    expect(await modal(page).count()).toBe(0);
    expect(await focused(page)).toBe('pay');
    await expect.poll(() => rows.count()).toBe(before + 1);
    expect(await rows.first().locator('td').allTextContents()).toEqual([
      expect.any(String),
      '$12.50',
      'Visa •••• 4242',
      'Completed',
    ]);
    await page.context().close();
  });

  it('Tab and Shift+Tab cycle inside the modal, through the pay page and the close button, never to the page behind or out of the document', async () => {
    const page = await newPage(w);
    await page.goto(shop);
    await page.getByRole('button', { name: 'Pay $12.50' }).focus();
    await page.keyboard.press('Enter');
    await modal(page).waitFor();
    const frame = await payFrame(page);
    const inFrame = () => frame.evaluate(() => document.hasFocus() && document.activeElement !== document.body);
    for (const key of ['Tab', 'Shift+Tab']) {
      const seen = new Set<string>();
      let frameFields = 0;
      for (let i = 0; i < 40; i++) {
        await page.keyboard.press(key);
        // Focus leaving the pay page's frame crosses processes: let it land before looking.
        let at = await focused(page);
        for (let n = 0; at === 'BODY' && n < 20; n++)
          at = await new Promise((r) => setTimeout(r, 25)).then(() => focused(page));
        seen.add(at);
        if (at === 'REMIT-PAY>IFRAME' && (await inFrame())) frameFields++;
      }
      // Only the modal: its close button and the frame (the guards pass focus straight on).
      expect([...seen].sort(), key).toEqual(['REMIT-PAY>BUTTON.x', 'REMIT-PAY>IFRAME']);
      expect(frameFields, key).toBeGreaterThan(5);
    }
    await page.keyboard.press('Escape');
    await expect.poll(() => modal(page).count()).toBe(0);
    expect(await focused(page)).toBe('pay');
    await page.context().close();
  });

  it('request payment: a confirmation, and the SMS in the sandbox inbox', async () => {
    const page = await newPage(w);
    await page.goto(shop);
    await page.getByRole('button', { name: 'Request payment' }).click();
    const dialog = page.getByRole('dialog', { name: 'Payment request sent' });
    await dialog.waitFor();
    expect(await dialog.getByText(/was sent to the phone number ending in 0142/).textContent()).toBe(
      'A text message with a link to pay $15.00 was sent to the phone number ending in 0142.',
    );
    await checkState(page, 'widgets-request-sent');
    await page.getByRole('button', { name: 'Done' }).click();
    expect(await dialog.count()).toBe(0);
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('req');
    await expect
      .poll(async () => {
        const inbox = await w.s.http({
          method: 'GET',
          path: `/sandbox/messages?merchant_key=${w.m.merchant_key}`,
          auth: w.m.auth,
        });
        return inbox.body.data.messages
          .filter((m: any) => m.recipient === '+14155550142')
          .map((m: any) => [m.channel, m.status]);
      })
      .toEqual([['sms', 'delivered_to_inbox']]);
    await page.context().close();
  });

  it('an origin not allowed is refused: a rejected Promise, remit:error, no modal, the table says so', async () => {
    const stranger = await shopSite();
    const page = await newPage(w);
    const consoleErrors: string[] = [];
    page.on('console', (m) => m.type() === 'error' && consoleErrors.push(m.text()));
    await page.goto(stranger);
    await page.getByRole('button', { name: 'Pay $12.50' }).click();
    await expect
      .poll(() => out(page).textContent())
      .toContain("this page's origin is not in the widget settings' allowed_origins");
    expect(await modal(page).count()).toBe(0);
    expect((await events(page)).map((e) => [e.type, e.detail.code])).toEqual([['remit:error', 'network_error']]);
    await expect
      .poll(() => page.locator('#remit_complete_transactions caption').textContent())
      .toContain('Could not load transactions');
    expect(consoleErrors.some((m) => m.startsWith('Remit: could not reach'))).toBe(true);
    // The server refused it too (not only the browser's CORS).
    const direct = await w.s.http({
      method: 'POST',
      path: `/widget/v1/pay-links?public_key=${w.m.public_key}`,
      json: { amount: 1 },
      headers: { origin: stranger },
    });
    expect(direct.status).toBe(403);
    await page.screenshot({ path: join(SCREENSHOTS, 'widgets-origin-refused.png'), fullPage: true });
    await page.context().close();
  });

  it('narrower than 600 px: a popup opens the pay page; paying there closes it, resolves, and the table shows the payment', async () => {
    const page = await newPage(w, { viewport: { width: 420, height: 800 } });
    await page.goto(shop);
    const rows = page.locator('#remit_complete_transactions tbody tr');
    await expect.poll(() => page.locator('#remit_complete_transactions caption [role=status]').textContent()).toBe('');
    const before = await rows.count();
    const [popup] = await Promise.all([
      page.waitForEvent('popup'),
      page.getByRole('button', { name: 'Pay $12.50' }).click(),
    ]);
    expect(await modal(page).count()).toBe(0);
    expect(await page.locator('iframe[src$="/pay/preload"]').count()).toBe(0); // the popup is another cache partition: nothing to warm
    await payWithCard(popup);
    await expect.poll(() => out(page).textContent(), { timeout: 15_000 }).toBe('Payment succeeded');
    await expect.poll(() => popup.isClosed()).toBe(true);
    expect((await events(page)).map((e) => [e.type, e.detail.status])).toEqual([
      ['remit:payment-success', 'succeeded'],
    ]);
    await expect.poll(() => rows.count()).toBe(before + 1);
    expect(await rows.first().locator('td').allTextContents()).toEqual([
      expect.any(String),
      '$12.50',
      'Visa •••• 4242',
      'Completed',
    ]);
    await page.context().close();
  });

  it('narrower than 600 px: closing the popup without paying resolves closed and fires remit:close', async () => {
    const page = await newPage(w, { viewport: { width: 420, height: 800 } });
    await page.goto(shop);
    const [popup] = await Promise.all([
      page.waitForEvent('popup'),
      page.getByRole('button', { name: 'Pay $12.50' }).click(),
    ]);
    await popup.getByLabel('Card number').waitFor();
    await popup.close();
    await expect.poll(() => out(page).textContent()).toBe('Payment closed');
    expect(await events(page)).toEqual([{ type: 'remit:close', detail: { status: 'closed', transaction_id: null } }]);
    await page.context().close();
  });

  it("works under a CSP of the nonce alone ('strict-dynamic'): no violation", async () => {
    const strict = await shopSite('strict-dynamic');
    const id = (
      await w.s.http({
        method: 'GET',
        path: '/api/v1/widgets',
        auth: w.m.auth,
        json: { merchant_key: w.m.merchant_key },
      })
    ).body.data[0];
    await w.s.http({
      method: 'PUT',
      path: `/api/v1/widgets/${id.id}`,
      auth: w.m.auth,
      json: { merchant_key: w.m.merchant_key, allowed_origins: [...id.allowed_origins, strict] },
    });
    const page = await newPage(w);
    await page.goto(strict);
    await expect.poll(() => page.locator('#remit_complete_transactions tbody tr').count()).toBeGreaterThan(0);
    await page.getByRole('button', { name: 'Pay $12.50' }).click();
    await page.frameLocator('iframe[title="Payment form: Pay $12.50"]').getByLabel('Card number').waitFor();
    expect(await violations(page)).toEqual([]);
    await page.screenshot({ path: join(SCREENSHOTS, 'widgets-strict-dynamic.png'), fullPage: true });
    await page.context().close();
  });
});
