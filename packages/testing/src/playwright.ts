import type { Frame, FrameLocator, Locator, Page } from 'playwright-core';
import { testCards, type TestCard } from './test-cards.js';

/**
 * @remit/testing/playwright: Remit's hosted pay page driven the way a customer uses it, by the
 * labels a person reads, on the page itself (`payLink`) or inside the widget's pay modal
 * (`widgetFrame`). Works with playwright-core and @playwright/test, in Chromium.
 */
export { testCards, type TestCard };

/** Where the pay form is: a page (the hosted pay page, a popup), a frame, or the widget modal's frame. */
export type PayForm = Page | Frame | FrameLocator;

export interface CardDetails extends Partial<TestCard> {
  /** The name on the card; default "Ada Lovelace". */
  name?: string;
}

const field = (f: PayForm, label: RegExp): Locator => f.getByLabel(label).first();

/** The widget's pay modal: the frame that holds the hosted pay page on the merchant's page. */
export function widgetFrame(page: Page): FrameLocator {
  return page.frameLocator('iframe[title^="Payment form"]');
}

/** Types a card into the pay form (number, expiry, security code, name, ZIP), as a customer would. */
export async function fillCard(form: PayForm, card: CardDetails = testCards.success): Promise<void> {
  const c = { ...testCards.success, ...card };
  const number = field(form, /card number/i);
  await number.waitFor();
  await number.fill(c.number);
  await field(form, /expir/i).fill(c.expiry.replace(/\s*\/\s*/, ' / '));
  await field(form, /security code|cvc/i).fill(c.cvc);
  const name = field(form, /name on card/i);
  if (await name.count()) await name.fill(card.name ?? 'Ada Lovelace');
  const zip = field(form, /zip|postal/i);
  if (await zip.count()) await zip.fill(c.zip);
}

/** Presses the form's Pay button. */
export async function pressPay(form: PayForm): Promise<void> {
  await form
    .getByRole('button', { name: /^Pay\b/i })
    .first()
    .click();
}

export interface PayOutcome {
  /** `succeeded`, `declined` (with the page's message), or `challenge` (a 3-D Secure challenge is shown). */
  status: 'succeeded' | 'declined' | 'challenge';
  transactionId: string | null;
  message: string | null;
}

/** The page a form is on; for the widget's frame, the shop's page (where the loader reports the payment). */
function widgetPage(form: PayForm): Page | null {
  const owner = (form as FrameLocator).owner;
  return typeof owner === 'function' && !('goto' in form) ? (form as FrameLocator).owner().page() : null;
}

/** On the shop's page: remember the loader's `remit:payment-success` events (once per page). */
async function watchPayments(page: Page): Promise<void> {
  await page.evaluate(() => {
    const w = window as unknown as { __remitPaid?: string[] };
    if (w.__remitPaid) return;
    w.__remitPaid = [];
    document.addEventListener('remit:payment-success', (e) =>
      w.__remitPaid!.push((e as CustomEvent<{ transaction_id: string }>).detail.transaction_id),
    );
  });
}

/**
 * Waits for what follows Pay: the receipt, a decline (with the page's message), or a 3-D Secure
 * challenge. In the widget's modal a payment closes the modal: the loader's event on the shop's
 * page tells it instead of the receipt.
 */
export async function payOutcome(form: PayForm, timeoutMs = 15_000): Promise<PayOutcome> {
  const success = form.getByRole('heading', { name: /payment successful/i });
  const challenge = form.getByRole('heading', { name: /3-D Secure/i });
  const alert = form.locator('.alert, [role="alert"]').filter({ hasText: /\S/ });
  const shop = widgetPage(form);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (shop) {
      const paid = await shop.evaluate(
        () => (window as unknown as { __remitPaid?: string[] }).__remitPaid?.shift() ?? null,
      );
      if (paid) return { status: 'succeeded', transactionId: paid, message: null };
    }
    if (await success.isVisible().catch(() => false)) {
      const id = await form
        .locator('dt:text("Transaction ID") + dd')
        .first()
        .textContent()
        .catch(() => null);
      return { status: 'succeeded', transactionId: id?.trim() ?? null, message: null };
    }
    if (await challenge.isVisible().catch(() => false))
      return { status: 'challenge', transactionId: null, message: null };
    if (
      await alert
        .first()
        .isVisible()
        .catch(() => false)
    ) {
      return { status: 'declined', transactionId: null, message: (await alert.first().textContent())?.trim() ?? null };
    }
    if (Date.now() > deadline)
      throw new Error(`No payment outcome (receipt, decline or 3-D Secure challenge) within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * Opens a pay link, pays it with `card` (default the approved test card) and answers what the page
 * showed. A 3-D Secure card stops at the challenge (`status: 'challenge'`): call `complete3DS`.
 *
 * @example
 * const paid = await payLink(page, link.payment_link, { card: testCards.success });
 * expect(paid.status).toBe('succeeded');
 */
export async function payLink(
  page: Page,
  url: string,
  opts: { card?: CardDetails; timeoutMs?: number } = {},
): Promise<PayOutcome> {
  await page.goto(url);
  return payIn(page, opts);
}

/** Pays in a form already open (the widget's modal: `payIn(widgetFrame(page), { card })`). */
export async function payIn(form: PayForm, opts: { card?: CardDetails; timeoutMs?: number } = {}): Promise<PayOutcome> {
  const shop = widgetPage(form);
  if (shop) await watchPayments(shop);
  await fillCard(form, opts.card ?? testCards.success);
  await pressPay(form);
  return payOutcome(form, opts.timeoutMs);
}

/** Answers the sandbox's 3-D Secure challenge: `pass: true` completes it, `false` fails it. Then waits for the outcome. */
export async function complete3DS(form: PayForm, opts: { pass: boolean; timeoutMs?: number }): Promise<PayOutcome> {
  const heading = form.getByRole('heading', { name: /3-D Secure/i });
  await heading.waitFor({ timeout: opts.timeoutMs ?? 15_000 });
  const shop = widgetPage(form);
  if (shop) await watchPayments(shop);
  await form.getByRole('button', { name: opts.pass ? /^complete/i : /^fail/i }).click();
  await heading.waitFor({ state: 'hidden', timeout: opts.timeoutMs ?? 15_000 }).catch(() => {});
  return payOutcome(form, opts.timeoutMs);
}
