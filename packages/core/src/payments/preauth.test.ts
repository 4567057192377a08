import { afterAll, beforeAll, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { preauthIdInput } from '@remit/contract';
import { transactions } from '../db/schema.js';
import { amountNumber } from '../money.js';
import { feeFor } from './fees.js';
import { capturePreauth } from './preauth.js';
import { openTestCore } from '../webhooks/test-support.js';
import { addTestMerchant, coreCharge, type CoreFixture } from './test-support.js';

/**
 * The capture prices the held amount in SQL (the amount is the row's, read under its lock): it
 * must agree with `feeFor` to the cent, rounding halves up, for card and ACH, at the pricing of
 * the merchant as the request resolved it.
 */

let f: CoreFixture;
beforeAll(async () => {
  f = await addTestMerchant(await openTestCore());
});
afterAll(() => f.core.close());

const row = async (id: string) => (await f.core.ctx.db.select().from(transactions).where(eq(transactions.id, id)))[0]!;

const pricings = [
  { cardFeeRateE7: 29_000_000, cardFeeFixedCents: 30, achFeeRateE7: 10_000_000, achFeeCapCents: 1_000 },
  { cardFeeRateE7: 33_333_333, cardFeeFixedCents: 7, achFeeRateE7: 12_345_678, achFeeCapCents: 55 },
  { cardFeeRateE7: 0, cardFeeFixedCents: 0, achFeeRateE7: 1_000_000_000, achFeeCapCents: 9_999_999 },
];
// 5.00 at 2.9% is 14.5 cents: a half, rounded up.
const amounts = ['0.01', '5.00', '12.34', '999.99', '123456.78'];

it('captures at feeFor of the held amount, card and ACH, to the cent', async () => {
  for (const pricing of pricings) {
    for (const method of ['card', 'ach'] as const) {
      for (const amount of amounts) {
        const id = await coreCharge(f, amount, true);
        if (method === 'ach')
          await f.core.ctx.db.update(transactions).set({ paymentMethod: 'ach' }).where(eq(transactions.id, id));
        const merchant = { ...(await f.merchant()), ...pricing };
        const held = (await row(id)).amountCents;
        const fee = feeFor(pricing, method, held);
        const r = await capturePreauth(
          f.core.ctx,
          merchant,
          preauthIdInput.parse({ merchant_key: f.merchantKey, transaction_id: id }),
        );
        expect(r.net_amount, `${method} ${amount} ${JSON.stringify(pricing)}`).toBe(amountNumber(fee.netCents));
        expect(await row(id)).toMatchObject({
          amountCents: held,
          feeCents: fee.feeCents,
          feeRateE7: fee.rateE7,
          netCents: fee.netCents,
          isStatus: 2,
        });
      }
    }
  }
});
