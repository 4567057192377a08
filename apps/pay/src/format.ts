/**
 * Money and dates for the customer's locale. Amounts arrive as integer cents.
 *
 * Money texts are kept by their arguments, and the server's render hands its table to the page
 * (`#remit-formatted`): hydrating then formats nothing. A page's first Intl call is slow (ICU
 * starting up in a fresh renderer; docs/benchmarks.md), and the customer's first keystroke would wait for it.
 */
export const formattedMoney: Record<string, string> = import.meta.env.SSR
  ? {}
  : JSON.parse(document.getElementById('remit-formatted')?.textContent || '{}');

export function formatMoney(cents: number, currency: string, locale: string): string {
  return (formattedMoney[`${locale} ${currency} ${cents}`] ??= new Intl.NumberFormat(locale, {
    style: 'currency',
    currency,
  }).format(cents / 100));
}

export function formatDate(iso: string, locale: string): string {
  return new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeStyle: 'short' }).format(new Date(iso));
}
