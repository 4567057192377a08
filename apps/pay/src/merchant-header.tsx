import type { PayMerchant } from '@remit/contract';
import { useLayoutEffect, useRef, useState } from 'preact/hooks';
import { t } from './i18n.js';

/**
 * The merchant's logo (when set and loading) and, on a sandbox server, the "Test mode" mark. The
 * merchant's name is the page's heading ("Pay Acme"): written once, not here again.
 */
export function MerchantHeader({ merchant, sandbox }: { merchant: PayMerchant; sandbox: boolean }) {
  const [logoOk, setLogoOk] = useState(true);
  const img = useRef<HTMLImageElement>(null);
  // The server-rendered logo may have failed before the script could listen for it.
  useLayoutEffect(() => {
    const el = img.current;
    if (el?.complete && !el.naturalWidth) setLogoOk(false);
  }, []);
  const logo = merchant.logo_url && logoOk;
  if (!logo && !sandbox) return null;
  return (
    <header class="merchant">
      {logo && (
        // The heading names the merchant, so the logo is decorative.
        <img
          ref={img}
          class="merchant__logo"
          src={merchant.logo_url!}
          alt=""
          width={40}
          height={40}
          onError={() => setLogoOk(false)}
        />
      )}
      {sandbox && <span class="test-mode">{t().testMode}</span>}
    </header>
  );
}
