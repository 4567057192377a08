import type { PaymentResult, PayOptions, RequestResult } from '@remit/contract';

/**
 * The contract between `dynamic-launch.js` and the lazily loaded widget chunk (`packages/widgets`):
 * the chunk calls `window.__remitUI(boot)` once it runs; the loader calls `boot` with where the
 * server is and which key to use, and gets the widget operations back. Amounts arrive checked.
 */
export interface WidgetContext {
  /** The Remit server's origin (the loader script's own origin). */
  base: string;
  /** The merchant public key. */
  key: string;
  /** The `locale` the page asked for (the script address's `?locale=`), if any: a BCP 47 tag. */
  locale?: string | null;
}

export interface WidgetUI {
  /** `opener`: what had focus when the pay button was used (focus returns there); `popup`: a window already opened on a narrow screen. */
  pay(amount: string, opener: Element | null, popup: Window | null, opts?: PayOptions): Promise<PaymentResult>;
  request(amount: string, phone: string, opener: Element | null): Promise<RequestResult>;
  table(el: HTMLElement): () => void;
}

export type BootWidgets = (ctx: WidgetContext) => WidgetUI;

/** The global the chunk calls (private to Remit). */
export const UI_GLOBAL = '__remitUI';
