import type { PayMerchant } from '@remit/contract';
import type { ComponentChildren } from 'preact';
import { t } from './i18n.js';
import { MerchantHeader } from './merchant-header.js';

/** Banner with who is paid, the page's main content, and a short trust line. */
export function Layout({ merchant, children }: { merchant: PayMerchant; children: ComponentChildren }) {
  return (
    <>
      <MerchantHeader merchant={merchant} />
      <main class="page" id="main">
        {children}
      </main>
      <footer class="footer">
        {t().secure} · Remit
      </footer>
    </>
  );
}
