import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReceiver, type Receiver } from '../packages/core/src/webhooks/test-support.js';
import { CARDS, checkState, createLink, fillCard, newPage, startWorld, transactions, type World } from './support.js';

/** Paying a link by card in real Chromium against the real server: every test card and the receipt. */
let w: World;
let rx: Receiver;
beforeAll(async () => {
  w = await startWorld();
  rx = await startReceiver();
  await w.s.http({
    method: 'POST',
    path: '/api/v1/client/update-webhooks-url',
    auth: w.m.auth,
    json: { webhook_url: rx.url },
  });
});
afterAll(async () => {
  await w?.close();
  await rx?.close();
});

describe('paying by card', () => {
  it('approves the Visa test card: itemized link, then a receipt with brand, last four, auth code, transaction id', async () => {
    const id = await createLink(w, { amount: '25.00', invoice_number: 'INV42' });
    const page = await newPage(w);
    const res = await page.goto(`${w.s.url}/pay/${id}`);
    expect(res!.status()).toBe(200);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toContain('Pay ');
    expect(await page.locator('.amounts__total').textContent()).toBe('Total$25.00');
    expect(await page.getByText('INV42').count()).toBe(1);
    await checkState(page, 'link-card-form');
    await page.getByLabel('Card number').fill('4242 4242 4242 4241');
    await page.getByLabel('Expiry date').focus();
    await page.getByText('Enter a valid card number').first().waitFor();
    await page.getByRole('button', { name: 'Pay $25.00' }).click();
    await page.locator('.error-summary').waitFor();
    expect(await page.evaluate(() => document.activeElement?.className)).toBe('error-summary');
    await checkState(page, 'link-card-errors');

    await fillCard(page, CARDS.visa);
    expect(await page.getByLabel('Card number').inputValue()).toBe('4242 4242 4242 4242');
    await page.getByRole('button', { name: 'Pay $25.00' }).click();
    await page.getByRole('heading', { name: 'Payment successful' }).waitFor();
    const receipt = page.locator('.receipt');
    expect(await receipt.textContent()).toContain('Visa ending in 4242');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('receipt-title');
    const txnId = (await receipt.locator('dt:text("Transaction ID") + dd').textContent())!;
    expect(txnId).toMatch(/^txn_/);
    expect((await receipt.locator('dt:text("Authorization code") + dd').textContent())!.length).toBeGreaterThan(3);
    expect(await page.getByRole('button', { name: 'Print receipt' }).count()).toBe(1);
    await checkState(page, 'receipt-card');
    await page.emulateMedia({ media: 'print' });
    await page.screenshot({ path: 'test-output/screenshots/receipt-print.png', fullPage: true });
    expect(await page.getByRole('button', { name: 'Print receipt' }).isVisible()).toBe(false);
    await page.emulateMedia({ media: 'screen' });

    // The paid link shows its receipt on a new visit.
    await page.reload();
    await page.getByRole('heading', { name: 'Payment successful' }).waitFor();
    expect(await page.locator('.receipt').textContent()).toContain(txnId);
    await checkState(page, 'paid-link');
    const txns = (await transactions(w)).filter(
      (t) => t.transaction_id === txnId || t.id === txnId || JSON.stringify(t).includes(txnId),
    );
    expect(txns.length).toBeGreaterThan(0);
    await page.context().close();
  });

  for (const [card, reason, shot] of [
    [CARDS.declined, /declined/i, 'declined'],
    [CARDS.insufficient, /insufficient funds/i, 'insufficient-funds'],
  ] as const) {
    it(`a ${shot} card says why, takes focus, and another card then pays`, async () => {
      const id = await createLink(w, { amount: '12.00' });
      const page = await newPage(w);
      await page.goto(`${w.s.url}/pay/${id}`);
      await fillCard(page, card);
      await page.getByRole('button', { name: 'Pay $12.00' }).click();
      const alert = page.locator('.alert');
      await alert.waitFor();
      expect(await alert.textContent()).toMatch(reason);
      expect(await page.evaluate(() => document.activeElement?.className)).toBe('alert');
      expect(await page.getByLabel('Card number').inputValue()).toBe('');
      expect(await page.getByLabel('Name on card').inputValue()).toBe('Ada Lovelace');
      await checkState(page, `decline-${shot}`);
      await page.getByLabel('Card number').fill(CARDS.visa);
      await page.getByLabel('Security code').fill('123');
      await page.getByRole('button', { name: 'Pay $12.00' }).click();
      await page.getByRole('heading', { name: 'Payment successful' }).waitFor();
      await page.context().close();
    });
  }

  it('3-D Secure: the challenge completes and pays; failing it declines and leaves the link open', async () => {
    const id = await createLink(w, { amount: '30.00' });
    const page = await newPage(w);
    await page.goto(`${w.s.url}/pay/${id}`);
    await fillCard(page, CARDS.threeDs);
    await page.getByRole('button', { name: 'Pay $30.00' }).click();
    await page.getByRole('heading', { name: '3-D Secure verification' }).waitFor();
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('challenge-title');
    await checkState(page, '3ds-challenge');
    await page.getByRole('button', { name: 'Fail' }).click();
    await page.locator('.alert').waitFor();
    await checkState(page, '3ds-failed');
    await fillCard(page, CARDS.threeDs);
    await page.getByRole('button', { name: 'Pay $30.00' }).click();
    await page.getByRole('button', { name: 'Complete' }).click();
    await page.getByRole('heading', { name: 'Payment successful' }).waitFor();
    await page.context().close();
  });

  it('double-clicking Pay charges once', async () => {
    const id = await createLink(w, { amount: '7.77' });
    const before = (await transactions(w)).length;
    const page = await newPage(w);
    await page.goto(`${w.s.url}/pay/${id}`);
    await fillCard(page, CARDS.visa);
    await page.getByRole('button', { name: 'Pay $7.77' }).dblclick();
    await page.getByRole('heading', { name: 'Payment successful' }).waitFor();
    const after = await transactions(w);
    // The link's pending sale becomes the charge: no second transaction appears.
    expect(after.length).toBe(before);
    expect(after.filter((t) => JSON.stringify(t).includes('7.77') && Number(t.is_status) === 2)).toHaveLength(1);
    await page.context().close();
  });

  it('a reload while the pay call is in flight charges once and shows the receipt after the reload', async () => {
    const id = await createLink(w, { amount: '8.88' });
    const before = await transactions(w);
    const page = await newPage(w);
    await page.goto(`${w.s.url}/pay/${id}`);
    await fillCard(page, CARDS.visa);
    // The pay call reaches the server (which charges) but its answer never reaches the page: the
    // customer reloads while it is in flight.
    let reached!: () => void;
    const atServer = new Promise<void>((r) => (reached = r));
    let answered = 0;
    await page.route(/\/pay\/api\/links\/[^/]+\/pay$/, async (route) => {
      const res = await route.fetch();
      answered = res.status();
      reached();
      // left unanswered: the reload aborts it
    });
    await page.getByRole('button', { name: 'Pay $8.88' }).click();
    await page.getByRole('button', { name: 'Processing…' }).waitFor();
    await atServer;
    expect(answered).toBe(200);
    await page.unrouteAll({ behavior: 'ignoreErrors' });
    await page.reload();
    await page.getByRole('heading', { name: 'Payment successful' }).waitFor();
    const receipt = (await page.locator('.receipt').textContent())!;
    expect(receipt).toContain('Visa ending in 4242');
    expect(receipt).toContain('$8.88');
    await checkState(page, 'reload-in-flight-receipt');
    // A second reload right away shows the same receipt and charges nothing more.
    await page.reload();
    await page.getByRole('heading', { name: 'Payment successful' }).waitFor();
    const after = await transactions(w);
    expect(after.length).toBe(before.length);
    expect(after.filter((t) => JSON.stringify(t).includes('8.88') && Number(t.is_status) === 2)).toHaveLength(1);
    await page.context().close();
  });

  it('a link with tax, discount and pass_fee itemizes the totals, per method', async () => {
    const id = await createLink(w, {
      amount: '100.00',
      tax: '8.25',
      discount: '10.00',
      surcharge: '2.00',
      pass_fee: true,
      allow_ach: true,
      description: 'Catering for 12',
    });
    const page = await newPage(w);
    await page.goto(`${w.s.url}/pay/${id}`);
    const rows = async () => (await page.locator('.amounts__row').allTextContents()).join(' | ');
    const card = await rows();
    expect(card).toBe(
      'Amount$100.00 | Tax$8.25 | Surcharge$2.00 | Discount−$10.00 | Subtotal$100.25 | Processing fee$3.21 | Total$103.46',
    );
    await checkState(page, 'totals-card');
    await page.getByLabel('Bank account').check();
    expect(await rows()).toBe(
      'Amount$100.00 | Tax$8.25 | Surcharge$2.00 | Discount−$10.00 | Subtotal$100.25 | Processing fee$1.00 | Total$101.25',
    );
    await checkState(page, 'totals-bank-form');
    await page.context().close();
  });

  it('a preauth link places an authorization and its preauth webhook arrives', async () => {
    const id = await createLink(w, { amount: '80.00', preauth: true, order_id: 'PRE-E2E' });
    const page = await newPage(w);
    await page.goto(`${w.s.url}/pay/${id}`);
    await fillCard(page, CARDS.visa);
    await page.getByRole('button', { name: 'Authorize $80.00' }).click();
    await page.getByRole('heading', { name: 'Payment authorized' }).waitFor();
    const guid = (await page.locator('dt:text("Transaction ID") + dd').textContent())!;
    await checkState(page, 'receipt-preauth');
    await rx.waitFor((all) => all.some((r) => JSON.parse(r.body).event_type === 'preauth'), 15_000);
    const event = rx.received.map((r) => JSON.parse(r.body)).find((e) => e.event_type === 'preauth');
    expect(event.data).toEqual({ merchant_id: w.m.merchant_id, guid, amount: 80, order_id: 'PRE-E2E', customer_id: 0 });
    await page.context().close();
  });

  it('keyboard only, from the first field to the receipt', async () => {
    const id = await createLink(w, { amount: '15.00' });
    const page = await newPage(w);
    await page.goto(`${w.s.url}/pay/${id}`);
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('method-card'); // the radio group is one stop
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('card-number');
    await page.keyboard.type(CARDS.visa);
    await page.keyboard.press('Tab');
    await page.keyboard.type(`12${'34'}`);
    await page.keyboard.press('Tab');
    await page.keyboard.type('123');
    await page.keyboard.press('Tab');
    await page.keyboard.type('Ada Lovelace');
    await page.keyboard.press('Tab');
    await page.keyboard.type('94105');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Pay $15.00');
    await page.screenshot({ path: 'test-output/screenshots/keyboard-focus-pay.png' });
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Payment successful' }).waitFor();
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('receipt-title');
    await page.context().close();
  });
});
