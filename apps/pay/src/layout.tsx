import type { PayMerchant } from '@remit/contract';
import type { ComponentChildren } from 'preact';
import { t } from './i18n.js';
import { MerchantHeader } from './merchant-header.js';

/** Banner (logo, Test mode on a sandbox server), the page's main content, and a short trust line. */
export function Layout({
  merchant,
  sandbox,
  children,
}: {
  merchant: PayMerchant;
  sandbox: boolean;
  children: ComponentChildren;
}) {
  return (
    <>
      <MerchantHeader merchant={merchant} sandbox={sandbox} />
      <main class="page" id="main">
        {children}
      </main>
      <footer class="footer">{t().secure} · Remit</footer>
    </>
  );
}
