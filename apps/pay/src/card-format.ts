import { cardLayout } from '@remit/contract/card-rules';

/** The card number and expiry as the customer types them; the brand's groups come from the card rules. */
export const onlyDigits = (s: string) => s.replace(/\D/g, '');

/** "4242424242424242" → "4242 4242 4242 4242"; Amex "3782 822463 10005". Extra digits are cut. */
export function formatCardNumber(raw: string): string {
  const brand = cardLayout(onlyDigits(raw));
  const digits = onlyDigits(raw).slice(0, Math.max(...brand.lengths));
  const parts: string[] = [];
  let at = 0;
  for (const g of brand.groups) {
    if (at >= digits.length) break;
    parts.push(digits.slice(at, at + g));
    at += g;
  }
  return parts.join(' ');
}

/** "1" → "1", "12" → "12 / ", "123" → "12 / 3"; a first digit 2–9 is a month "0d". */
export function formatExpiry(raw: string, deleting = false): string {
  let d = onlyDigits(raw).slice(0, 4);
  if (d.length === 1 && d > '1') d = `0${d}`;
  if (d.length < 2) return d;
  if (d.length === 2) return deleting ? d : `${d} / `;
  return `${d.slice(0, 2)} / ${d.slice(2)}`;
}
