import * as z from 'zod';
import { abaRoutingValid, accountNumberValid, postalCodeValid } from './card-rules.js';

/**
 * Field shapes of the onboarding submission. Every leaf is text in the spec; where a leaf is a
 * number (percentages, money) a JSON number is accepted too and turned into text.
 */

/** ISO 3166-1 alpha-2 codes in use. */
export const COUNTRY_CODES = new Set(
  `AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV BW BY BZ
CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO FR
GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE JM JO JP
KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR MS
MT MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY QA RE RO RS
RU RW SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO TR TT TV TW
TZ UA UG UM US UY UZ VA VC VE VG VI VN VU WF WS YE YT ZA ZM ZW`.split(/\s+/),
);

/** Two-letter ISO 3166-1 country code; lower case is accepted and upper-cased. */
export const countryCode = () =>
  z
    .string()
    .describe('Two-letter ISO 3166-1 alpha-2 country code, for example "US"')
    .transform((v, ctx) => {
      const code = v.trim().toUpperCase();
      if (!COUNTRY_CODES.has(code)) {
        ctx.addIssue({
          code: 'custom',
          message: 'must be a two-letter ISO 3166-1 alpha-2 country code (for example "US")',
        });
        return z.NEVER;
      }
      return code;
    });

const pattern = (re: RegExp | ((s: string) => boolean), message: string, describe: string) =>
  z
    .string()
    .describe(describe)
    .transform((v, ctx) => {
      const s = v.trim();
      if (typeof re === 'function' ? !re(s) : !re.test(s)) {
        ctx.addIssue({ code: 'custom', message });
        return z.NEVER;
      }
      return s;
    });

/** Employer Identification Number → `NN-NNNNNNN`. Prefix 00 is never issued. */
export const ein = () =>
  z
    .string()
    .describe('Employer Identification Number: "NN-NNNNNNN" or 9 digits. Encrypted at rest; never returned.')
    .transform((v, ctx) => {
      const m = /^(\d{2})-?(\d{7})$/.exec(v.trim());
      if (!m || m[1] === '00') {
        ctx.addIssue({ code: 'custom', message: 'must be an EIN as NN-NNNNNNN or 9 digits' });
        return z.NEVER;
      }
      return `${m[1]}-${m[2]}`;
    });

/** Social Security Number → 9 digits. Areas 000, 666 and 900–999, group 00 and serial 0000 are never issued. */
export const ssn = () =>
  z
    .string()
    .describe('Social Security Number: "NNN-NN-NNNN" or 9 digits. Encrypted at rest; never returned.')
    .transform((v, ctx) => {
      const m = /^(\d{3})-(\d{2})-(\d{4})$/.exec(v.trim()) ?? /^(\d{3})(\d{2})(\d{4})$/.exec(v.trim());
      const area = m?.[1];
      if (!m || area === '000' || area === '666' || area!.startsWith('9') || m[2] === '00' || m[3] === '0000') {
        ctx.addIssue({
          code: 'custom',
          message:
            'must be an SSN as NNN-NN-NNNN or 9 digits (area not 000, 666 or 900-999; group not 00; serial not 0000)',
        });
        return z.NEVER;
      }
      return `${m[1]}${m[2]}${m[3]}`;
    });

export const routingNumber = () =>
  z
    .string()
    .describe('ABA routing number: 9 digits with a valid checksum')
    .transform((v, ctx) => {
      const s = v.trim();
      if (!abaRoutingValid(s)) {
        ctx.addIssue({ code: 'custom', message: 'must be a 9-digit ABA routing number with a valid checksum' });
        return z.NEVER;
      }
      return s;
    });

export const accountNumber = () =>
  pattern(
    accountNumberValid,
    'must be a bank account number of 4 to 17 digits',
    'Bank account number, 4–17 digits. Encrypted at rest; never returned.',
  );

export const mccCode = () =>
  pattern(
    /^\d{4}$/,
    'must be a four-digit merchant category code (MCC) as text, for example "5812"',
    'Merchant category code (MCC): four digits as text, for example "5812"',
  );

/** Any country's postal code (`postalCodeValid`); the address's country, when US, asks for a ZIP code (merchants.ts). */
export const postalCode = () =>
  pattern(
    postalCodeValid,
    'must be a postal code of 3 to 10 letters, digits, spaces or dashes',
    'Postal code; for country US a ZIP code "NNNNN" or "NNNNN-NNNN"',
  );

const numberText = z.union([z.string(), z.number()]).transform((v) => (typeof v === 'number' ? String(v) : v.trim()));

/** A percentage 0–100 with at most two decimals → its text; hundredths are read back by `hundredths`. */
export const percent = () =>
  numberText
    .describe('Percentage from 0 to 100, at most two decimals, as text (for example "25" or "12.5")')
    .transform((s, ctx) => {
      if (!/^\d{1,3}(\.\d{1,2})?$/.test(s) || hundredths(s) > 10_000) {
        ctx.addIssue({ code: 'custom', message: 'must be a percentage from 0 to 100 with at most two decimals' });
        return z.NEVER;
      }
      return s;
    });

/** "12.5" → 1250: whole hundredths so percentage sums are compared without floats. */
export function hundredths(s: string): number {
  const [whole, frac = ''] = s.split('.');
  return Number(whole) * 100 + Number(frac.padEnd(2, '0'));
}

/** Money as decimal text (at most two decimals, no sign or separators) → its text. */
export const moneyText = (opts: { positive?: boolean } = {}) =>
  numberText
    .describe(
      `Amount in US dollars as decimal text, at most two decimals${opts.positive ? ', more than 0' : ''} (for example "12.50")`,
    )
    .transform((s, ctx) => {
      if (!/^\d{1,12}(\.\d{1,2})?$/.test(s) || (opts.positive && hundredths(s) === 0)) {
        ctx.addIssue({
          code: 'custom',
          message: `must be an amount as decimal text with at most two decimals${opts.positive ? ', more than 0' : ''} (for example "12.50")`,
        });
        return z.NEVER;
      }
      return s;
    });

export const websiteUrl = () =>
  z
    .string()
    .max(2048)
    .describe('Website address starting with http:// or https://')
    .transform((v, ctx) => {
      const s = v.trim();
      let ok = false;
      try {
        const u = new URL(s);
        ok = (u.protocol === 'http:' || u.protocol === 'https:') && /^https?:\/\//i.test(s) && u.hostname.includes('.');
      } catch {
        ok = false;
      }
      if (!ok) {
        ctx.addIssue({
          code: 'custom',
          message:
            'must be a website address starting with http:// or https:// (for example "https://shop.example.com")',
        });
        return z.NEVER;
      }
      return s;
    });

const todayUtc = (now: Date) => now.toISOString().slice(0, 10);

/** `YYYY-MM-DD` that exists and is not after today (UTC). */
export const pastDate = () =>
  z
    .string()
    .describe('Date "YYYY-MM-DD" that exists and is not in the future')
    .transform((v, ctx) => {
      const s = v.trim();
      if (!isRealDate(s) || s > todayUtc(new Date()) || s < '1800-01-01') {
        ctx.addIssue({ code: 'custom', message: 'must be a date YYYY-MM-DD that exists and is not in the future' });
        return z.NEVER;
      }
      return s;
    });

/** Date of birth of someone at least 18 years old (and born after 1900). */
export const birthDate = () =>
  z
    .string()
    .describe('Date of birth "YYYY-MM-DD"; the owner must be at least 18 years old')
    .transform((v, ctx) => {
      const s = v.trim();
      if (!isRealDate(s) || s < '1900-01-01' || s > adultCutoff(new Date())) {
        ctx.addIssue({
          code: 'custom',
          message: 'must be a date of birth YYYY-MM-DD that exists, of someone at least 18 years old',
        });
        return z.NEVER;
      }
      return s;
    });

export function isRealDate(s: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(s)) return false;
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().startsWith(s);
}

/** Latest birth date (as text) of someone who is 18 today; someone born on 29 Feb turns 18 on 1 Mar. */
export function adultCutoff(now: Date): string {
  const y = now.getUTCFullYear() - 18;
  const md = todayUtc(now).slice(5);
  return `${y}-${md}`;
}
