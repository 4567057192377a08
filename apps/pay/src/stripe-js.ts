import type { Stripe, StripeConstructor, StripeElementLocale } from '@stripe/stripe-js';
import type { Locale } from '@remit/contract/locales';

declare global {
  interface Window {
    Stripe?: StripeConstructor;
  }
}

let loading: Promise<StripeConstructor> | null = null;

/**
 * Stripe.js from `js_url` (Stripe's own address, or a test stand-in), as a script element: the
 * CSP allows that origin and no inline script. Types only from `@stripe/stripe-js`; its runtime
 * loader would add bytes for what these few lines do. A failed load is tried again next time.
 */
export function loadStripe(jsUrl: string, publishableKey: string): Promise<Stripe> {
  loading ??= new Promise<StripeConstructor>((resolve, reject) => {
    if (window.Stripe) return resolve(window.Stripe);
    const script = document.createElement('script');
    script.src = jsUrl;
    script.onload = () => (window.Stripe ? resolve(window.Stripe) : reject(new Error('Stripe.js defined no Stripe')));
    script.onerror = () => {
      script.remove();
      loading = null;
      reject(new Error('Stripe.js did not load'));
    };
    document.head.append(script);
  });
  return loading.then((S) => S(publishableKey));
}

/** Stripe's name of the page's language: the same tags but Simplified Chinese (`zh`). */
export const stripeLocale = (l: Locale): StripeElementLocale => (l === 'zh-Hans' ? 'zh' : l) as StripeElementLocale;
