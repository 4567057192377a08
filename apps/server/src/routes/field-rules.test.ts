import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  accountNumberValid,
  cvcValid,
  EXPIRY_PAST,
  expiryProblem,
  normalizePhone,
  postalCodeValid,
} from '@remit/contract';
import { startTestServer, type TestServer } from '../testing/harness.js';
import { newMerchant, type TestMerchant } from '../testing/fixtures.js';

/**
 * The contract's field rules (card-rules.ts), which the pay page and the widgets check in the
 * browser, against what the API answers for the same input over HTTP: generated values, one
 * `POST /customers/add` each, accepted exactly when the contract's predicate says so.
 */
let s: TestServer;
let m: TestMerchant;
beforeAll(async () => {
  s = await startTestServer();
  m = await newMerchant(s);
});
afterAll(() => s.close());

const nextYear = new Date().getUTCFullYear() + 1;
const visa = { number: '4242424242424242', exp_month: 12, exp_year: nextYear, cvc: '123', zip: '94105' };
const bank = {
  routing_number: '011000015',
  account_number: '000123456789',
  account_type: 'checking',
  holder_name: 'Grace Hopper',
};
const add = (json: Record<string, unknown>) =>
  s.http({
    method: 'POST',
    path: '/api/v1/customers/add',
    auth: m.auth,
    json: { merchant_key: m.merchant_key, first_name: 'Ada', ...json },
  });

/** Text of up to `max` characters from `chars`, with the shapes that matter mixed in. */
const textOf = (chars: string, max: number, samples: string[]) =>
  fc.oneof(fc.string({ unit: fc.constantFrom(...chars), maxLength: max }), fc.constantFrom(...samples));

/** The answer as accepted (200) or refused naming `path` (400); anything else fails the property. */
async function verdict(json: Record<string, unknown>, path: string): Promise<boolean> {
  const res = await add(json);
  if (res.status === 200) return true;
  expect([res.status, res.body.errors?.map((e: { path: string }) => e.path)]).toEqual([400, [path]]);
  return false;
}

const RUNS = { numRuns: 40 };

describe('contract field rules = what the API accepts', () => {
  it('card ZIP: any postal code of 3 to 10 letters, digits, spaces or dashes (trimmed)', async () => {
    const zips = textOf('0123456789AZaz -#', 12, [
      '94105',
      '94105-1234',
      '941051234',
      'SW1A 1AA',
      'K1A 0B6',
      '12',
      '-1234',
      ' 94105 ',
      '1234567890A',
    ]);
    await fc.assert(
      fc.asyncProperty(zips, async (zip) => {
        expect(await verdict({ card: { ...visa, zip } }, 'card.zip')).toBe(postalCodeValid(zip.trim()));
      }),
      RUNS,
    );
  });

  it('bank account number: 4 to 17 digits (spaces and dashes dropped)', async () => {
    const accounts = textOf('0123456789 -x', 20, [
      '1234',
      '123',
      '12345678901234567',
      '123456789012345678',
      '12-34 56',
      '00000',
    ]);
    await fc.assert(
      fc.asyncProperty(accounts, async (account_number) => {
        expect(await verdict({ bank_account: { ...bank, account_number } }, 'bank_account.account_number')).toBe(
          accountNumberValid(account_number.replace(/[\s-]/g, '')),
        );
      }),
      RUNS,
    );
  });

  it('phone: a 10-digit US number or E.164, as the widgets check recipient_phone', async () => {
    const phones = textOf('0123456789+()- .', 18, [
      '(415) 555-0123',
      '+14155550123',
      '14155550123',
      '+447700900123',
      '+44123456',
      '0000000000',
      '(015) 555-0123',
      '12345',
    ]);
    await fc.assert(
      fc.asyncProperty(phones, async (phone_number) => {
        fc.pre(phone_number.trim() !== ''); // blank is "absent" for an optional field
        expect(await verdict({ phone_number }, 'phone_number')).toBe(normalizePhone(phone_number) !== null);
      }),
      RUNS,
    );
  });

  it("CVC: the brand's length (4 on American Express, 3 on the others)", async () => {
    const cards = fc.constantFrom('4242424242424242', '378282246310005', '5555555555554444');
    await fc.assert(
      fc.asyncProperty(cards, fc.stringMatching(/^\d{3,4}$/), async (number, cvc) => {
        expect(await verdict({ card: { ...visa, number, cvc } }, 'card.cvc')).toBe(cvcValid(cvc, number));
      }),
      { numRuns: 20 },
    );
  });

  it('expiry: months counted in UTC; past is card_expired, more than 20 years ahead is refused too', async () => {
    const now = new Date();
    const year = now.getUTCFullYear();
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: year - 2, max: year + 22 }),
        async (exp_month, exp_year) => {
          const res = await add({ card: { ...visa, exp_month, exp_year } });
          const problem = expiryProblem(exp_month, exp_year, now);
          expect(res.status).toBe(problem ? 400 : 200);
          if (problem) expect(res.body.code).toBe(problem === EXPIRY_PAST ? 'card_expired' : 'invalid_card_expiry');
        },
      ),
      RUNS,
    );
  });
});
