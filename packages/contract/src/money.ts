/**
 * Amount parsing shared by the request schemas and core: integer minor units (cents) inside,
 * decimal text or numbers only on the wire.
 */

const AMOUNT_TEXT = /^\d{1,9}(\.\d{1,2})?$/;

/** "12.3" → 1230; null when the text is not a plain non-negative amount with ≤ 2 decimals. */
export function parseAmountText(text: string): number | null {
  if (!AMOUNT_TEXT.test(text)) return null;
  const [whole, frac = ''] = text.split('.');
  return Number(whole) * 100 + Number(frac.padEnd(2, '0'));
}

/** A JSON number amount: finite, non-negative, at most two decimals. */
export function parseAmountNumber(n: number): number | null {
  if (!Number.isFinite(n) || n < 0 || n > 9_999_999_999) return null;
  // toFixed(2) round-trip detects a third decimal without float arithmetic on the result.
  const text = n.toFixed(2);
  if (Number(text) !== n) return null;
  return parseAmountText(text);
}
