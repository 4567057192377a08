import * as z from 'zod';

/**
 * Every machine-readable error `code` Remit answers, once, with its HTTP status and, where the
 * spec gives one, the spec's message (a call site may give a message naming more detail).
 * Core builds its `RemitError`s from these codes, so a code is never spelled twice.
 */
interface ErrorEntry {
  status: number;
  message?: string;
}

const entries = {
  // 400: the request is wrong; nothing changed.
  invalid_request: { status: 400 },
  malformed_json: { status: 400, message: 'Malformed JSON body.' },
  malformed_multipart: { status: 400 },
  missing_part: { status: 400 },
  invalid_idempotency_key: { status: 400 },
  invalid_webhook_url: { status: 400 },
  raw_payment_data_not_allowed: { status: 400 },
  /** Stripe is the processor: card numbers are typed into Stripe's own fields, never sent to Remit. */
  card_entry_by_processor: {
    status: 400,
    message:
      "Card details are entered in Stripe's secure fields on the pay page; Remit does not accept card numbers while Stripe is the processor.",
  },
  /** Stripe is the processor: bank accounts are entered (and verified) in Stripe's fields, never sent to Remit. */
  bank_entry_by_processor: {
    status: 400,
    message:
      "Bank details are entered in Stripe's secure fields on the pay page; Remit does not accept bank account numbers while Stripe is the processor.",
  },
  invalid_card_number: { status: 400 },
  invalid_card_expiry: { status: 400 },
  card_expired: { status: 400 },
  card_not_accepted: { status: 400 },
  unsupported_image: { status: 400 },
  /** The merchant agreement page: the form was sent without its acceptance box ticked. */
  agreement_not_accepted: { status: 400, message: 'Tick the box to accept the agreement.' },
  merchant_not_approved: { status: 400, message: 'Merchant is not approved for payments yet.' },
  /** The operator suspended the merchant (`remit merchants suspend`): no new payments until reinstated. */
  merchant_suspended: {
    status: 400,
    message: 'This merchant is suspended: payments are refused until the operator reinstates it.',
  },
  amount_not_positive: { status: 400 },
  amount_over_limit: { status: 400 },
  customer_has_no_contact: { status: 400 },
  customer_unreachable: { status: 400 },
  no_payment_method: { status: 400 },
  preauth_needs_card: { status: 400 },
  /** Widget backend: the phone is in a country the widget settings' sms_countries leave out. */
  phone_country_not_allowed: { status: 400 },
  /** Widget backend: the SMS provider refused the message for good (Twilio 21211, an invalid number). */
  sms_not_sent: { status: 400 },
  /** Pay page: the link does not take this method (or an authorization by bank account). */
  method_not_allowed: { status: 400 },
  /** Spec: "`last_authorized_amount` differs from the record: error named Amount mismatch". */
  amount_mismatch: { status: 400, message: 'Amount mismatch' },
  amount_unchanged: { status: 400 },
  not_original_preauth: { status: 400 },
  preauth_captured: { status: 400 },
  preauth_voided: { status: 400 },
  /** A preauthorization that is declined, pending or returned: never open. */
  preauth_not_open: { status: 400 },
  /** Spec: refund of an unknown or not completed transaction. */
  not_refundable: { status: 400, message: 'Payment method not found.' },
  amount_over_original: { status: 400, message: 'Amount should not be greater than sales charge amount.' },
  amount_over_remaining: { status: 400, message: 'The amount should not be greater than the remaining amount.' },
  already_refunded: { status: 400, message: 'Refund already done. No refund allowed.' },
  transaction_settled: { status: 400, message: 'The transaction has been settled, a void is not allowed.' },
  already_voided: { status: 400 },
  not_voidable: { status: 400 },
  not_ach: { status: 400 },
  ach_already_resolved: { status: 400 },
  /** Spec: remote deposit capture for a merchant without ACH provider credentials. */
  ach_account_not_found: {
    status: 400,
    message:
      'ACH merchant or account detail not found: this merchant has no account with a check-deposit provider on this server (remote deposit capture needs one; Stripe takes no checks).',
  },

  // 401: credentials.
  unauthorized: { status: 401 },
  invalid_merchant_key: {
    status: 401,
    message: 'Invalid merchant_key: no merchant with this key belongs to your client.',
  },
  /** The widgets' publishable key: unknown, or called from an origin the merchant has not allowed. */
  invalid_public_key: {
    status: 401,
    message: 'Invalid public key: no merchant with this key accepts calls from this origin.',
  },

  // 402: the card network refused the payment (the declined transaction is recorded).
  card_declined: { status: 402, message: 'Your card was declined.' },
  insufficient_funds: { status: 402, message: 'Your card has insufficient funds.' },
  expired_card: { status: 402, message: 'Your card has expired.' },
  incorrect_cvc: { status: 402, message: "Your card's security code is incorrect." },
  authentication_required: { status: 402 },
  three_ds_failed: { status: 402 },
  /** Pay page: the 3-D Secure challenge was answered too late. */
  challenge_expired: { status: 402 },

  // 403.
  sandbox_only: { status: 403 },
  /** The test kit's `/testing` controls were called with credentials other than the sandbox's own. */
  not_sandbox_credentials: {
    status: 403,
    message: "The /testing controls answer only the sandbox's own credentials (the ones remit-sandbox printed).",
  },
  /** The widget backend: the page's Origin is not in the merchant's widget allowed_origins. */
  origin_not_allowed: {
    status: 403,
    message: "Origin not allowed: add this page's origin to the widget settings' allowed_origins (PUT /widgets/{id}).",
  },
  /** The widget backend: the merchant turned this widget off in its widget settings. */
  widget_disabled: { status: 403 },
  /** Portal: a state-changing call without the session's CSRF token, or from another origin. */
  /** A provider's callback (Twilio's X-Twilio-Signature) did not verify: nothing was read or changed. */
  invalid_signature: {
    status: 403,
    message: 'Invalid signature: this callback was not signed with the configured credentials.',
  },
  csrf_rejected: {
    status: 403,
    message:
      'This request was refused: it did not come from the portal page (CSRF token or Origin missing or wrong). Reload the portal and try again.',
  },

  // 404.
  route_not_found: { status: 404 },
  merchant_not_found: { status: 404, message: 'Merchant not found.' },
  /** Operator tools: no client has this id (or it is of the other environment). */
  client_not_found: { status: 404 },
  customer_not_found: { status: 404, message: 'Customer not found.' },
  /** Spec: `DELETE /pay-link/{linkId}` with an unknown link. */
  link_not_found: { status: 404, message: 'Link not found' },
  transaction_not_found: { status: 404 },
  preauth_not_found: { status: 404 },
  ach_transaction_not_found: { status: 404 },
  delivery_not_found: { status: 404, message: 'Webhook delivery not found.' },
  card_link_not_found: { status: 404 },
  /** A verification link (`/verify/{token}`): unknown, or past its expiry. */
  verification_link_not_found: {
    status: 404,
    message: 'This verification link does not exist or has expired. Ask the platform for a new one.',
  },
  /** The merchant agreement page: no agreement has this token. */
  agreement_not_found: { status: 404, message: 'This agreement link does not exist. Check the address you were sent.' },
  challenge_not_found: { status: 404 },
  widget_not_found: { status: 404 },
  asset_not_found: { status: 404 },
  message_not_found: { status: 404, message: 'Message not found.' },
  webhook_url_not_set: { status: 400, message: 'Set a webhook URL first: test events are sent to it.' },

  // 409.
  order_id_exists: { status: 409 },
  idempotency_key_reused: { status: 409 },
  idempotency_key_in_progress: { status: 409 },
  link_already_paid: { status: 409 },
  /** The pay page: an attempt on the link is waiting for the processor's answer; no second one until it is settled. */
  payment_processing: { status: 409 },
  /** `DELETE /pay-link`: the link was paid (or its card saved); deleting it would hide a payment. */
  link_not_deletable: { status: 409 },
  challenge_answered: { status: 409 },
  card_already_saved: { status: 409 },
  /** Add-card with Stripe: the bank account waits for its microdeposits to be verified (the message names Stripe's page). */
  bank_verification_pending: { status: 409 },
  /** The processor holds the merchant's charges off (Stripe's `charges_enabled: false`): the message names its reason. */
  merchant_restricted: {
    status: 409,
    message: 'This business cannot take payments right now: the payment processor has paused its charges.',
  },
  /** Stripe took an amount that is not the link's total for the method used: refunded at once; the link stays open. */
  payment_amount_mismatch: { status: 409 },

  // 410: the pay page's link was cancelled by the merchant, or expired.
  link_cancelled: { status: 410 },
  card_link_cancelled: { status: 410 },
  /** A widget link left unpaid past its expiry. */
  link_expired: { status: 410 },

  // Transport limits.
  /** The request (headers and body) did not arrive within the server's time limit. */
  request_timeout: { status: 408 },
  /** The test kit's long-polls (`GET /testing/webhooks/next`, `/testing/messages/next`): nothing came within timeout_ms. */
  wait_timed_out: { status: 408 },
  payload_too_large: { status: 413, message: 'Request body is too large.' },
  unsupported_media_type: { status: 415, message: 'Unsupported Content-Type; send application/json.' },
  rate_limited: { status: 429 },
  /** A server listening only on loopback was asked under a name that is not its own (DNS rebinding). */
  misdirected_request: {
    status: 421,
    message:
      'This server answers only to its own names (the host of PUBLIC_URL, localhost, 127.0.0.1 and [::1]); this request named another in its Host header.',
  },
  headers_too_large: { status: 431, message: 'Request headers are too large.' },

  // 5xx.
  internal_error: { status: 500, message: 'Internal server error. Quote request_id when you report it.' },
  unavailable: { status: 503 },
  /**
   * The database did not answer (a failover, a restart) or answered read-only: nothing was written.
   * Retry after `Retry-After` seconds, with the same Idempotency-Key.
   */
  service_unavailable: {
    status: 503,
    message:
      'The service is briefly unavailable (its database did not answer); nothing was changed. Retry after the Retry-After seconds, with the same Idempotency-Key.',
  },
  /**
   * The processor failed or did not answer (a timeout, its 5xx, a refusal that is no decline):
   * nothing was changed here, and a retry with the same Idempotency-Key is safe.
   */
  processor_error: {
    status: 502,
    message:
      'The payment processor could not complete the request; nothing was changed. Retry with the same Idempotency-Key.',
  },
  /** REMIT_PROCESSOR names no real connector: this server refuses payments. */
  processor_unavailable: {
    status: 503,
    message:
      'No payment processor is configured (REMIT_PROCESSOR): this production server refuses to process payments until a real connector is configured.',
  },
  /** The check-image bucket (REMIT_CHECK_IMAGES_S3_BUCKET) failed or did not answer: the deposit was not recorded. */
  check_images_unavailable: {
    status: 503,
    message:
      'The check images could not be stored (the image bucket did not answer); the deposit was not recorded. Retry it.',
  },
  /** No transport can carry the message (no SMTP_URL for email, no SMS connector): nothing was sent or written. */
  messaging_unavailable: { status: 503 },
} as const satisfies Record<string, ErrorEntry>;

export type ErrorCode = keyof typeof entries;

/** The catalogue, read-only. */
export const ERROR_CODES: { readonly [C in ErrorCode]: Readonly<ErrorEntry> } = entries;

export const errorCodeSchema = z.enum(Object.keys(entries) as [ErrorCode, ...ErrorCode[]]);

export const isErrorCode = (code: string): code is ErrorCode => Object.hasOwn(entries, code);

/** The catalogue's message of a code that has one. */
export function errorMessage<C extends ErrorCode>(
  code: C,
): (typeof entries)[C] extends { message: infer M } ? M : string | undefined {
  return (entries[code] as ErrorEntry).message as never;
}

/** Card declines: HTTP 402 with the declined `transaction_id` in the envelope. */
export const DECLINE_CODES = [
  'card_declined',
  'insufficient_funds',
  'expired_card',
  'incorrect_cvc',
  'authentication_required',
  'three_ds_failed',
] as const satisfies readonly ErrorCode[];
