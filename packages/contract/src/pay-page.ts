import * as z from 'zod';

/**
 * The hosted pay page's own calls (`/pay/api/…`): public, authorized by the unguessable link id
 * (or add-card token) alone. Amounts here are integer minor units (cents) with a `currency`: the
 * page formats them for the customer's locale. Failures use the common error envelope
 * `{result: false, message, code, errors?, request_id}`; a decline is HTTP 402 with its reason in
 * `message` and a stable `code` (`card_declined`, `insufficient_funds`, `expired_card`,
 * `incorrect_cvc`, `three_ds_failed`, …).
 *
 * HTML: `GET /pay/{link_id}` and `GET /pay/card/{token}` answer the page with the HTTP status of
 * what it shows (200, 404 unknown, 410 cancelled) and the initial state embedded as
 * `<script id="remit-state" type="application/json">` holding a `PayPageState`, so the first
 * render needs no request.
 */

const cents = z.number().int().nonnegative();

export const payMethodSchema = z.enum(['card', 'ach']);
export type PayMethod = z.infer<typeof payMethodSchema>;

/** Who is paid: branding from the merchant's widget settings when set. */
export const payMerchantSchema = z.object({
  name: z.string(),
  logo_url: z.string().nullable(),
  /** `#rrggbb`. */
  primary_color: z.string().nullable(),
  /** Path of the merchant's appearance stylesheet (`/pay/appearance.css?…`); null for the default look. */
  stylesheet: z.string().nullable(),
  /** false while the merchant is pending approval: the page says it cannot take payments yet. */
  accepts_payments: z.boolean(),
  /** true while the processor holds the merchant's charges off: the page says it cannot take payments right now. */
  restricted: z.boolean(),
});
export type PayMerchant = z.infer<typeof payMerchantSchema>;

/**
 * What the customer pays. `fee` and `total` differ per method when the fee is passed on
 * (`pass_fee`), since card and ACH are priced differently; both are 0 fee otherwise.
 */
export const payAmountsSchema = z.object({
  currency: z.literal('USD'),
  amount: cents,
  tax: cents,
  surcharge: cents,
  discount: cents,
  /** amount + tax + surcharge − discount */
  subtotal: cents,
  fee: z.object({ card: cents, ach: cents }),
  total: z.object({ card: cents, ach: cents }),
});
export type PayAmounts = z.infer<typeof payAmountsSchema>;

export const receiptSchema = z.object({
  transaction_id: z.string(),
  /** succeeded: card charged; authorized: preauth held; pending: ACH debit awaiting the bank. */
  status: z.enum(['succeeded', 'authorized', 'pending']),
  method: payMethodSchema,
  currency: z.literal('USD'),
  amount: cents,
  /** Card brand (`Visa`…), or `ACH` for a bank debit. */
  brand: z.string(),
  last_four: z.string(),
  auth_code: z.string(),
  /** ISO 8601 UTC timestamp. */
  date: z.string(),
  order_id: z.string(),
  invoice_number: z.string().nullable(),
  merchant_name: z.string(),
  /** The receipt was also sent to this address (masked, `g***@example.com`), or null. */
  emailed_to: z.string().nullable(),
});
export type Receipt = z.infer<typeof receiptSchema>;

/**
 * How a page takes card and bank details. `remit`: Remit's own fields (the sandbox simulator's
 * test numbers). `stripe`: Stripe's Payment Element, loaded with Stripe.js from `js_url`; no card
 * or account number ever reaches Remit.
 */
export const cardEntrySchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('remit') }),
  z.object({ kind: z.literal('stripe'), publishable_key: z.string(), js_url: z.string() }),
]);
export type CardEntry = z.infer<typeof cardEntrySchema>;

/** `GET /pay/api/links/{link_id}`. */
export const payLinkViewSchema = z.object({
  link_id: z.string(),
  /** pay_link: `POST /pay-link`; request: `POST /requests`; authorization: customer authorization request. */
  kind: z.enum(['pay_link', 'request', 'authorization']),
  /**
   * open: can be paid; paid: `receipt` holds what was paid; processing: a card attempt's answer
   * never came from the processor and Remit is asking it (the link becomes paid, or open again).
   */
  status: z.enum(['open', 'paid', 'processing']),
  merchant: payMerchantSchema,
  order_id: z.string(),
  invoice_number: z.string().nullable(),
  description: z.string().nullable(),
  amounts: payAmountsSchema,
  /** The methods this link allows (at least one is true). */
  methods: z.object({ card: z.boolean(), ach: z.boolean() }),
  /** An authorization is placed, not a charge. */
  preauth: z.boolean(),
  require_3ds: z.boolean(),
  /** The exact origin of the merchant page that opened the link (postMessage target), or null. */
  embed_origin: z.string().nullable(),
  /**
   * The origins that may frame this link's page (its `frame-ancestors`): the merchant's allowed
   * origins and `embed_origin`; `['*']` any (sandbox with none set); `[]` none.
   */
  frame_ancestors: z.array(z.string()),
  receipt: receiptSchema.nullable(),
  card_entry: cardEntrySchema,
  /**
   * A paid link's bank debit waiting for microdeposits (Stripe): Stripe's verification page, so the
   * page shows it after a reload too. Null otherwise (absent from older servers).
   */
  pending_verification_url: z.string().nullable().optional(),
  /** A sandbox server's page: it wears a "Test mode" mark (no real money moves). */
  sandbox: z.boolean(),
});
export type PayLinkView = z.infer<typeof payLinkViewSchema>;

export const cardInputSchema = z.object({
  /** Digits; spaces and dashes are accepted and removed. */
  number: z.string(),
  exp_month: z.number().int(),
  /** Four digits. */
  exp_year: z.number().int(),
  cvc: z.string(),
  name: z.string(),
  zip: z.string(),
});
export type CardInput = z.infer<typeof cardInputSchema>;

export const bankInputSchema = z.object({
  holder_name: z.string(),
  routing_number: z.string(),
  account_number: z.string(),
  account_type: z.enum(['checking', 'savings']),
});
export type BankInput = z.infer<typeof bankInputSchema>;

/**
 * `POST /pay/api/links/{link_id}/pay`, with an `Idempotency-Key` header the page makes once per
 * attempt: a double click, a retried request or a reload replays the first answer.
 */
export const payRequestSchema = z.discriminatedUnion('method', [
  z.object({ method: z.literal('card'), card: cardInputSchema }),
  z.object({
    method: z.literal('ach'),
    bank: bankInputSchema,
    /** The customer accepted the debit authorization text. Must be true. */
    authorization_accepted: z.literal(true),
  }),
]);
export type PayRequest = z.infer<typeof payRequestSchema>;

/**
 * Answer of a pay attempt (HTTP 200). `challenge`: the card needs 3-D Secure; the page shows the
 * challenge and answers it with `POST /pay/api/links/{link_id}/challenges/{challenge.id}`.
 */
export const payResultSchema = z.discriminatedUnion('status', [
  z.object({ status: z.literal('paid'), receipt: receiptSchema }),
  z.object({
    status: z.literal('challenge'),
    /** `redirect_url`: the processor's own challenge page (Stripe); the page sends the customer there, and the processor sends them back. */
    challenge: z.object({
      id: z.string(),
      brand: z.string(),
      last_four: z.string(),
      redirect_url: z.string().optional(),
    }),
  }),
  /** HTTP 202: the processor's answer never came; Remit asks it, and the link becomes paid or open again. Do not pay again. */
  z.object({ status: z.literal('processing'), message: z.string() }),
  /**
   * HTTP 202, Stripe bank payments: the account is verified by microdeposits (one to two days). The
   * payment is pending; the customer follows `verification_url` once the deposits arrive.
   */
  z.object({ status: z.literal('bank_verification'), message: z.string(), verification_url: z.string() }),
]);
export type PayResult = z.infer<typeof payResultSchema>;

/** `POST /pay/api/links/{link_id}/challenges/{challenge_id}`: the sandbox 3-D Secure step. Answers a `PayResult` (or 402 `three_ds_failed`). */
export const challengeAnswerSchema = z.object({ outcome: z.enum(['complete', 'fail']) });
export type ChallengeAnswer = z.infer<typeof challengeAnswerSchema>;

/** `GET /pay/api/cards/{token}`: the add-card page that `request-card` sends. */
export const addCardViewSchema = z.object({
  token: z.string(),
  merchant: payMerchantSchema,
  customer_first_name: z.string(),
  /** saved: a card was added through this token already. */
  status: z.enum(['open', 'saved']),
  saved_card: z.object({ brand: z.string(), last_four: z.string() }).nullable(),
  card_entry: cardEntrySchema,
  /** A sandbox server's page: it wears a "Test mode" mark. */
  sandbox: z.boolean(),
});
export type AddCardView = z.infer<typeof addCardViewSchema>;

/** `POST /pay/api/cards/{token}` (with `Idempotency-Key`): stores the card on the customer; no charge. */
export const addCardRequestSchema = z.object({ card: cardInputSchema });
export type AddCardRequest = z.infer<typeof addCardRequestSchema>;
export const addCardResultSchema = z.object({
  status: z.literal('saved'),
  brand: z.string(),
  last_four: z.string(),
});
export type AddCardResult = z.infer<typeof addCardResultSchema>;

/**
 * `POST /pay/api/links/{link_id}/intent` and `POST /pay/api/cards/{token}/intent` (with
 * `Idempotency-Key`), Stripe only: the link's one PaymentIntent (created once, reused across page
 * loads, tabs and retries) or the card request's SetupIntent, for the page to confirm with Stripe.js.
 */
export const stripeIntentSchema = z.object({ client_secret: z.string() });
/**
 * The link intent's body: `{}`, or `{method}` when the customer picks card or bank in Stripe's
 * fields: the server sets the PaymentIntent's amount and fee to the link's total for that method.
 */
export const linkIntentRequestSchema = z.object({ method: z.enum(['card', 'ach']).optional() }).strict();
export type LinkIntentRequest = z.infer<typeof linkIntentRequestSchema>;
export type StripeIntent = z.infer<typeof stripeIntentSchema>;

/**
 * `POST /pay/api/links/{link_id}/intent/report` `{payment_intent}` → `PayResult`, and
 * `POST /pay/api/cards/{token}/intent/report` `{setup_intent}` → `AddCardResult`: the page says it
 * confirmed; the server reads the intent from Stripe and records it once (never trusting the browser).
 */
export const paymentIntentReportSchema = z.object({ payment_intent: z.string().max(255) });
export type PaymentIntentReport = z.infer<typeof paymentIntentReportSchema>;
export const setupIntentReportSchema = z.object({ setup_intent: z.string().max(255) });
export type SetupIntentReport = z.infer<typeof setupIntentReportSchema>;

/** `errorEnvelopeSchema` (the common failure envelope) lives in envelope.ts. */

/** The initial state the server embeds in the pay page HTML (`#remit-state`). */
export const payPageStateSchema = z.discriminatedUnion('page', [
  z.object({ page: z.literal('link'), view: payLinkViewSchema }),
  z.object({ page: z.literal('card'), view: addCardViewSchema }),
  /** 404 unknown link or token; 410 cancelled by the merchant. */
  z.object({
    page: z.literal('error'),
    status: z.union([z.literal(404), z.literal(410)]),
    code: z.string(),
    message: z.string(),
  }),
]);
export type PayPageState = z.infer<typeof payPageStateSchema>;

/** What the page posts to its opener or parent frame, to `embed_origin` only (never `*`). */
export interface PaymentMessage {
  type: 'remit:payment';
  status: 'succeeded' | 'failed' | 'closed';
  transaction_id: string | null;
}
