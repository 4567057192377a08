import type { PayMerchant } from '@remit/contract';
import { useLayoutEffect, useRef, useState } from 'preact/hooks';

/** The merchant's logo (when set and loading) and name: who the customer is paying. */
export function MerchantHeader({ merchant }: { merchant: PayMerchant }) {
  const [logoOk, setLogoOk] = useState(true);
  const img = useRef<HTMLImageElement>(null);
  // The server-rendered logo may have failed before the script could listen for it.
  useLayoutEffect(() => {
    const el = img.current;
    if (el?.complete && !el.naturalWidth) setLogoOk(false);
  }, []);
  return (
    <header class="merchant">
      {merchant.logo_url && logoOk && (
        // The name is written beside it, so the logo is decorative.
        <img ref={img} class="merchant__logo" src={merchant.logo_url} alt="" width={40} height={40} onError={() => setLogoOk(false)} />
      )}
      <span class="merchant__name">{merchant.name}</span>
    </header>
  );
}
