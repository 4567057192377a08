const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });
const day = new Intl.DateTimeFormat('en-US', { year: 'numeric', month: 'short', day: 'numeric' });

/** "12.5" → "$12.50". */
export const money = (amount: string) => usd.format(Number(amount));
/** ISO date → "Nov 23, 2026". */
export const date = (iso: string) => day.format(new Date(iso));
