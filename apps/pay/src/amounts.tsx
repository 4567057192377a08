import type { PayAmounts, PayMethod } from '@remit/contract';
import { formatMoney } from './format.js';
import { intlLocale, t } from './i18n.js';

/** The amount itemized: each line that applies, then the total for the chosen method. */
export function Amounts({ amounts, method }: { amounts: PayAmounts; method: PayMethod }) {
  const m = t();
  const money = (c: number) => formatMoney(c, amounts.currency, intlLocale());
  const fee = amounts.fee[method];
  const lines: Array<[string, string]> = [];
  const itemized = amounts.tax || amounts.surcharge || amounts.discount || fee;
  if (itemized) {
    lines.push([m.amount, money(amounts.amount)]);
    if (amounts.tax) lines.push([m.tax, money(amounts.tax)]);
    if (amounts.surcharge) lines.push([m.surcharge, money(amounts.surcharge)]);
    if (amounts.discount) lines.push([m.discount, `−${money(amounts.discount)}`]);
    if (fee) {
      lines.push([m.subtotal, money(amounts.subtotal)]);
      lines.push([m.fee, money(fee)]);
    }
  }
  return (
    <dl class="amounts">
      {lines.map(([label, value]) => (
        <div class="amounts__row" key={label}>
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
      <div class="amounts__row amounts__total">
        <dt>{m.total}</dt>
        <dd>{money(amounts.total[method])}</dd>
      </div>
    </dl>
  );
}
