import { mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Frame, FrameLocator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCALES, type Locale } from '../packages/contract/src/locales.js';
import { PAY } from '../packages/contract/src/catalogue/pay.js';
import { WIDGETS as WIDGET_MESSAGES } from '../packages/contract/src/catalogue/widgets.js';
import { messagesOf, type Messages } from '../apps/pay/src/i18n.js';
import { CARDS, checkState, createLink, newPage, startWorld, YY, type World } from './support.js';

/**
 * The pay page and the widgets in each of the 12 languages, in real Chromium: the language a
 * `?locale=` (or the loader's `locale`, or the browser's languages) asks for, its chunk fetched and
 * no other, Arabic laid out right to left, and a payment completed in French and in Arabic.
 * Screenshots in /tmp/shots/languages/.
 */
const SHOTS = '/tmp/shots/languages';
mkdirSync(SHOTS, { recursive: true });

let w: World;
let shop: string;
const servers: Server[] = [];
const catalogue: Partial<Record<Locale, Messages>> = {};

/** The pay page's catalogue of a language, as its chunk has it. */
async function messages(l: Locale): Promise<Messages> {
  return (catalogue[l] ??= messagesOf(PAY[l]));
}

/** A message with an amount in it (Intl's text differs by engine): its text before and after. */
const around = (f: (a: string) => string): [string, string] => f('\u0000').split('\u0000') as [string, string];

/** Requests of language chunks a page makes: the pay page's and the widgets'. */
function languageRequests(page: Page): string[] {
  const seen: string[] = [];
  page.on('request', (r) => {
    const m = /\/pay\/assets\/messages-([\w-]+?)-[\w-]{8}\.js$|\/js\/widget-messages\/([^?]+)/.exec(r.url());
    if (m) seen.push(m[1] ? `page:${m[1]}` : `widget:${decodeURIComponent(m[2]!)}`);
  });
  return seen;
}

function shopPage(remit: string, key: string, locale: string | null): string {
  const q = locale ? `&locale=${encodeURIComponent(locale)}` : '';
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Shop</title>
<script src="${remit}/js/dynamic-launch.js?remit_merchant_public_key=${key}${q}"></script></head>
<body><main aria-label="Shop"><h1>Shop</h1><button id="pay" type="button">Buy</button><p id="out" role="status"></p>
<table id="remit_complete_transactions"></table></main>
<script>document.getElementById('pay').addEventListener('click', () => getPaymentPage(12.5).then((r) => (document.getElementById('out').textContent = r.status)));</script>
</body></html>`;
}

beforeAll(async () => {
  w = await startWorld();
  const server = createServer((req, res) => {
    const locale = new URL(req.url!, 'http://x').searchParams.get('locale');
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(shopPage(w.s.url, w.m.public_key, locale));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  servers.push(server);
  shop = `http://localhost:${(server.address() as AddressInfo).port}`;
  const id = (
    await w.s.http({ method: 'GET', path: '/api/v1/widgets', auth: w.m.auth, json: { merchant_key: w.m.merchant_key } })
  ).body.data[0].id;
  await w.s.http({
    method: 'PUT',
    path: `/api/v1/widgets/${id}`,
    auth: w.m.auth,
    json: { merchant_key: w.m.merchant_key, allowed_origins: [shop] },
  });
});
afterAll(async () => {
  await w?.close();
  for (const s of servers) await new Promise((r) => s.close(r));
});

describe('the pay page in each language', () => {
  it('?locale= picks the language: title, lang and dir, the Pay button; only that language’s chunk is fetched', async () => {
    const id = await createLink(w, { amount: '12.50' });
    const merchant = (await w.s.http({ method: 'GET', path: `/pay/api/links/${id}` })).body.merchant.name as string;
    for (const l of LOCALES) {
      const m = await messages(l);
      const page = await newPage(w);
      const chunks = languageRequests(page);
      await page.goto(`${w.s.url}/pay/${id}?locale=${l}`);
      await page.waitForFunction(() => performance.getEntriesByName('remit:ready').length > 0);
      expect(await page.title(), l).toBe(`${m.title} · ${merchant}`);
      expect(await page.evaluate(() => [document.documentElement.lang, document.documentElement.dir]), l).toEqual([
        l,
        l === 'ar' ? 'rtl' : 'ltr',
      ]);
      const [before, after] = around(m.pay);
      const pay = (await page.locator('button[type=submit]').first().textContent())!;
      expect(pay.startsWith(before) && pay.endsWith(after), `${l}: ${pay}`).toBe(true);
      await page.getByLabel(m.cardNumber).waitFor();
      expect(chunks, l).toEqual(l === 'en' ? [] : [`page:${l}`]);
      await page.screenshot({ path: join(SHOTS, `pay-${l}.png`), fullPage: true });
      await page.context().close();
    }
  });

  it('without ?locale=, the browser’s languages choose (zh-CN → Simplified Chinese); an unknown tag falls back to them', async () => {
    const id = await createLink(w, { amount: '3.00' });
    const zh = await messages('zh-Hans');
    const page = await newPage(w, { locale: 'zh-CN' });
    const chunks = languageRequests(page);
    await page.goto(`${w.s.url}/pay/${id}?locale=tlh-x-klingon`);
    await page.getByLabel(zh.cardNumber).waitFor();
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('zh-Hans');
    expect(chunks).toEqual(['page:zh-Hans']);
    await page.context().close();
  });

  it('Arabic reads right to left: the form’s labels and the summary mirror (bounding boxes), the card number stays left to right', async () => {
    const id = await createLink(w, { amount: '12.50' });
    const box = async (l: Locale) => {
      const m = await messages(l);
      const page = await newPage(w);
      await page.goto(`${w.s.url}/pay/${id}?locale=${l}`);
      const label = page.locator('label', { hasText: m.cardNumber }).first();
      const input = page.getByLabel(m.cardNumber);
      await input.fill(CARDS.visa);
      const out = {
        label: (await label.boundingBox())!,
        input: (await input.boundingBox())!,
        dir: await input.evaluate((e) => getComputedStyle(e).direction),
        value: await input.inputValue(),
      };
      await page.context().close();
      return out;
    };
    const en = await box('en');
    const ar = await box('ar');
    // English: the label starts at the input's left edge; Arabic: it ends at the input's right edge.
    expect(Math.abs(en.label.x - en.input.x)).toBeLessThan(2);
    expect(Math.abs(ar.label.x + ar.label.width - (ar.input.x + ar.input.width))).toBeLessThan(2);
    // The columns mirror: the form's left edge in English is its right edge's distance from the right in Arabic.
    const width = 1024;
    expect(Math.abs(width - (ar.input.x + ar.input.width) - en.input.x)).toBeLessThan(24);
    expect(en.input.x).not.toBeCloseTo(ar.input.x, -1);
    expect([ar.dir, ar.value]).toEqual(['ltr', '4242 4242 4242 4242']);
  });
});

/** Fills and pays the card form in the page's language; the receipt heading appears. */
async function payIn(where: Page | Frame | FrameLocator, m: Messages, receipt = true) {
  await where.getByLabel(m.cardNumber).fill(CARDS.visa);
  await where.getByLabel(m.expiry).fill(`12 / ${YY}`);
  await where.getByLabel(m.cvc).fill('123');
  await where.getByLabel(m.nameOnCard).fill('Ada Lovelace');
  await where.getByLabel(m.zip).fill('94105');
  await where.getByRole('button', { name: new RegExp(`^${around(m.pay)[0]}`) }).click();
  if (receipt) await where.getByRole('heading', { name: m.paidTitle }).waitFor({ timeout: 15_000 });
}

describe('a payment completed in French and in Arabic', () => {
  for (const l of ['fr', 'ar'] as const) {
    it(`${l}: axe finds nothing, the card is paid, the receipt and its email are in ${l}`, async () => {
      const m = await messages(l);
      const id = await createLink(w, { amount: '42.00', email: `customer-${l}@example.com`, locale: l });
      const page = await newPage(w);
      await page.goto(`${w.s.url}/pay/${id}?locale=${l}`);
      await page.getByLabel(m.cardNumber).waitFor();
      await checkState(page, `languages-pay-${l}`);
      await page.screenshot({ path: join(SHOTS, `pay-form-${l}.png`), fullPage: true });
      await payIn(page, m);
      await checkState(page, `languages-paid-${l}`);
      await page.screenshot({ path: join(SHOTS, `paid-${l}.png`), fullPage: true });
      const inbox = async () =>
        (await w.s.http({ method: 'GET', path: `/sandbox/messages?merchant_key=${w.m.merchant_key}`, auth: w.m.auth }))
          .body.data.messages as Array<{
          recipient: string;
          subject: string;
        }>;
      const receiptWord = l === 'fr' ? 'Reçu de' : 'إيصال من';
      await expect
        .poll(
          async () =>
            (await inbox())
              .filter((x) => x.recipient === `customer-${l}@example.com`)
              .map((x) => x.subject.split(' ')[0])
              .sort(),
          { timeout: 10_000 },
        )
        .toEqual(l === 'fr' ? ['Demande', 'Reçu'] : ['إيصال', 'طلب']);
      expect((await inbox()).some((x) => x.subject.startsWith(receiptWord))).toBe(true);
      await page.context().close();
    });
  }
});

describe('the widgets in each language', () => {
  // One test a language: each has its own time limit, and a failure names the language.
  for (const l of LOCALES) {
    it(`${l}: the loader’s ?locale= sets the modal and the table; English fetches no messages, another language only its own`, async () => {
      const wm = WIDGET_MESSAGES[l];
      const page = await newPage(w);
      const chunks = languageRequests(page);
      await page.goto(`${shop}/?locale=${l}`);
      await page.locator('#remit_complete_transactions caption', { hasText: wm.caption }).waitFor();
      await page.getByRole('button', { name: 'Buy' }).click();
      const [before, after] = wm.pay.split('{amount}') as [string, string];
      const dialog = page.getByRole('dialog');
      await dialog.waitFor();
      const label = (await dialog.getAttribute('aria-label'))!;
      expect(label.startsWith(before) && label.endsWith(after), `${l}: ${label}`).toBe(true);
      expect(await page.getByRole('button', { name: wm.close }).count(), l).toBe(1);
      const m = await messages(l);
      const frame = page.frameLocator('remit-pay iframe');
      await frame.getByLabel(m.cardNumber).waitFor();
      expect(
        chunks.filter((c) => c.startsWith('widget')),
        l,
      ).toEqual(l === 'en' ? [] : [`widget:${l}`]);
      expect(
        chunks.filter((c) => c.startsWith('page')),
        l,
      ).toEqual(l === 'en' ? [] : [`page:${l}`]);
      if (l === 'ar' || l === 'ja' || l === 'fr') await page.screenshot({ path: join(SHOTS, `widget-modal-${l}.png`) });
      if (l === 'ar') {
        // Right to left: the close button sits at the dialog's left end.
        const d = (await dialog.boundingBox())!;
        const x = (await page.getByRole('button', { name: wm.close }).boundingBox())!;
        expect(x.x - d.x).toBeLessThan(d.width / 4);
        expect(await page.locator('remit-pay').getAttribute('dir')).toBe('rtl');
      }
      await page.keyboard.press('Escape');
      await page.context().close();
    });
  }

  it('without a locale the browser’s language chooses (Accept-Language on the messages’ fetch); a payment in the Arabic modal completes', async () => {
    const page = await newPage(w, { locale: 'ar-EG' });
    const chunks = languageRequests(page);
    await page.goto(shop);
    const wm = WIDGET_MESSAGES.ar;
    await page.locator('#remit_complete_transactions caption', { hasText: wm.caption }).waitFor();
    await page.getByRole('button', { name: 'Buy' }).click();
    const m = await messages('ar');
    const frame = page.frameLocator('remit-pay iframe');
    await frame.getByLabel(m.cardNumber).waitFor();
    await checkState(page, 'languages-widget-ar');
    await payIn(frame, m, false); // the modal closes on success
    await expect.poll(() => page.locator('#out').textContent(), { timeout: 15_000 }).toBe('succeeded');
    expect(chunks.filter((c) => c.startsWith('widget'))).toEqual(['widget:ar-EG']);
    await page.screenshot({ path: join(SHOTS, 'widget-paid-ar.png'), fullPage: true });
    await page.context().close();
  });
});
