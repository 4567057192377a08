import * as z from 'zod';
import { amount, flag, merchantKey, optionalNonBlank as optional, phone, shownText } from './fields.js';
import { orderId } from './pay-links.js';
import { originField } from './origins.js';
import { appearanceSchema, appearanceVariablesView, THEMES } from './appearance.js';

/** `GET /widgets` and `PUT /widgets/{id}`: the merchant's widget settings (docs/embedding.md). */

export const MAX_ALLOWED_ORIGINS = 20;
export const BUTTON_TEXT_MAX = 40;
export const DEFAULT_BUTTON_TEXT = 'Pay now';

const COLOR_RULE = 'must be a colour #rrggbb (for example #1a56db)';
const LOGO_RULE = 'must be an https:// address of an image, at most 2048 characters';

/** Countries (ISO 3166 alpha-2) the request payment widget may text unless the merchant sets others. */
export const DEFAULT_SMS_COUNTRIES = ['US', 'CA'];
export const MAX_SMS_COUNTRIES = 50;
/**
 * What the completed-transactions widget lists: `widget`, sales paid through links the widgets
 * opened (pay button, request payment); `pay_links`, sales paid through any pay link or payment
 * request of the merchant. Never charges made with the secret key (stored customers, API charges).
 */
export const WIDGET_TRANSACTIONS_SCOPES = ['widget', 'pay_links'] as const;
export type WidgetTransactionsScope = (typeof WIDGET_TRANSACTIONS_SCOPES)[number];

export const listWidgetsInput = z.object({ merchant_key: merchantKey() });
export type ListWidgetsInput = z.output<typeof listWidgetsInput>;

export const widgetIdParams = z.object({ id: z.string().min(1).max(100) });

const logoUrl = () =>
  z
    .string()
    .trim()
    .max(2048, LOGO_RULE)
    .refine((v) => {
      try {
        const u = new URL(v);
        return u.protocol === 'https:' && u.hostname.length > 0 && !u.username && !u.password;
      } catch {
        return false;
      }
    }, LOGO_RULE);

/** Every field but merchant_key is optional: what is given replaces what was stored; null clears. */
export const updateWidgetInput = z.object({
  merchant_key: merchantKey(),
  allowed_origins: z
    .array(originField())
    .max(MAX_ALLOWED_ORIGINS, `must list at most ${MAX_ALLOWED_ORIGINS} origins`)
    .transform((list) => [...new Set(list)])
    .optional(),
  button_text: shownText(BUTTON_TEXT_MAX).optional(),
  theme: z
    .object({
      primary_color: z
        .string()
        .regex(/^#[0-9a-fA-F]{6}$/, COLOR_RULE)
        .transform((c) => c.toLowerCase())
        .nullable()
        .optional(),
    })
    .optional(),
  request_payment_enabled: flag().optional(),
  completed_transactions_enabled: flag().optional(),
  completed_transactions_scope: z
    .enum(WIDGET_TRANSACTIONS_SCOPES, { error: `must be one of ${WIDGET_TRANSACTIONS_SCOPES.join(', ')}` })
    .optional(),
  sms_countries: z
    .array(
      z
        .string()
        .regex(/^[A-Za-z]{2}$/, 'must be a two-letter country code (ISO 3166), for example US')
        .transform((c) => c.toUpperCase()),
    )
    .min(1, 'must list at least one country (turn the widget off with request_payment_enabled instead)')
    .max(MAX_SMS_COUNTRIES, `must list at most ${MAX_SMS_COUNTRIES} countries`)
    .transform((list) => [...new Set(list)])
    .optional(),
  max_amount: amount().nullable().optional(),
  logo_url: logoUrl().nullable().optional(),
  /** Replaces the stored appearance; null goes back to the default theme. Refused when a colour pair would not read. */
  appearance: appearanceSchema.nullable().optional(),
});
export type UpdateWidgetInput = z.output<typeof updateWidgetInput>;

/** A merchant's widget settings as the API answers them. */
export const widgetSchema = z.object({
  id: z.string().describe('wdg_…'),
  merchant_id: z.string(),
  allowed_origins: z
    .array(z.string())
    .describe(
      'exact origins allowed to embed the widgets and the pay page; empty: any origin in sandbox, none in production',
    ),
  button_text: z.string(),
  theme: z.object({
    primary_color: z.string().nullable().describe('#rrggbb; the colorPrimary of an appearance that sets none'),
  }),
  appearance: z
    .object({ theme: z.enum(THEMES), variables: appearanceVariablesView })
    .describe(
      'theme default|night|flat|auto and variables colorPrimary, colorBackground, colorText, colorDanger, colorBorder, fontFamily, fontSizeBase, borderRadius, spacingUnit',
    ),
  logo_url: z.string().nullable().describe('https address of the logo the pay page shows'),
  request_payment_enabled: z.boolean(),
  completed_transactions_enabled: z.boolean().describe('off by default in production'),
  completed_transactions_scope: z
    .enum(WIDGET_TRANSACTIONS_SCOPES)
    .describe(
      'widget: sales paid through links the widgets opened; pay_links: through any pay link or payment request. Never other API charges',
    ),
  sms_countries: z
    .array(z.string())
    .describe('countries (ISO 3166 alpha-2) the request payment widget may text; default US and CA'),
  max_amount: z.string().nullable().describe("decimal text; null: the merchant's own limit"),
  created_date: z.string(),
  updated_date: z.string(),
});
export type Widget = z.infer<typeof widgetSchema>;

/* ------------------------------------------------------------------------------------------------
 * The widget backend `/widget/v1` (authorized by the merchant public key alone) and what the
 * loader (`dynamic-launch.js`, `@remit/loader`) hands back to the page.
 * ---------------------------------------------------------------------------------------------- */

export const WIDGET_TRANSACTIONS_PAGE_SIZE = 10;
export const WIDGET_PAGE_MAX = 1000;

/** `GET /widget/v1/config`: the settings a widget may see (never the allowed origins list or ids). */
export const widgetConfigSchema = z.object({
  button_text: z.string(),
  theme: z.object({ primary_color: z.string().nullable() }),
  request_payment_enabled: z.boolean(),
  completed_transactions_enabled: z.boolean(),
  max_amount: z.string().nullable().describe('decimal text; null: the merchant limit'),
  /** The appearance as a stylesheet for the widgets' shadow roots (`:host{…}`), resolved by the server; '' for the default. */
  appearance_css: z.string(),
  /** Why the page's `?appearance=` override was ignored (a colour pair that would not read, or a wrong shape); null when taken or none. */
  appearance_warning: z.string().nullable(),
  environment: z.enum(['sandbox', 'production']),
});
export type WidgetConfig = z.infer<typeof widgetConfigSchema>;

/** `GET /widget/v1/config?appearance=`: the page's override, as JSON text. */
export const widgetConfigQuery = z.object({ appearance: z.string().max(2000).optional() });

/** `POST /widget/v1/pay-links`: a pay link for an amount; the request's `Origin` is recorded as its embed_origin. */
export const widgetPayLinkBody = z.object({ amount: amount(), order_id: optional(orderId()) });
export type WidgetPayLinkInput = z.output<typeof widgetPayLinkBody>;
export const widgetPayLinkSchema = z.object({
  link_id: z.string(),
  pay_link: z.string().describe('address of the hosted pay page for this link'),
  amount: z.string(),
});
export type WidgetPayLink = z.infer<typeof widgetPayLinkSchema>;

/** `POST /widget/v1/payment-requests`: a payment request sent by SMS to a US or E.164 phone in one of the widget's sms_countries. */
export const widgetRequestBody = z.object({ amount: amount(), phone_number: phone() });
export type WidgetRequestInput = z.output<typeof widgetRequestBody>;
export const widgetRequestSchema = z.object({
  status: z
    .enum(['sent', 'queued'])
    .describe('queued: the SMS provider has not accepted it yet; it will be tried again'),
  link_id: z.string(),
  amount: z.string(),
  phone_last_four: z.string().describe('the last four digits of the phone the SMS went to'),
});
export type WidgetRequestResult = z.infer<typeof widgetRequestSchema>;

/** `GET /widget/v1/transactions?page=`: completed transactions, newest first; no customer data. */
export const widgetTransactionsQuery = z.object({
  page: z
    .string()
    .regex(/^\d{1,4}$/, `must be a whole number from 0 to ${WIDGET_PAGE_MAX}`)
    .transform(Number)
    .refine((n) => n <= WIDGET_PAGE_MAX, `must be a whole number from 0 to ${WIDGET_PAGE_MAX}`)
    .optional(),
});
export const widgetTransactionSchema = z.object({
  transaction_id: z.string(),
  date: z.string().describe('ISO 8601'),
  amount: z.string(),
  brand: z.string().nullable().describe('card brand, or null for a bank (ACH) payment'),
  last_four: z.string().nullable(),
  status: z.string(),
});
export type WidgetTransaction = z.infer<typeof widgetTransactionSchema>;
export const widgetTransactionsSchema = z.object({
  data: z.array(widgetTransactionSchema),
  page: z.number().int(),
  page_size: z.number().int(),
  has_more: z.boolean(),
});
export type WidgetTransactions = z.infer<typeof widgetTransactionsSchema>;

/** `getPaymentPage`'s options. */
export interface PayOptions {
  /** The merchant's own order id: shown to the customer on the pay page and its receipt, and stored on the payment (no id: none is shown). */
  order_id?: string;
  /** Close the modal the moment the payment succeeds, instead of after a short confirmation (or when the customer closes it). */
  skip_confirmation?: boolean;
}

/** What `getPaymentPage` resolves with: paid, or closed by the customer before paying. */
export type PaymentResult =
  | { status: 'succeeded'; transaction_id: string }
  | { status: 'closed'; transaction_id: null };
/** What `sendRequestPayment` resolves with once the SMS is queued. */
export type RequestResult = WidgetRequestResult;

/** `remit:ready`: the loader ran; `window.Remit` is there. */
export interface RemitReady {
  public_key: string;
}
/** `remit:payment-success`: the customer paid in the pay modal. */
export type PaymentSucceeded = Extract<PaymentResult, { status: 'succeeded' }>;
/** `remit:close`: the customer closed the pay modal without paying. */
export type PaymentClosed = Extract<PaymentResult, { status: 'closed' }>;
/** `remit:error`: a widget call failed (the same `code` and `message` the Promise rejects with). */
export interface RemitErrorDetail {
  code: string;
  message: string;
}

/**
 * The DOM events the loader dispatches on `document`, each `detail` of the type the matching
 * callback gets (`onReady`, `onSuccess`, `onClose`, `onError`). @remit/loader adds them to
 * `DocumentEventMap`, so `document.addEventListener('remit:payment-success', (e) => e.detail.transaction_id)` is typed.
 */
export interface RemitEventMap {
  'remit:ready': CustomEvent<RemitReady>;
  'remit:payment-success': CustomEvent<PaymentSucceeded>;
  'remit:close': CustomEvent<PaymentClosed>;
  'remit:error': CustomEvent<RemitErrorDetail>;
}

/** The error the loader's Promises reject with. `code`: the server's error code, or `invalid_amount`, `invalid_phone`, `invalid_key`, `load_failed`, `network_error`. */
export interface RemitWidgetError extends Error {
  code: string;
  status?: number;
}

/** The loader's programmatic API: `window.Remit` once dynamic-launch.js ran; `loadRemit()` resolves with it. */
export interface RemitWidgets {
  /** Opens the pay modal (a popup on narrow screens). Resolves `{status:'succeeded', transaction_id}` or `{status:'closed', transaction_id:null}`; rejects with a RemitWidgetError on bad input or a failed request. */
  getPaymentPage(amount: number | string, options?: PayOptions): Promise<PaymentResult>;
  /** Sends the payment request SMS and shows a confirmation. Resolves once sent; rejects with a RemitWidgetError. */
  sendRequestPayment(amount: number | string, phone: string): Promise<RequestResult>;
  /** Renders the completed-transactions table in `el` (a `<table>` is filled in place; any other element gets a shadow root). Returns unmount. */
  mountTransactions(el: HTMLElement): () => void;
  /** The public key this loader was started with. */
  readonly publicKey: string;
}
