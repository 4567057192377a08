import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { newMerchant } from '../apps/server/src/testing/fixtures.js';
import {
  CARDS,
  checkState,
  createLink,
  fillCard,
  newPage,
  startWorld,
  transactions,
  YY,
  type World,
} from './support.js';

/** The other pages and states: bank account, cancelled, unknown, pending merchant, 320 px, Spanish, add-card. */
let w: World;
beforeAll(async () => {
  w = await startWorld();
});
afterAll(async () => {
  await w?.close();
});

describe('the pay page', () => {
  it('pays by bank account after the debit authorization is accepted: a pending ACH receipt', async () => {
    const id = await createLink(w, { amount: '40.00', allow_ach: true });
    const page = await newPage(w);
    await page.goto(`${w.s.url}/pay/${id}`);
    await page.getByLabel('Bank account').check();
    await page.getByLabel('Account holder name').fill('Ada Lovelace');
    await page.getByLabel('Routing number').fill('011000015');
    await page.getByLabel('Account number', { exact: true }).fill('000123456789');
    await page.getByLabel('Savings').check();
    await page.getByLabel('Confirm account number').fill('000123456780');
    await page.getByRole('button', { name: 'Pay $40.00' }).click();
    await page.locator('.error-summary').waitFor();
    expect(await page.locator('.error-summary li').allTextContents()).toEqual([
      'The account numbers do not match',
      'Accept the debit authorization to pay by bank account',
    ]);
    await checkState(page, 'bank-errors');
    await page.getByLabel('Confirm account number').fill('000123456789');
    await page.getByLabel('I authorize this debit').check();
    await page.getByRole('button', { name: 'Pay $40.00' }).click();
    await page.getByRole('heading', { name: 'Bank payment submitted' }).waitFor();
    expect(await page.locator('.receipt').textContent()).toContain('ACH ending in 6789');
    await checkState(page, 'receipt-bank');
    const txnId = (await page.locator('dt:text("Transaction ID") + dd').textContent())!;
    expect((await transactions(w)).some((t) => JSON.stringify(t).includes(txnId))).toBe(true);
    await page.context().close();
  });

  it('wears the merchant’s colour from widget settings, its text readable on it', async () => {
    const list = await w.s.http({
      method: 'GET',
      path: `/api/v1/widgets?merchant_key=${w.m.merchant_key}`,
      auth: w.m.auth,
    });
    expect(list.status).toBe(200);
    const widgetId = list.body.data[0].id;
    const put = await w.s.http({
      method: 'PUT',
      path: `/api/v1/widgets/${widgetId}`,
      auth: w.m.auth,
      json: { merchant_key: w.m.merchant_key, theme: { primary_color: '#ffd400' } },
    });
    expect(put.status).toBe(200);
    const id = await createLink(w, { amount: '11.00' });
    const page = await newPage(w);
    await page.goto(`${w.s.url}/pay/${id}`);
    const button = page.getByRole('button', { name: 'Pay $11.00' });
    expect(await button.evaluate((b) => getComputedStyle(b).backgroundColor)).toBe('rgb(255, 212, 0)');
    expect(await button.evaluate((b) => getComputedStyle(b).color)).toBe('rgb(17, 24, 39)');
    await checkState(page, 'brand-colour');
    await w.s.http({
      method: 'PUT',
      path: `/api/v1/widgets/${widgetId}`,
      auth: w.m.auth,
      json: { merchant_key: w.m.merchant_key, theme: { primary_color: null } },
    });
    await page.context().close();
  });

  it('shows the merchant’s logo and colour from widget settings', async () => {
    const list = await w.s.http({
      method: 'GET',
      path: `/api/v1/widgets?merchant_key=${w.m.merchant_key}`,
      auth: w.m.auth,
    });
    const widgetId = list.body.data[0].id;
    const logo = 'https://logo.example/acme.svg';
    const put = await w.s.http({
      method: 'PUT',
      path: `/api/v1/widgets/${widgetId}`,
      auth: w.m.auth,
      json: { merchant_key: w.m.merchant_key, theme: { primary_color: '#7c3aed' }, logo_url: logo },
    });
    expect(put.status).toBe(200);
    try {
      const id = await createLink(w, { amount: '13.00' });
      const page = await newPage(w);
      // The logo's https origin answered by the test: a blue square, as a merchant's server would.
      const svg =
        '<svg xmlns="http://www.w3.org/2000/svg" width="40" height="40"><rect width="40" height="40" fill="#7c3aed"/></svg>';
      await page.context().route(logo, (r) => r.fulfill({ status: 200, contentType: 'image/svg+xml', body: svg }));
      await page.goto(`${w.s.url}/pay/${id}`);
      const img = page.locator('header.merchant img.merchant__logo');
      await expect.poll(() => img.evaluate((i: HTMLImageElement) => i.complete && i.naturalWidth)).toBe(40);
      expect(await img.getAttribute('src')).toBe(logo);
      expect(await img.isVisible()).toBe(true);
      // The name is the heading's, once: not repeated beside the logo.
      const name = (await page.locator('h1').textContent())!.replace(/^Pay /, '');
      expect(await page.locator('header.merchant').textContent()).not.toContain(name);
      const button = page.getByRole('button', { name: 'Pay $13.00' });
      expect(await button.evaluate((b) => getComputedStyle(b).backgroundColor)).toBe('rgb(124, 58, 237)');
      expect(await button.evaluate((b) => getComputedStyle(b).color)).toBe('rgb(255, 255, 255)');
      await checkState(page, 'brand-logo');
      await page.setViewportSize({ width: 320, height: 700 });
      await checkState(page, 'brand-logo-320');
      await page.context().close();
    } finally {
      await w.s.http({
        method: 'PUT',
        path: `/api/v1/widgets/${widgetId}`,
        auth: w.m.auth,
        json: { merchant_key: w.m.merchant_key, theme: { primary_color: null }, logo_url: null },
      });
    }
  });

  it('the server-rendered form takes typing before its script runs, and hydration keeps what was typed', async () => {
    const id = await createLink(w, { amount: '14.00' });
    const page = await newPage(w);
    // Hold the page's script until the customer has typed: the form must already work without it.
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    await page.route(/\/pay\/assets\/.*\.js$/, async (r) => {
      await held;
      await r.continue();
    });
    const nav = page.goto(`${w.s.url}/pay/${id}`);
    const number = page.getByLabel('Card number');
    await number.fill('4242424242424242');
    await page.getByLabel('Name on card').fill('Early Typist');
    expect(await number.isEnabled()).toBe(true);
    expect(await page.evaluate(() => performance.getEntriesByName('remit:ready').length)).toBe(0);
    // Without its script the form must not submit itself (a GET with the card number in the address).
    expect(await page.getByRole('button', { name: 'Pay $14.00' }).isDisabled()).toBe(true);
    await page.getByLabel('Name on card').press('Enter');
    expect(page.url()).toBe(`${w.s.url}/pay/${id}`);
    await page.getByLabel('Card number').focus();
    release();
    await nav;
    await page.waitForFunction(() => performance.getEntriesByName('remit:ready').length === 1);
    expect(await number.inputValue()).toBe('4242424242424242');
    expect(await page.getByLabel('Name on card').inputValue()).toBe('Early Typist');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('card-number');
    // Typing on after hydration formats the whole number and shows the brand: the form owns the values.
    await number.press('End');
    await number.press('Backspace');
    await number.type('2');
    expect(await number.inputValue()).toBe('4242 4242 4242 4242');
    expect(await page.locator('#card-brand').textContent()).toContain('Visa');
    await page.getByLabel('Expiry date').fill(`12 / ${YY}`);
    await page.getByLabel('Security code').fill('123');
    await page.getByLabel('ZIP code').fill('94105');
    await page.getByRole('button', { name: 'Pay $14.00' }).click();
    await page.getByRole('heading', { name: 'Payment successful' }).waitFor();
    expect(await page.locator('.receipt').textContent()).toContain('4242');
    await page.context().close();
  });

  it("hydrating starts no Intl: the server's money texts are reused, the same on both sides, in English and Spanish", async () => {
    // A page's first Intl call costs 30–90 ms here (ICU starting), and a keystroke would wait for it.
    const id = await createLink(w, { amount: '20.00', tax: '1.60', discount: '2.00', pass_fee: true, allow_ach: true });
    for (const locale of ['en', 'es']) {
      const page = await newPage(w);
      await page.addInitScript(() => {
        const made: string[] = ((window as unknown as { intlMade: string[] }).intlMade = []);
        for (const k of ['NumberFormat', 'DateTimeFormat', 'PluralRules'] as const) {
          const Real = Intl[k] as unknown as new (...a: unknown[]) => object;
          (Intl as unknown as Record<string, unknown>)[k] = new Proxy(Real, {
            construct: (T, a) => (made.push(k), new T(...a)),
          });
        }
      });
      await page.goto(`${w.s.url}/pay/${id}?locale=${locale}`);
      const served = await page.locator('#app').innerText();
      await page.waitForFunction(() => performance.getEntriesByName('remit:ready').length === 1);
      expect(await page.evaluate(() => (window as unknown as { intlMade: string[] }).intlMade)).toEqual([]);
      expect(await page.locator('#app').innerText()).toBe(served);
      expect(served).toContain(locale === 'en' ? '$20.00' : '20.00');
      // An amount the server did not show (the bank total) is formatted when it is needed, and right.
      await page.getByLabel(locale === 'en' ? 'Bank account' : 'Cuenta bancaria').check();
      expect(await page.evaluate(() => (window as unknown as { intlMade: string[] }).intlMade.length)).toBeGreaterThan(
        0,
      );
      await page.context().close();
    }
  });

  it('a link the merchant deleted answers 410 and says it was cancelled; an unknown one a friendly 404', async () => {
    const id = await createLink(w);
    const del = await w.s.http({
      method: 'DELETE',
      path: `/api/v1/pay-link/${id}`,
      auth: w.m.auth,
      json: { merchant_key: w.m.merchant_key },
    });
    expect(del.status).toBe(200);
    const page = await newPage(w);
    expect((await page.goto(`${w.s.url}/pay/${id}`))!.status()).toBe(410);
    await page.getByRole('heading', { name: 'This payment link was cancelled' }).waitFor();
    await checkState(page, 'cancelled-410');
    expect((await page.goto(`${w.s.url}/pay/ord_doesnotexist000000000000`))!.status()).toBe(404);
    await page.getByRole('heading', { name: 'Payment link not found' }).waitFor();
    await checkState(page, 'unknown-404');
    await page.context().close();
  });

  it('a pending merchant’s link says it cannot take payments yet, and shows no form', async () => {
    const pending = await newMerchant(w.s, { auth: w.m.auth, approve: false, business_name: 'Pending Pies' });
    const id = await createLink(w, { amount: '9.00' }, pending);
    const page = await newPage(w);
    await page.goto(`${w.s.url}/pay/${id}`);
    await page.getByRole('heading', { name: 'This merchant cannot take payments yet' }).waitFor();
    expect(await page.getByLabel('Card number').count()).toBe(0);
    await checkState(page, 'pending-merchant');
    await page.context().close();
  });

  it('works on a 320 px wide screen and at 200% zoom: nothing scrolls sideways, targets ≥ 24 px', async () => {
    const id = await createLink(w, {
      amount: '1234.56',
      tax: '100.00',
      order_id: 'A-VERY-LONG-ORDER-IDENTIFIER-1234567890',
    });
    const page = await newPage(w, { viewport: { width: 320, height: 640 } });
    await page.goto(`${w.s.url}/pay/${id}`);
    const overflow = () =>
      page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(await overflow()).toBe(0);
    const small = await page.evaluate(
      () =>
        [...document.querySelectorAll('input, button, a')]
          .map((el) => el.getBoundingClientRect())
          .filter((r) => r.width > 0 && (r.width < 24 || r.height < 24)).length,
    );
    expect(small).toBe(0);
    await checkState(page, 'narrow-320');
    await fillCard(page, CARDS.visa);
    await page.getByRole('button', { name: /Pay/ }).click();
    await page.getByRole('heading', { name: 'Payment successful' }).waitFor();
    expect(await overflow()).toBe(0);
    await checkState(page, 'narrow-320-receipt');
    await page.context().close();
    // 200% zoom of a 640 px window is a 320 CSS px layout at device scale 2.
    const zoomed = await newPage(w, { viewport: { width: 640, height: 800 }, deviceScaleFactor: 2 });
    await zoomed.goto(`${w.s.url}/pay/${await createLink(w, { amount: '5.00' })}`);
    await zoomed.evaluate(() => ((document.body.style as CSSStyleDeclaration & { zoom: string }).zoom = '2'));
    expect(
      await zoomed.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth + 1),
    ).toBe(true);
    await zoomed.screenshot({ path: 'test-output/screenshots/zoom-200.png', fullPage: true });
    await zoomed.context().close();
  });

  it('speaks Spanish to a Spanish browser and on ?locale=es, amounts and dates formatted for it', async () => {
    const id = await createLink(w, { amount: '1500.00' });
    const page = await newPage(w, { locale: 'es-MX' });
    await page.goto(`${w.s.url}/pay/${id}`);
    expect(await page.getAttribute('html', 'lang')).toBe('es');
    await page.getByRole('heading', { name: 'Pagar a Acme Coffee LLC' }).waitFor();
    await page.getByLabel('Número de tarjeta').fill('1234');
    await page.getByLabel('Fecha de caducidad').focus();
    await page.getByText('Introduzca un número de tarjeta válido').first().waitFor();
    await checkState(page, 'spanish-form');
    await page.getByLabel('Número de tarjeta').fill(CARDS.visa);
    await page.getByLabel('Fecha de caducidad').fill('12 / 34');
    await page.getByLabel('Código de seguridad').fill('123');
    await page.getByLabel('Nombre en la tarjeta').fill('Ada Lovelace');
    await page.getByLabel('Código postal (ZIP)').fill('94105');
    await page.getByRole('button', { name: /^Pagar/ }).click();
    await page.getByRole('heading', { name: 'Pago realizado' }).waitFor();
    const text = (await page.locator('.receipt').textContent())!;
    expect(text).toContain('Visa terminada en 4242');
    expect(text).toMatch(/de \w+ de 20\d\d/); // "23 de noviembre de 2026"
    await checkState(page, 'spanish-receipt');
    await page.context().close();
    const en = await newPage(w, { locale: 'es-MX' });
    await en.goto(`${w.s.url}/pay/${await createLink(w)}?locale=en`);
    expect(await en.getAttribute('html', 'lang')).toBe('en');
    await en.getByRole('heading', { name: 'Pay Acme Coffee LLC' }).waitFor();
    await en.context().close();
  });

  it('fetches the Spanish chunk only for a Spanish customer, before the page starts (preloaded by the server)', async () => {
    const id = await createLink(w);
    for (const [browserLocale, wanted] of [
      ['en-US', false],
      ['es-MX', true],
    ] as const) {
      const page = await newPage(w, { locale: browserLocale });
      const chunks: string[] = [];
      page.on('request', (r) => void (/\/messages-es-[\w-]+\.js$/.test(r.url()) && chunks.push(r.url())));
      await page.goto(`${w.s.url}/pay/${id}`);
      await page.waitForFunction(() => performance.getEntriesByName('remit:ready').length === 1);
      expect(chunks.length > 0).toBe(wanted);
      expect(
        await page.getByRole('heading', { name: wanted ? 'Pagar a Acme Coffee LLC' : 'Pay Acme Coffee LLC' }).count(),
      ).toBe(1);
      await page.context().close();
    }
  });

  it('the add-card page saves the card on the customer without charging it; the merchant then charges it', async () => {
    const api = (path: string, json: object) =>
      w.s.http({
        method: 'POST',
        path: `/api/v1${path}`,
        auth: w.m.auth,
        json: { merchant_key: w.m.merchant_key, ...json },
      });
    const add = await api('/customers/add', { first_name: 'Rita', last_name: 'Levi', email: 'rita@example.com' });
    const customerId = add.body.data.customer_id as number;
    expect((await api(`/customers/request-card/${customerId}`, {})).status).toBe(200);
    const r = (await w.s.core.ctx.db.execute(
      sql`select id from pay_links where customer_id = ${customerId} and kind = 'card_request'`,
    )) as unknown as {
      rows: Array<{ id: string }>;
    };
    const token = r.rows[0]!.id;
    const before = (await transactions(w)).length;
    const page = await newPage(w);
    await page.goto(`${w.s.url}/pay/card/${token}`);
    await page.getByText('Hi Rita').waitFor();
    await checkState(page, 'add-card-form');
    await fillCard(page, CARDS.amex, { cvc: '1234' });
    await page.getByRole('button', { name: 'Save card' }).click();
    await page.getByRole('heading', { name: 'Card saved' }).waitFor();
    expect(await page.locator('.receipt').textContent()).toMatch(/(Amex|American Express) ending in 0005/);
    expect(await page.locator('.receipt').textContent()).toContain('You have not been charged');
    await checkState(page, 'add-card-saved');
    expect((await transactions(w)).length).toBe(before);
    const charge = await api(`/customers/charge/${customerId}`, { amount: 19.99, order_id: 'after-add-card-e2e' });
    expect(charge.status).toBe(200);
    await page.context().close();
  });
});
