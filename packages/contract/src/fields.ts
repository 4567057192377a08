import * as z from 'zod';
import { normalizePhone } from './card-rules.js';
import { parseAmountNumber, parseAmountText } from './money.js';

/**
 * Input field shapes shared by the request schemas. Inputs are lenient where real clients
 * differ (numeric text for numbers and the reverse); outputs are always exact.
 */

export const MAX_AMOUNT_CENTS = 99_999_999;

const AMOUNT_RULE = 'must be an amount above 0 with at most two decimals, at most 999999.99 (for example "12.50")';

/** An amount given as decimal text or a number → integer cents, more than zero. */
export const amount = (opts: { allowZero?: boolean } = {}) =>
  z.union([z.string().max(32), z.number()]).transform((v, ctx) => {
    const cents = typeof v === 'string' ? parseAmountText(v.trim()) : parseAmountNumber(v);
    if (cents === null || cents > MAX_AMOUNT_CENTS || (!opts.allowZero && cents === 0)) {
      ctx.addIssue({
        code: 'custom',
        message: opts.allowZero ? AMOUNT_RULE.replace('above 0', 'of 0 or more') : AMOUNT_RULE,
      });
      return z.NEVER;
    }
    return cents;
  });

/** true/false, also as the text "true"/"false" (form bodies carry only text). */
export const flag = () =>
  z.union([z.boolean(), z.enum(['true', 'false', '1', '0'])]).transform((v) => v === true || v === 'true' || v === '1');

/** Non-empty trimmed text with a maximum length. */
export const text = (max: number) =>
  z.string().trim().min(1, 'must not be empty').max(max, `must be at most ${max} characters`);

export const optionalText = (max: number) => z.string().trim().max(max, `must be at most ${max} characters`).optional();

/** An emoji tag sequence (a subdivision flag: U+1F3F4, tag letters, U+E007F): its tags are Cf but drawn as one flag. */
const EMOJI_TAG_SEQUENCE = /\u{1F3F4}[\u{E0020}-\u{E007E}]+\u{E007F}/gu;
/** Control (Cc) and format (Cf) characters, but line breaks and tabs, ZWNJ (U+200C) and ZWJ (U+200D). */
const HIDDEN = /(?![\t\n\r\u200C\u200D])[\p{Cc}\p{Cf}]/u;

/**
 * The first character of `s` that is not drawn as itself, as `U+XXXX`, or null: bidi controls (U+061C,
 * U+200E, U+200F, U+202A–202E, U+2066–2069: `Pay` U+202E `gnp.exe` reads "Payexe.png"), invisible format
 * characters (U+200B, U+2060, U+FEFF, U+00AD, the rest of Cf) and control characters. ZWNJ and ZWJ stay:
 * Indic and Arabic spellings and emoji sequences need them.
 */
export function hiddenCharacter(s: string): string | null {
  const hit = HIDDEN.exec(s.replace(EMOJI_TAG_SEQUENCE, ''));
  return hit ? `U+${hit[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}` : null;
}

const refuseHidden = (s: string | undefined, ctx: z.RefinementCtx) => {
  const c = s === undefined ? null : hiddenCharacter(s);
  if (c)
    ctx.addIssue({ code: 'custom', message: `must not contain ${c}: no invisible or direction-changing characters` });
};

/** Text a customer is shown (names, descriptions, button words): `text`, without hidden characters. */
export const shownText = (max: number) => text(max).superRefine(refuseHidden);

/** Optional text a customer is shown: `optionalText`, without hidden characters. */
export const optionalShownText = (max: number) => optionalText(max).superRefine(refuseHidden);

export const merchantKey = () => z.string().min(1, 'is required').max(200);

/** `YYYY-MM-DD` that names a real calendar day. */
export const dateText = () =>
  z.string().refine((s) => {
    const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
    if (!m) return false;
    const d = new Date(`${s}T00:00:00Z`);
    return !Number.isNaN(d.getTime()) && d.toISOString().startsWith(s);
  }, 'must be a date YYYY-MM-DD that exists');

export const email = () => z.string().trim().max(254).pipe(z.email('must be a valid email address'));

/** US 10-digit numbers in common spellings, or E.164 → E.164 (`normalizePhone`, the widgets' rule too). */
export const phone = () =>
  z
    .string()
    .max(32)
    .transform((v, ctx) => {
      const e164 = normalizePhone(v);
      if (!e164) {
        ctx.addIssue({
          code: 'custom',
          message: 'must be a 10-digit US phone number or E.164 (for example +14155550100)',
        });
        return z.NEVER;
      }
      return e164;
    });

/** Integer given as a number or numeric text. */
export const intLike = (min: number, max: number) =>
  z.union([z.number(), z.string().regex(/^\d+$/, 'must be a whole number')]).transform((v, ctx) => {
    const n = typeof v === 'number' ? v : Number(v);
    if (!Number.isInteger(n) || n < min || n > max) {
      ctx.addIssue({ code: 'custom', message: `must be a whole number from ${min} to ${max}` });
      return z.NEVER;
    }
    return n;
  });

/** At least one of allow_card / allow_ach stays true. */
export function requireAPaymentMethod(v: { allow_card: boolean; allow_ach: boolean }, ctx: z.RefinementCtx) {
  if (!v.allow_card && !v.allow_ach) {
    ctx.addIssue({
      code: 'custom',
      path: ['allow_card'],
      message: 'At least one of allow_card and allow_ach must be true.',
    });
  }
}

/** A transaction id in a request body. */
export const transactionId = () => z.string().trim().min(1, 'is required').max(100, 'must be at most 100 characters');

/** Clients often send "" or null for a field they do not use: both mean absent. */
export const absentIfBlank = (v: unknown) => (v === null || (typeof v === 'string' && v.trim() === '') ? undefined : v);

/** An optional field where "", whitespace and null mean absent. */
export const optionalNonBlank = <T extends z.ZodType>(schema: T) => z.preprocess(absentIfBlank, schema.optional());

/**
 * Our extension (the spec names no language): the customer's language, a BCP 47 tag such as `fr`,
 * `pt-BR` or `zh-Hans`, for the SMS and email and the pay page they link to. A well-formed tag of a
 * language Remit does not speak means English (core's `customerLocale`); a malformed one is refused.
 */
export const locale = () =>
  z
    .string()
    .max(35, 'must be at most 35 characters')
    .refine((tag) => {
      try {
        return !!new Intl.Locale(tag);
      } catch {
        return false;
      }
    }, 'must be a BCP 47 language tag such as fr, pt-BR or zh-Hans');
