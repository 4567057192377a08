import { mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { AxeBuilder } from '@axe-core/playwright';
import type { BrowserContextOptions, Frame, Page } from 'playwright-core';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLink, fillCard, newPage, pageErrors, startWorld, type World } from './support.js';

/**
 * A merchant's appearance (PUT /widgets/{id} `appearance`, or a page's own) on every surface in
 * real Chromium: the hosted pay page on its own, the add-card page, the receipt, the pay modal and
 * the widgets on a shop page of another origin under a strict CSP. Computed colours and fonts are
 * checked, axe finds nothing in any theme, and each state is saved under /tmp/shots/appearance/.
 */
const SHOTS = '/tmp/shots/appearance';
mkdirSync(SHOTS, { recursive: true });
const NONCE = 'appearanceN0nce';

let w: World;
let widgetId: string;
let shop: string;
let server: Server;

/** A shop page with the loader tag; `appearance` (JSON) goes on it as data-appearance, the page's own. */
function shopHtml(remit: string, key: string, appearance: string | null): string {
  const attr =
    appearance === null ? '' : ` data-appearance="${appearance.replace(/&/g, '&amp;').replace(/"/g, '&quot;')}"`;
  // The listener comes before the loader tag: remit:ready fires as the loader runs.
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Acme shop</title>
<script nonce="${NONCE}">
window.events = [];
for (const t of ['remit:ready', 'remit:payment-success', 'remit:close', 'remit:error']) document.addEventListener(t, (e) => events.push({ type: e.type, detail: e.detail }));
</script>
<script nonce="${NONCE}" src="${remit}/js/dynamic-launch.js?remit_merchant_public_key=${key}"${attr}></script></head>
<body><main aria-label="Acme shop"><h1>Acme shop</h1>
<p><button id="pay" type="button">Pay $12.50</button></p>
<div id="tx"></div>
</main>
<script nonce="${NONCE}">
document.getElementById('pay').addEventListener('click', () => getPaymentPage(12.5));
Remit.mountTransactions(document.getElementById('tx'));
</script></body></html>`;
}

beforeAll(async () => {
  w = await startWorld();
  server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    res.writeHead(url.pathname === '/' ? 200 : 404, {
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': `default-src 'none'; script-src 'nonce-${NONCE}' ${w.s.url}; connect-src ${w.s.url}; frame-src ${w.s.url}; style-src 'self'; base-uri 'none'`,
    });
    res.end(url.pathname === '/' ? shopHtml(w.s.url, w.m.public_key, url.searchParams.get('appearance')) : 'not found');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  shop = `http://localhost:${(server.address() as AddressInfo).port}`;
  widgetId = (
    await w.s.http({ method: 'GET', path: '/api/v1/widgets', auth: w.m.auth, json: { merchant_key: w.m.merchant_key } })
  ).body.data[0].id;
  expect((await put({ allowed_origins: [shop] })).status).toBe(200);
});
afterAll(async () => {
  await w?.close();
  await new Promise((r) => server?.close(r));
});

const put = (json: Record<string, unknown>) =>
  w.s.http({
    method: 'PUT',
    path: `/api/v1/widgets/${widgetId}`,
    auth: w.m.auth,
    json: { merchant_key: w.m.merchant_key, ...json },
  });

/** Screenshot to /tmp/shots/appearance/<name>.png and axe (WCAG 2.x A/AA, best practice; colour contrast included). */
async function look(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
  const result = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'])
    .analyze();
  expect(
    result.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`),
    name,
  ).toEqual([]);
  expect(pageErrors, name).toEqual([]);
}

/** What a customer sees of the pay page: computed colours and font. */
const payPageLook = (where: Page | Frame) =>
  where.evaluate(() => {
    const css = (sel: string) => getComputedStyle(document.querySelector(sel)!);
    const button = css('button.button');
    return {
      page: css('body').backgroundColor,
      card: css('.payment').backgroundColor,
      text: css('body').color,
      font: css('body').fontFamily,
      size: css('html').fontSize,
      button: button.backgroundColor,
      buttonText: button.color,
      radius: button.borderTopLeftRadius,
      input: css('.input').borderTopColor,
    };
  });

const rgb = (hex: string) => `rgb(${[1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)).join(', ')})`;

interface Case {
  name: string;
  appearance: Record<string, unknown> | null;
  options?: BrowserContextOptions;
  want: {
    card: string;
    text: string;
    button: string;
    buttonText: string;
    font?: RegExp;
    radius?: string;
    size?: string;
  };
}
const CASES: Case[] = [
  {
    name: 'default',
    appearance: null,
    want: {
      card: '#ffffff',
      text: '#111827',
      button: '#1d4ed8',
      buttonText: '#ffffff',
      font: /^system-ui/,
      radius: '8px',
    },
  },
  {
    name: 'night',
    appearance: { theme: 'night' },
    want: { card: '#1f2937', text: '#f9fafb', button: '#60a5fa', buttonText: '#111827' },
  },
  {
    name: 'flat',
    appearance: { theme: 'flat' },
    want: { card: '#ffffff', text: '#1f2937', button: '#111827', buttonText: '#ffffff', radius: '2px' },
  },
  {
    name: 'auto-light',
    appearance: { theme: 'auto' },
    options: { colorScheme: 'light' },
    want: { card: '#ffffff', text: '#111827', button: '#1d4ed8', buttonText: '#ffffff' },
  },
  {
    name: 'auto-dark',
    appearance: { theme: 'auto' },
    options: { colorScheme: 'dark' },
    want: { card: '#1f2937', text: '#f9fafb', button: '#60a5fa', buttonText: '#111827' },
  },
  {
    name: 'custom',
    appearance: {
      theme: 'default',
      variables: {
        colorPrimary: '#7c3aed',
        colorBackground: '#fffbeb',
        colorText: '#1c1917',
        colorBorder: '#a8a29e',
        fontFamily: 'Georgia, serif',
        fontSizeBase: '18px',
        borderRadius: '14px',
      },
    },
    want: {
      card: '#fffbeb',
      text: '#1c1917',
      button: '#7c3aed',
      buttonText: '#ffffff',
      font: /^Georgia, serif$/,
      radius: '14px',
      size: '18px',
    },
  },
];

function expectLook(got: Awaited<ReturnType<typeof payPageLook>>, want: Case['want'], name: string) {
  expect(got.card, name).toBe(rgb(want.card));
  expect(got.text, name).toBe(rgb(want.text));
  expect(got.button, name).toBe(rgb(want.button));
  expect(got.buttonText, name).toBe(rgb(want.buttonText));
  if (want.font) expect(got.font, name).toMatch(want.font);
  if (want.radius) expect(got.radius, name).toBe(want.radius);
  expect(got.size, name).toBe(want.size ?? '16px');
}

describe('appearance in every theme', () => {
  it.each(CASES)(
    '$name: the pay page on its own, its errors and its receipt',
    async ({ name, appearance, options, want }) => {
      expect((await put({ appearance })).status).toBe(200);
      const page = await newPage(w, options);
      await page.goto(`${w.s.url}/pay/${await createLink(w, { amount: '21.00' })}`);
      expectLook(await payPageLook(page), want, name);
      await look(page, `pay-${name}`);
      await page.getByRole('button', { name: /^Pay/ }).click();
      await page.locator('.error-summary').waitFor();
      await look(page, `pay-${name}-errors`);
      await fillCard(page, '4242424242424242');
      await page.getByRole('button', { name: /^Pay/ }).click();
      await page.getByRole('heading', { name: 'Payment successful' }).waitFor();
      expect(await page.evaluate(() => getComputedStyle(document.body).color)).toBe(rgb(want.text));
      await look(page, `receipt-${name}`);
      await page.context().close();
    },
  );

  it.each(CASES)(
    '$name: the widgets and the pay modal on a shop page (the pay page inside it too)',
    async ({ name, appearance, options, want }) => {
      expect((await put({ appearance })).status).toBe(200);
      const page = await newPage(w, { ...options, viewport: { width: 1024, height: 900 } });
      await page.goto(shop);
      await page.locator('remit-transactions, #tx').first().waitFor();
      await expect
        .poll(() =>
          page
            .locator('#tx')
            .getByText(/No completed transactions yet|Date/)
            .count(),
        )
        .toBeGreaterThan(0);
      await page.getByRole('button', { name: 'Pay $12.50' }).click();
      const frameEl = page.locator('iframe[title="Payment form: Pay $12.50"]');
      await page.frameLocator('iframe[title="Payment form: Pay $12.50"]').getByLabel('Card number').waitFor();
      const frame = (await (await frameEl.elementHandle())!.contentFrame())!;
      await expect.poll(async () => (await payPageLook(frame)).card).toBe(rgb(want.card));
      expectLook(await payPageLook(frame), want, `${name} in the modal`);
      const dialog = await page.evaluate(() => {
        const d = document.querySelector('remit-pay')!.shadowRoot!.querySelector('dialog')!;
        const s = getComputedStyle(d);
        return { background: s.backgroundColor, color: s.color, font: s.fontFamily };
      });
      expect(dialog.background).toBe(rgb(want.card));
      expect(dialog.color).toBe(rgb(want.text));
      if (want.font) expect(dialog.font).toMatch(want.font);
      await look(page, `modal-${name}`);
      await page.keyboard.press('Escape');
      await expect.poll(() => page.locator('remit-pay').count()).toBe(0);
      const table = await page.evaluate(() => {
        const caption = document.getElementById('tx')!.shadowRoot!.querySelector('caption')!;
        return getComputedStyle(caption).color;
      });
      expect(table).toBe(rgb(want.text));
      await look(page, `widgets-${name}`);
      await page.context().close();
    },
  );
});

describe("a page's own appearance", () => {
  it('goes over the settings in the widgets and the pay page they open', async () => {
    expect((await put({ appearance: { theme: 'flat', variables: { colorPrimary: '#7c3aed' } } })).status).toBe(200);
    const page = await newPage(w);
    const warnings: string[] = [];
    page.on('console', (m) => m.type() === 'warning' && warnings.push(m.text()));
    await page.goto(`${shop}/?appearance=${encodeURIComponent(JSON.stringify({ theme: 'night' }))}`);
    await page.getByRole('button', { name: 'Pay $12.50' }).click();
    await page.frameLocator('iframe[title="Payment form: Pay $12.50"]').getByLabel('Card number').waitFor();
    const frame = (await (await page
      .locator('iframe[title="Payment form: Pay $12.50"]')
      .elementHandle())!.contentFrame())!;
    expectLook(
      await payPageLook(frame),
      { card: '#1f2937', text: '#f9fafb', button: '#7c3aed', buttonText: '#ffffff' },
      'override',
    );
    expect(
      await page.evaluate(
        () =>
          getComputedStyle(document.querySelector('remit-pay')!.shadowRoot!.querySelector('dialog')!).backgroundColor,
      ),
    ).toBe(rgb('#1f2937'));
    await look(page, 'override-night-modal');
    expect(warnings).toEqual([]);
    // The loader's typed events: ready first, with the key.
    expect(
      (
        await page.evaluate(() => (window as unknown as { events: Array<{ type: string; detail: unknown }> }).events)
      )[0],
    ).toEqual({
      type: 'remit:ready',
      detail: { public_key: w.m.public_key },
    });
    await page.context().close();
  });

  it('that would not read is ignored with a console warning naming the pair', async () => {
    const page = await newPage(w);
    const warnings: string[] = [];
    page.on('console', (m) => m.type() === 'warning' && warnings.push(m.text()));
    await page.goto(
      `${shop}/?appearance=${encodeURIComponent(JSON.stringify({ variables: { colorText: '#d1d5db' } }))}`,
    );
    await page.getByRole('button', { name: 'Pay $12.50' }).click();
    await page.frameLocator('iframe[title="Payment form: Pay $12.50"]').getByLabel('Card number').waitFor();
    await expect
      .poll(() => warnings)
      .toEqual([
        'Remit: the appearance option is ignored: colorText on colorBackground has contrast 1.4:1; at least 4.5:1 is required',
      ]);
    // The settings' appearance (flat, violet) stands, in the modal and in the pay page.
    const frame = (await (await page
      .locator('iframe[title="Payment form: Pay $12.50"]')
      .elementHandle())!.contentFrame())!;
    expectLook(
      await payPageLook(frame),
      { card: '#ffffff', text: '#1f2937', button: '#7c3aed', buttonText: '#ffffff', radius: '2px' },
      'ignored',
    );
    await look(page, 'override-ignored');
    await page.context().close();
  });

  it('the add-card page wears the settings too', async () => {
    expect((await put({ appearance: { theme: 'night' } })).status).toBe(200);
    const api = (path: string, json: object) =>
      w.s.http({
        method: 'POST',
        path: `/api/v1${path}`,
        auth: w.m.auth,
        json: { merchant_key: w.m.merchant_key, ...json },
      });
    const customerId = (await api('/customers/add', { first_name: 'Rita', email: 'rita@example.com' })).body.data
      .customer_id as number;
    expect((await api(`/customers/request-card/${customerId}`, {})).status).toBe(200);
    const r = (await w.s.core.ctx.db.execute(
      sql`select id from pay_links where customer_id = ${customerId} and kind = 'card_request'`,
    )) as unknown as { rows: Array<{ id: string }> };
    const page = await newPage(w);
    await page.goto(`${w.s.url}/pay/card/${r.rows[0]!.id}`);
    await page.getByText('Hi Rita').waitFor();
    expectLook(await payPageLook(page), CASES[1]!.want, 'add-card night');
    await look(page, 'add-card-night');
    await page.context().close();
    await put({ appearance: null });
  });
});
