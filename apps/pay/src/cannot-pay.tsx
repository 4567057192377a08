import { t } from './i18n.js';

/** The merchant cannot take a payment: not approved yet, or its processor holds charges off for now. */
export function CannotPay({ restricted }: { restricted: boolean }) {
  const m = t();
  return (
    <section class="panel notice" aria-labelledby="pending-title">
      <h2 id="pending-title">{restricted ? m.restrictedMerchantTitle : m.pendingMerchantTitle}</h2>
      <p>{restricted ? m.restrictedMerchantText : m.pendingMerchantText}</p>
    </section>
  );
}
