import type { FrameLocator, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemo, type Demo } from '@remit/demo/serve';
import {
  CARDS,
  checkState,
  newPage,
  pageErrors,
  SCREENSHOTS,
  startWorld,
  transactions,
  YY,
  type World,
} from './support.js';

/**
 * The three demo sites of apps/demo as a merchant ships them (the plain HTML shop with the script
 * tag, the React app with @remit/react, the Vue app with @remit/vue, all built), each on its own
 * origin, the Remit server on another: pay with the test card in the modal and see the table
 * update, request a payment and find the SMS in the sandbox inbox, do it all from the keyboard,
 * scan each state with axe, and see a site whose origin the merchant has not allowed refused.
 * One server and one Chromium for the file. Needs `npm run build` first.
 */
let w: World;
let demo: Demo;
/** The same three sites on other origins, which the widget settings do not allow. */
let stranger: Demo;

beforeAll(async () => {
  w = await startWorld();
  demo = await startDemo({ remitUrl: w.s.url, publicKey: w.m.public_key });
  stranger = await startDemo({ remitUrl: w.s.url, publicKey: w.m.public_key });
  const widget = (
    await w.s.http({ method: 'GET', path: '/api/v1/widgets', auth: w.m.auth, json: { merchant_key: w.m.merchant_key } })
  ).body.data[0];
  const allowed = [demo.shop, demo.react, demo.vue];
  const put = await w.s.http({
    method: 'PUT',
    path: `/api/v1/widgets/${widget.id}`,
    auth: w.m.auth,
    json: { merchant_key: w.m.merchant_key, allowed_origins: allowed },
  });
  expect(put.status).toBe(200);
});
afterAll(async () => {
  await demo?.close();
  await stranger?.close();
  await w?.close();
});

const tableRows = (page: Page) =>
  page.locator('#remit_complete_transactions tbody tr, [data-remit-widget="completed-transactions"] tbody tr');
const status = (page: Page) => page.locator('main > p[role="status"]');
const payButton = (page: Page) => page.getByRole('button', { name: 'Buy for $12.50' });
const modal = (page: Page) => page.getByRole('dialog', { name: /^Pay/ });
const payForm = (page: Page): FrameLocator => page.frameLocator('iframe[title^="Payment form"]');
/** The pay page's card fields in their order, with the test card. */
const CARD = [
  ['Card number', CARDS.visa],
  ['Expiry date', `12 / ${YY}`],
  ['Security code', '123'],
  ['Name on card', 'Ada Lovelace'],
  ['ZIP code', '94105'],
] as const;
const shot = (name: string) => ({ path: `${SCREENSHOTS}/${name}.png`, fullPage: true });

/** Opens a site and waits for its table to load: the empty state, or the payments made so far. */
async function open(site: string): Promise<Page> {
  const page = await newPage(w);
  const scripts: string[] = [];
  page.on('request', (r) => r.url().includes('/js/dynamic-launch.js') && scripts.push(r.url()));
  await page.goto(site);
  expect(new URL(site).origin).not.toBe(new URL(w.s.url).origin);
  await expect.poll(() => tableRows(page).first().textContent()).toMatch(/No completed transactions yet\.|\$/);
  // One loader per page, whatever mounted it (the React app runs in StrictMode), and one table.
  expect(scripts).toEqual([`${w.s.url}/js/dynamic-launch.js?remit_merchant_public_key=${w.m.public_key}`]);
  expect(await page.locator('#remit_complete_transactions, [data-remit-widget="completed-transactions"]').count()).toBe(
    1,
  );
  return page;
}

/** How many payments the loaded table shows (0 for its empty state). */
async function paymentsShown(page: Page): Promise<number> {
  return /No completed transactions yet/.test((await tableRows(page).first().textContent()) ?? '')
    ? 0
    : tableRows(page).count();
}

/** The table holds `count` payments, the newest first: the test card's $12.50. */
async function expectNewestRow(page: Page, count: number) {
  await expect.poll(() => tableRows(page).count()).toBe(count);
  await expect
    .poll(() => tableRows(page).first().locator('td').allTextContents())
    .toEqual([expect.any(String), '$12.50', 'Visa •••• 4242', 'Completed']);
}

/** Presses Tab until `target` (in the page or the pay frame) has focus; fails after `max` presses. */
async function tabTo(page: Page, target: Locator, max = 15) {
  for (let i = 0; i < max; i++) {
    if (
      await target
        .evaluate((el) => el === el.ownerDocument.activeElement && el.ownerDocument.hasFocus())
        .catch(() => false)
    )
      return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached ${target}`);
}

const SITES = [
  ['plain HTML shop', 'shop', () => demo.shop, () => stranger.shop],
  ['React app', 'react', () => demo.react, () => stranger.react],
  ['Vue app', 'vue', () => demo.vue, () => stranger.vue],
] as const;

describe.each(SITES)('the %s on its own origin', (_label, name, site, strangerSite) => {
  it('pay button → modal (axe-clean) → test card → the status shows the transaction, the table shows it', async () => {
    const page = await open(site());
    const paidBefore = await paymentsShown(page);
    await checkState(page, `demo-${name}-page`);

    await payButton(page).click();
    await modal(page).waitFor();
    const form = payForm(page);
    await form.getByLabel('Card number').waitFor();
    await checkState(page, `demo-${name}-pay-modal`);
    for (const [label, text] of CARD) await form.getByLabel(label).fill(text);
    await form.getByRole('button', { name: /^Pay/ }).click();

    await expect.poll(() => status(page).textContent(), { timeout: 15_000 }).toMatch(/^Paid: txn_/);
    const txn = (await status(page).textContent())!.replace('Paid: ', '');
    expect(await modal(page).count()).toBe(0);
    expect((await transactions(w)).find((t) => t.transaction_id === txn)).toMatchObject({ amount: '12.50' });
    await expectNewestRow(page, paidBefore + 1);
    await checkState(page, `demo-${name}-paid`);
    await page.context().close();
  });

  it('request payment: a confirmation (axe-clean), the SMS in the sandbox inbox, onSuccess/success tells the page', async () => {
    const last = { shop: '0142', react: '0143', vue: '0144' }[name];
    const page = await open(site());
    await page.getByLabel('Customer phone').fill(name === 'vue' ? `+1 415 555 ${last}` : `(415) 555-${last}`);
    await page.getByRole('button', { name: 'Text a $20.00 payment request' }).click();
    const sent = page.getByRole('dialog', { name: 'Payment request sent' });
    await sent.waitFor();
    expect(await sent.getByText(/was sent to the phone number ending in/).textContent()).toBe(
      `A text message with a link to pay $20.00 was sent to the phone number ending in ${last}.`,
    );
    await expect.poll(() => status(page).textContent()).toBe(`Payment request sent to the phone ending ${last}`);
    await checkState(page, `demo-${name}-request-sent`);
    await page.getByRole('button', { name: 'Done' }).click();
    expect(await sent.count()).toBe(0);
    await expect
      .poll(async () => {
        const res = await w.s.http({
          method: 'GET',
          path: `/sandbox/messages?recipient=${encodeURIComponent(`+1415555${last}`)}`,
          auth: w.m.auth,
        });
        return res.body.data.messages.map((m: { channel: string; status: string; body_text: string }) => [
          m.channel,
          m.status,
          m.body_text,
        ]);
      })
      .toEqual([['sms', 'delivered_to_inbox', expect.stringContaining(`${w.s.url}/pay/`)]]);
    await page.context().close();
  });

  it('keyboard only: Tab to the pay button, Enter, pay in the modal with Tab and typing; Escape closes and focus returns', async () => {
    const page = await open(site());
    const paidBefore = await paymentsShown(page);
    // Escape first: the modal closes, onClose/close tells the page, focus is back on the button.
    await tabTo(page, payButton(page));
    await page.keyboard.press('Enter');
    await modal(page).waitFor();
    const form = payForm(page);
    await form.getByLabel('Card number').waitFor();
    await page.keyboard.press('Escape');
    await expect.poll(() => modal(page).count()).toBe(0);
    await expect.poll(() => status(page).textContent()).toBe('Payment window closed');
    expect(await payButton(page).evaluate((el) => el === document.activeElement)).toBe(true);

    // Then a whole payment without the mouse: the pay page's frame takes focus, Tab walks its fields.
    await page.keyboard.press('Enter');
    await modal(page).waitFor();
    for (const [label, text] of CARD) {
      await tabTo(page, form.getByLabel(label));
      // Typed as a person would: the expiry field puts in its own " / ".
      await page.keyboard.type(text.replace(' / ', ''));
    }
    await page.screenshot(shot(`demo-${name}-keyboard-filled`));
    await tabTo(page, form.getByRole('button', { name: /^Pay/ }));
    await page.keyboard.press('Enter');
    await expect.poll(() => status(page).textContent(), { timeout: 15_000 }).toMatch(/^Paid: txn_/);
    expect(await modal(page).count()).toBe(0);
    await expectNewestRow(page, paidBefore + 1);
    await page.context().close();
  });

  it('an origin the widget settings do not allow is refused: the page shows the error (onError/error), no modal, no SMS', async () => {
    const page = await newPage(w);
    await page.goto(strangerSite());
    await expect.poll(() => page.getByText(/Could not load transactions/).count()).toBe(1);
    await payButton(page).click();
    await expect
      .poll(() => status(page).textContent())
      .toContain("this page's origin is not in the widget settings' allowed_origins");
    expect(await modal(page).count()).toBe(0);
    await page.getByLabel('Customer phone').fill('(415) 555-0199');
    await page.getByRole('button', { name: 'Text a $20.00 payment request' }).click();
    await expect.poll(() => status(page).textContent()).toMatch(/^Error: .*allowed_origins/);
    await page.screenshot(shot(`demo-${name}-origin-refused`));
    const inbox = await w.s.http({
      method: 'GET',
      path: `/sandbox/messages?recipient=${encodeURIComponent('+14155550199')}`,
      auth: w.m.auth,
    });
    expect(inbox.body.data.messages).toEqual([]);
    // The server refused it too, not only the browser's CORS.
    const direct = await w.s.http({
      method: 'POST',
      path: `/widget/v1/pay-links?public_key=${w.m.public_key}`,
      json: { amount: 1 },
      headers: { origin: strangerSite() },
    });
    expect(direct.status).toBe(403);
    expect(pageErrors).toEqual([]);
    await page.context().close();
  });
});
