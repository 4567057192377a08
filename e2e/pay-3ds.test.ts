import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reconcilePayments } from '@remit/core';
import { newMerchant } from '../apps/server/src/testing/fixtures.js';
import { startTestServer } from '../apps/server/src/testing/harness.js';
import { emulatedStripe, startStripeEmulator, type StripeEmulator } from '../apps/server/src/testing/stripe-emulator.js';
import { launchChromium } from './browser.js';
import { CARDS, checkState, createLink, fillCard, newPage, SCREENSHOTS, YY, type World } from './support.js';

/**
 * The pay page with the Stripe connector in real Chromium: 3-D Secure at Stripe's (emulated) page
 * and back, and a card attempt whose answer Stripe never gave, confirmed on the page.
 */
let w: World;
let emu: StripeEmulator;
beforeAll(async () => {
  emu = await startStripeEmulator();
  const processor = emulatedStripe(emu);
  const s = await startTestServer({ processor });
  const m = await newMerchant(s);
  const browser = await launchChromium();
  w = {
    s,
    m,
    browser,
    async close() {
      await browser.close();
      await s.close();
    },
  };
});
afterAll(async () => {
  await w?.close();
  await emu?.close();
});

describe('3-D Secure at Stripe', () => {
  it("passed: the pay page sends the customer to Stripe's challenge and back; the receipt shows", async () => {
    const id = await createLink(w, { amount: '18.00' });
    const page = await newPage(w);
    await page.goto(`${w.s.url}/pay/${id}`);
    await fillCard(page, CARDS.threeDs);
    await page.getByRole('button', { name: 'Pay $18.00' }).click();
    await page.waitForURL(`${emu.url}/3ds/**`);
    await page.screenshot({ path: `${SCREENSHOTS}/stripe-3ds-challenge.png`, fullPage: true });
    await page.getByRole('button', { name: 'Complete' }).click();
    await page.waitForURL(`${w.s.url}/pay/${id}`);
    await page.getByRole('heading', { name: 'Payment successful' }).waitFor();
    expect(await page.locator('.receipt').textContent()).toContain('Visa ending in 3220');
    await checkState(page, 'stripe-3ds-paid');
    await page.context().close();
  });

  it('failed: back on the pay page, the decline says why and the form is there for another card', async () => {
    const id = await createLink(w, { amount: '19.00' });
    const page = await newPage(w);
    await page.goto(`${w.s.url}/pay/${id}`);
    await fillCard(page, CARDS.threeDs);
    await page.getByRole('button', { name: 'Pay $19.00' }).click();
    await page.waitForURL(`${emu.url}/3ds/**`);
    await page.getByRole('button', { name: 'Fail' }).click();
    await page.waitForURL(`${w.s.url}/pay/${id}?declined=three_ds_failed`);
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toContain('Your bank could not verify this payment (3-D Secure)');
    await checkState(page, 'stripe-3ds-declined');
    await fillCard(page, CARDS.visa);
    await page.getByRole('button', { name: 'Pay $19.00' }).click();
    await page.getByRole('heading', { name: 'Payment successful' }).waitFor();
    await page.context().close();
  });
});

describe("Stripe's answer lost", () => {
  it("the page says it is confirming the payment, then shows the receipt once Stripe is asked", async () => {
    const id = await createLink(w, { amount: '21.00' });
    const page = await newPage(w);
    await page.goto(`${w.s.url}/pay/${id}`);
    await fillCard(page, CARDS.visa);
    emu.dropAnswers(/^\/v1\/payment_intents$/, 3);
    await page.getByRole('button', { name: 'Pay $21.00' }).click();
    const status = page.getByRole('status').filter({ hasText: "We're confirming your payment" });
    await status.waitFor();
    await checkState(page, 'link-confirming');
    // A reload shows the same state, server-rendered.
    await page.reload();
    await status.waitFor();
    expect(await page.getByLabel('Card number').count()).toBe(0);
    await reconcilePayments(w.s.core.ctx);
    await page.getByRole('button', { name: 'Check again' }).click();
    await page.getByRole('heading', { name: 'Payment successful' }).waitFor();
    await page.context().close();
  });

  it('declined at Stripe: the page says so and the form comes back (Spanish)', async () => {
    const id = await createLink(w, { amount: '22.00' });
    const page = await newPage(w, { locale: 'es-ES' });
    await page.goto(`${w.s.url}/pay/${id}`);
    await page.getByLabel('Número de tarjeta').fill(CARDS.declined);
    await page.getByLabel('Fecha de caducidad').fill(`12 / ${YY}`);
    await page.getByLabel('Código de seguridad').fill('123');
    await page.getByLabel('Nombre en la tarjeta').fill('Ada Lovelace');
    await page.getByLabel('Código postal (ZIP)').fill('94105');
    emu.dropAnswers(/^\/v1\/payment_intents$/, 3);
    await page.getByRole('button', { name: /^Pagar / }).click();
    await page.getByRole('status').filter({ hasText: 'Estamos confirmando su pago' }).waitFor();
    await checkState(page, 'link-confirming-es');
    await reconcilePayments(w.s.core.ctx);
    // The page asks by itself every few seconds.
    await page.getByRole('alert').filter({ hasText: 'Pago rechazado' }).waitFor({ timeout: 15_000 });
    expect(await page.getByLabel('Número de tarjeta').count()).toBe(1);
    await checkState(page, 'link-confirming-declined-es');
    await page.context().close();
  });
});
