import { lang } from './i18n.js';

/** "12.5" → "$12.50" (in French "12,50 $US"). */
export const money = (amount: string) =>
  new Intl.NumberFormat(lang.intl, { style: 'currency', currency: 'USD' }).format(Number(amount));
/** ISO date → "Nov 23, 2026". */
export const date = (iso: string) =>
  new Intl.DateTimeFormat(lang.intl, { year: 'numeric', month: 'short', day: 'numeric' }).format(new Date(iso));
