import { resetLoadRemitForTests, type PaymentResult, type RemitWidgets, type RequestResult } from '@remit/loader';

/**
 * Tests only: stands in for dynamic-launch.js behind the real `loadRemit`. The component tests let
 * the real loader add its script tag, then "run" it: set `window.Remit` and fire the tag's load
 * event, as a browser would once the script executed. What the widgets do is e2e's business.
 */
export function fakeRemit(publicKey = 'pk_test_abc') {
  const calls: string[] = [];
  let mounted = 0;
  let settle: { resolve: (r: PaymentResult | RequestResult) => void; reject: (e: Error) => void } | undefined;
  const remit: RemitWidgets = {
    publicKey,
    getPaymentPage: (amount) => {
      calls.push(`getPaymentPage(${amount})`);
      return new Promise<PaymentResult>((resolve, reject) => (settle = { resolve: resolve as never, reject }));
    },
    sendRequestPayment: (amount, phone) => {
      calls.push(`sendRequestPayment(${amount}, ${phone})`);
      return new Promise<RequestResult>((resolve, reject) => (settle = { resolve: resolve as never, reject }));
    },
    mountTransactions: (el) => {
      calls.push('mountTransactions');
      mounted++;
      el.textContent = 'table';
      return () => {
        calls.push('unmount');
        mounted--;
        el.textContent = '';
      };
    },
  };
  return {
    calls,
    /** How many tables are mounted now. */
    mounted: () => mounted,
    /** The loader's script tags on the page. */
    scripts: () => Array.from(document.querySelectorAll<HTMLScriptElement>('script[src*="/js/dynamic-launch.js"]')),
    /** Runs the script tag the loader added, as the browser would once it loaded. */
    runScript() {
      const script = this.scripts()[0];
      if (!script) throw new Error('no dynamic-launch.js script tag on the page');
      window.Remit = remit;
      script.dispatchEvent(new Event('load'));
    },
    /** Settles the pending widget call. */
    resolve: (r: PaymentResult | RequestResult) => settle!.resolve(r),
    reject: (e: Error) => settle!.reject(e),
    reset() {
      for (const s of this.scripts()) s.remove();
      delete window.Remit;
      calls.length = 0;
      mounted = 0;
      resetLoadRemitForTests();
    },
  };
}
