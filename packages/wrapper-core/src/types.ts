/**
 * What @remit/react and @remit/vue publish: the connection props and the shapes handed to their
 * callbacks. They mirror `@remit/loader`'s (from `@remit/contract`) so each published package
 * stands alone (scripts/build-wrapper.mjs copies this file into its dist/, so it imports nothing);
 * `types.assert.ts` fails the typecheck the day the two disagree.
 */

/** What every component takes: the merchant's public key, where the Remit server is, a CSP nonce. */
export interface RemitConnection {
  /** The merchant public key (`pk_test_…` / `pk_live_…`). */
  clientKey: string;
  /** The Remit server, e.g. `https://pay.example.com`. Default: the page's own origin. */
  baseUrl?: string;
  /** The nonce of a strict Content-Security-Policy, put on the loader's script tag. */
  nonce?: string;
  /**
   * The customer's language, a BCP 47 tag (`fr`, `pt-BR`, `zh-Hans`, `ar`): the widgets, the pay
   * modal and the buttons' default text. Default: the browser's languages (the buttons: English).
   * One per page: the first component to load Remit sets it.
   */
  locale?: string;
  /**
   * This page's appearance, over the widget settings'. One whose colours would not read is
   * ignored with a console warning. Taken when the widgets first load: one appearance per page.
   */
  appearance?: Appearance;
}

/** Stripe's names: a theme, and variables over it. */
export type Theme = 'default' | 'night' | 'flat' | 'auto';
export interface AppearanceVariables {
  /** `#rrggbb` colours. */
  colorPrimary?: string;
  colorBackground?: string;
  colorText?: string;
  colorDanger?: string;
  colorBorder?: string;
  /** A CSS font-family list: system stacks, or a web font the page has loaded. */
  fontFamily?: string;
  /** Lengths in px: `"16px"`. */
  fontSizeBase?: string;
  borderRadius?: string;
  spacingUnit?: string;
}
export interface Appearance {
  theme?: Theme;
  variables?: AppearanceVariables;
}

/** What `onReady` gets (and the `remit:ready` event on `document` carries): the loader is there. */
export interface RemitReady {
  public_key: string;
}

/** The pay button's outcome: paid (`onSuccess`), or closed without paying (`onClose`). */
export type PaymentResult =
  | { status: 'succeeded'; transaction_id: string }
  | { status: 'closed'; transaction_id: null };

/** The payment request, sent by SMS. */
export interface RequestResult {
  /** `queued`: the SMS provider has not accepted it yet; the server tries again. */
  status: 'sent' | 'queued';
  link_id: string;
  amount: string;
  /** The last four digits of the phone the SMS went to. */
  phone_last_four: string;
}

/** What `onError` gets. `code`: the server's error code, or `invalid_amount`, `invalid_phone`, `invalid_key`, `load_failed`, `network_error`. */
export interface RemitWidgetError extends Error {
  code?: string;
  status?: number;
}
