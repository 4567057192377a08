import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  customType,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import type { Appearance } from '@remit/contract';

/**
 * What the processor holds about a merchant's account (Stripe's `requirements` and
 * `future_requirements`, requirement names as Stripe spells them), as kept on the merchant row.
 */
export interface AccountVerification {
  charges_enabled: boolean;
  payouts_enabled: boolean;
  currently_due: string[];
  eventually_due: string[];
  past_due: string[];
  pending_verification: string[];
  errors: { requirement: string; code: string; reason: string }[];
  /** ISO 8601 UTC. */
  deadline: string | null;
  disabled_reason: string | null;
  upcoming: { eventually_due: string[]; deadline: string | null };
}

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
const cents = (name: string) => bigint(name, { mode: 'number' });

/** API clients: one per set of credentials (client_id + secret_key). */
export const clients = pgTable('clients', {
  id: text('id').primaryKey(),
  env: text('env').notNull(),
  secretHash: text('secret_hash').notNull(),
  /** The secret a rotation with an overlap replaced: still accepted until `previousSecretUntil`. */
  previousSecretHash: text('previous_secret_hash'),
  previousSecretUntil: ts('previous_secret_until'),
  webhookUrl: text('webhook_url'),
  /** Encrypted: the signing secret must be readable to sign deliveries. */
  webhookSecretEnc: text('webhook_secret_enc'),
  /** The signing secret a rotation with an overlap replaced (encrypted): deliveries carry its signature too until `webhookPreviousSecretUntil`. */
  webhookPreviousSecretEnc: text('webhook_previous_secret_enc'),
  webhookPreviousSecretUntil: ts('webhook_previous_secret_until'),
  webhookDisabledAt: ts('webhook_disabled_at'),
  /** The webhook circuit: failed tries in a row (any 2xx answered in time sets it back to 0). */
  webhookFailures: integer('webhook_failures').notNull().default(0),
  /** Set while the circuit is open: the client's deliveries go through the slow lane (see docs/webhooks.md). */
  webhookSlowSince: ts('webhook_slow_since'),
  createdAt: ts('created_at').notNull().defaultNow(),
});

export const merchants = pgTable(
  'merchants',
  {
    id: text('id').primaryKey(),
    clientId: text('client_id')
      .notNull()
      .references(() => clients.id),
    status: text('status').notNull(),
    businessname: text('businessname').notNull(),
    email: text('email').notNull(),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    phonenumber: text('phonenumber').notNull(),
    website: text('website').notNull(),
    merchantKeyHash: text('merchant_key_hash').notNull(),
    merchantKeyEnc: text('merchant_key_enc').notNull(),
    publicKey: text('public_key').notNull(),
    /** Non-secret parts of the onboarding submission (secrets are removed before storing). */
    businessInfo: jsonb('business_info').notNull(),
    ownerInfo: jsonb('owner_info').notNull(),
    processingInfo: jsonb('processing_info').notNull(),
    bankName: text('bank_name').notNull(),
    routingNumber: text('routing_number').notNull(),
    accountNumberEnc: text('account_number_enc').notNull(),
    accountLast4: text('account_last4').notNull(),
    einEnc: text('ein_enc').notNull(),
    ssnEnc: text('ssn_enc').notNull(),
    /** The merchant's account at the check-deposit provider (remote deposit capture); null: none. */
    achProviderId: text('ach_provider_id'),
    /** The provider that account is with (`simulator`, or a vendor's name): it counts only while that provider is configured. */
    checkDepositProvider: text('check_deposit_provider'),
    cardFeeRateE7: integer('card_fee_rate_e7').notNull(),
    cardFeeFixedCents: integer('card_fee_fixed_cents').notNull(),
    achFeeRateE7: integer('ach_fee_rate_e7').notNull(),
    achFeeCapCents: integer('ach_fee_cap_cents').notNull(),
    maxAmountCents: cents('max_amount_cents').notNull(),
    /** Sandbox clock: how far this merchant's clock runs ahead of real time. */
    clockOffsetMs: cents('clock_offset_ms').notNull().default(0),
    joinDate: ts('join_date').notNull(),
    approvedAt: ts('approved_at'),
    /** The merchant's Stripe connected account (`acct_…`), made at onboarding with REMIT_PROCESSOR=stripe. */
    stripeAccountId: text('stripe_account_id'),
    /** SHA-256 of the token in the merchant agreement page's address (the onboarding answer and email carry it). */
    agreementTokenHash: text('agreement_token_hash'),
    /** The owner's acceptance of the merchant agreement: when, from which address and browser. */
    agreementSignedAt: ts('agreement_signed_at'),
    agreementIp: text('agreement_ip'),
    agreementUserAgent: text('agreement_user_agent'),
    /** What the processor still needs (merchants/verification.ts); null: nothing recorded, read from `status`. */
    verification: jsonb('verification').$type<AccountVerification>(),
  },
  (t) => [
    uniqueIndex('merchants_key_hash_idx').on(t.merchantKeyHash),
    uniqueIndex('merchants_stripe_account_idx').on(t.stripeAccountId),
    uniqueIndex('merchants_agreement_token_idx').on(t.agreementTokenHash),
    uniqueIndex('merchants_public_key_idx').on(t.publicKey),
    index('merchants_client_idx').on(t.clientId, t.joinDate),
  ],
);

/**
 * The version of the merchants table: one row, whose `epoch` a trigger (migration 0006) raises in
 * every statement that updates, deletes or truncates merchants, inside that statement's transaction.
 * A merchant read together with epoch e is still what the table holds for any later statement that
 * reads e: the cached merchants of merchant-cache.ts are checked against it.
 */
export const merchantEpoch = pgTable(
  'merchant_epoch',
  {
    id: boolean('id').primaryKey().default(true),
    epoch: bigint('epoch', { mode: 'number' }).notNull().default(0),
  },
  (t) => [check('merchant_epoch_one_row', sql`${t.id}`)],
);

/**
 * The encryption keys this database's sealed values may be sealed with, by fingerprint (an HMAC under
 * the key, which does not reveal it). A process that was not given every key not yet retired refuses
 * to start. `keys reseal` retires a key once nothing sealed with it is left; its MAC key, sealed with
 * the current key, stays a day so that MACs it made (idempotency fingerprints) still compare.
 */
export const keyFingerprint = pgTable('key_fingerprint', {
  fingerprint: text('fingerprint').primaryKey(),
  createdAt: ts('created_at').notNull().defaultNow(),
  retiredAt: ts('retired_at'),
  macKeyEnc: text('mac_key_enc'),
});

/** Pay links: plain links, payment requests, and customer authorization requests. */
export const payLinks = pgTable(
  'pay_links',
  {
    id: text('id').primaryKey(),
    merchantId: text('merchant_id')
      .notNull()
      .references(() => merchants.id),
    kind: text('kind').notNull(),
    status: text('status').notNull(),
    orderId: text('order_id').notNull(),
    invoiceNumber: text('invoice_number'),
    amountCents: cents('amount_cents').notNull(),
    taxCents: cents('tax_cents').notNull().default(0),
    surchargeCents: cents('surcharge_cents').notNull().default(0),
    discountCents: cents('discount_cents').notNull().default(0),
    allowCard: boolean('allow_card').notNull(),
    allowAch: boolean('allow_ach').notNull(),
    preauth: boolean('preauth').notNull().default(false),
    passFee: boolean('pass_fee').notNull().default(false),
    require3ds: boolean('require_3ds').notNull().default(false),
    isRequestCard: boolean('is_request_card').notNull().default(false),
    description: text('description'),
    customerName: text('customer_name'),
    email: text('email'),
    phoneNumber: text('phone_number'),
    customerId: integer('customer_id'),
    subMerchantKey: text('sub_merchant_key'),
    salesId: text('sales_id'),
    /** The exact origin of the merchant page that opened the link: the pay page posts its result only there. */
    embedOrigin: text('embed_origin'),
    /** Add-card links: the card stored through the link. */
    paymentMethodId: text('payment_method_id'),
    /** When the customer paid (or saved the card); the receipt's date. */
    paidAt: ts('paid_at'),
    /** Opened by the widget backend (a public key), not the merchant API. */
    viaWidget: boolean('via_widget').notNull().default(false),
    /** Past this (merchant clock) an unpaid link cannot be paid and its pending sale is removed; null: never. */
    expiresAt: ts('expires_at'),
    createdAt: ts('created_at').notNull(),
    deletedAt: ts('deleted_at'),
    /**
     * Stripe: the link's one PaymentIntent (pay links) or SetupIntent (card requests), created by
     * the server for the page to confirm with Stripe.js, and reused until it is canceled.
     */
    stripeIntentId: text('stripe_intent_id'),
  },
  (t) => [
    index('pay_links_merchant_idx').on(t.merchantId, t.createdAt),
    index('pay_links_stripe_intent_idx').on(t.stripeIntentId).where(sql`stripe_intent_id is not null`),
    uniqueIndex('pay_links_request_order_idx').on(t.merchantId, t.orderId).where(sql`kind = 'request'`),
    index('pay_links_expiry_idx').on(t.expiresAt).where(sql`status = 'open' and expires_at is not null`),
  ],
);

export const customers = pgTable(
  'customers',
  {
    id: serial('id').primaryKey(),
    merchantId: text('merchant_id')
      .notNull()
      .references(() => merchants.id),
    firstName: text('first_name').notNull(),
    lastName: text('last_name'),
    email: text('email'),
    phoneNumber: text('phone_number'),
    createdAt: ts('created_at').notNull(),
  },
  (t) => [index('customers_merchant_idx').on(t.merchantId, t.id)],
);

/** Stored cards and bank accounts. Numbers are encrypted; CVC is never stored. */
export const paymentMethods = pgTable(
  'payment_methods',
  {
    id: text('id').primaryKey(),
    customerId: integer('customer_id')
      .notNull()
      .references(() => customers.id),
    merchantId: text('merchant_id')
      .notNull()
      .references(() => merchants.id),
    type: text('type').notNull(),
    isDefault: boolean('is_default').notNull(),
    brand: text('brand'),
    last4: text('last4').notNull(),
    expMonth: smallint('exp_month'),
    expYear: smallint('exp_year'),
    numberEnc: text('number_enc').notNull(),
    routingNumber: text('routing_number'),
    accountType: text('account_type'),
    holderName: text('holder_name'),
    createdAt: ts('created_at').notNull(),
  },
  (t) => [index('payment_methods_customer_idx').on(t.customerId)],
);

export const transactions = pgTable(
  'transactions',
  {
    id: text('id').primaryKey(),
    merchantId: text('merchant_id')
      .notNull()
      .references(() => merchants.id),
    /** Sale, PreAuth, Void, Refund, Return (ACH reversal). */
    type: text('type').notNull(),
    paymentMethod: text('payment_method').notNull(),
    isStatus: smallint('is_status').notNull(),
    status: text('status').notNull(),
    amountCents: cents('amount_cents').notNull(),
    /** Preauthorizations: the amount currently held. */
    authorizedCents: cents('authorized_cents'),
    feeCents: cents('fee_cents').notNull(),
    feeRateE7: integer('fee_rate_e7').notNull(),
    netCents: cents('net_cents').notNull(),
    refundedCents: cents('refunded_cents').notNull().default(0),
    settled: boolean('settled').notNull().default(false),
    settledAt: ts('settled_at'),
    /** When it became completed (a capture or an ACH approval can come long after creation); settlement reads it. */
    completedAt: ts('completed_at'),
    linkedTxnId: text('linked_txn_id'),
    payLinkId: text('pay_link_id'),
    customerId: integer('customer_id'),
    paymentMethodId: text('payment_method_id'),
    orderId: text('order_id'),
    invoiceNumber: text('invoice_number'),
    orderCreatedfrom: text('order_createdfrom').notNull(),
    gatewayRef: text('gateway_ref'),
    authCode: text('auth_code').notNull().default(''),
    cardBrand: text('card_brand').notNull().default(''),
    lastFour: text('last_four').notNull().default(''),
    declineReason: text('decline_reason'),
    /** Remote deposit capture: the capturing device (the images are rows of check_images). */
    depositInfo: jsonb('deposit_info'),
    /** A cardholder's dispute (Stripe `charge.dispute.*`): its id, Stripe's status, and when Stripe last changed it. */
    disputeId: text('dispute_id'),
    disputeStatus: text('dispute_status'),
    disputeChangedAt: ts('dispute_changed_at'),
    createdAt: ts('created_at').notNull(),
    updatedAt: ts('updated_at').notNull(),
  },
  (t) => [
    index('transactions_merchant_created_idx').on(t.merchantId, t.createdAt, t.id),
    index('transactions_linked_idx').on(t.linkedTxnId),
    /** What reconciliation asks the processor about: processing payments, and ACH debits waiting on the bank. */
    index('transactions_processing_idx').on(t.createdAt).where(sql`is_status = 7`),
    index('transactions_ach_pending_idx')
      .on(t.updatedAt)
      .where(sql`is_status = 0 and payment_method = 'ach' and gateway_ref is not null`),
  ],
);

/** Event outbox: written in the same database transaction as the change it reports. */
export const events = pgTable(
  'events',
  {
    id: text('id').primaryKey(),
    clientId: text('client_id')
      .notNull()
      .references(() => clients.id),
    merchantId: text('merchant_id'),
    eventType: text('event_type').notNull(),
    payload: jsonb('payload').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
    /** Set when the webhook dispatcher has turned the event into a delivery (or skipped it: no URL). */
    dispatchedAt: ts('dispatched_at'),
  },
  (t) => [
    index('events_client_idx').on(t.clientId, t.createdAt),
    index('events_undispatched_idx').on(t.createdAt).where(sql`dispatched_at is null`),
    /** The retention purge takes the oldest first. */
    index('events_created_idx').on(t.createdAt),
  ],
);

/** One webhook delivery per event; `attempts` logs every try. A claim is a lease (`locked_until`). */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: text('id').primaryKey(),
    clientId: text('client_id')
      .notNull()
      .references(() => clients.id),
    eventId: text('event_id')
      .notNull()
      .references(() => events.id),
    eventType: text('event_type').notNull(),
    /** The URL of the latest attempt (the client's URL at creation until then). */
    url: text('url').notNull(),
    /** pending, retrying, delivered, failed, disabled (URL disabled by a 410; resumes on re-registration). */
    status: text('status').notNull(),
    /** Tries since creation or the last manual retry: picks the next retry delay. */
    tries: integer('tries').notNull().default(0),
    attempts: jsonb('attempts').notNull().default(sql`'[]'::jsonb`),
    nextAttemptAt: ts('next_attempt_at').notNull().defaultNow(),
    lockedUntil: ts('locked_until'),
    leaseId: text('lease_id'),
    createdAt: ts('created_at').notNull().defaultNow(),
    deliveredAt: ts('delivered_at'),
  },
  (t) => [
    uniqueIndex('webhook_deliveries_event_idx').on(t.eventId),
    index('webhook_deliveries_client_idx').on(t.clientId, t.createdAt),
    index('webhook_deliveries_due_idx').on(t.nextAttemptAt).where(sql`status in ('pending', 'retrying')`),
    /** The claim's shares: each client's oldest due first, and the clients with any to send (claimDueQuery). */
    index('webhook_deliveries_client_due_idx')
      .on(t.clientId, t.nextAttemptAt, t.id)
      .where(sql`status in ('pending', 'retrying')`),
  ],
);

/** Message outbox: SMS and email to customers, delivered by the messages dispatcher. */
export const messages = pgTable(
  'messages',
  {
    id: text('id').primaryKey(),
    merchantId: text('merchant_id')
      .notNull()
      .references(() => merchants.id),
    channel: text('channel').notNull(),
    recipient: text('recipient').notNull(),
    subject: text('subject'),
    bodyText: text('body_text').notNull(),
    bodyHtml: text('body_html'),
    payLinkId: text('pay_link_id'),
    status: text('status').notNull(),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: ts('next_attempt_at').notNull().defaultNow(),
    lastError: text('last_error'),
    createdAt: ts('created_at').notNull().defaultNow(),
    sentAt: ts('sent_at'),
    /** The provider's id for it (Twilio's `SM…` sid): its delivery status callbacks name it. */
    providerId: text('provider_id'),
    /** Lease of the dispatcher sending it; a killed sender's lease runs out and the message is due again. */
    lockedUntil: ts('locked_until'),
    leaseId: text('lease_id'),
  },
  (t) => [index('messages_due_idx').on(t.status, t.nextAttemptAt), index('messages_provider_id_idx').on(t.providerId)],
);

/**
 * A merchant's widget settings (docs/embedding.md), one row per merchant, made lazily.
 * The pay page reads its branding and `frame-ancestors` from here.
 */
export const widgets = pgTable(
  'widgets',
  {
    id: text('id').primaryKey(),
    merchantId: text('merchant_id')
      .notNull()
      .references(() => merchants.id),
    /** Exact origins (`scheme://host[:port]`) allowed to embed the widgets and the pay page. */
    allowedOrigins: jsonb('allowed_origins').$type<string[]>().notNull().default(sql`'[]'::jsonb`),
    buttonText: text('button_text').notNull(),
    /** `#rrggbb`. */
    primaryColor: text('primary_color'),
    /** `{theme, variables}` as set with PUT /widgets/{id} (checked readable then); null: the default theme. */
    appearance: jsonb('appearance').$type<Appearance>(),
    logoUrl: text('logo_url'),
    requestPaymentEnabled: boolean('request_payment_enabled').notNull().default(true),
    /** Off unless set: production widgets start with it off, sandbox ones on (widgetFor). */
    completedTransactionsEnabled: boolean('completed_transactions_enabled').notNull().default(false),
    /** Which sales the completed-transactions widget lists (WIDGET_TRANSACTIONS_SCOPES). */
    completedTransactionsScope: text('completed_transactions_scope').notNull().default('widget'),
    /** ISO 3166 alpha-2 countries the request payment widget may text. */
    smsCountries: jsonb('sms_countries').$type<string[]>().notNull().default(sql`'["US","CA"]'::jsonb`),
    /** Largest amount a widget may ask for; null: the merchant's own limit. */
    maxAmountCents: cents('max_amount_cents'),
    createdAt: ts('created_at').notNull(),
    updatedAt: ts('updated_at').notNull(),
  },
  (t) => [uniqueIndex('widgets_merchant_idx').on(t.merchantId)],
);

/**
 * A 3-D Secure challenge of a pay attempt: the card waits here, encrypted and without its CVC,
 * until the customer completes (then it is charged) or fails the challenge.
 */
export const payChallenges = pgTable(
  'pay_challenges',
  {
    id: text('id').primaryKey(),
    payLinkId: text('pay_link_id')
      .notNull()
      .references(() => payLinks.id),
    /** open, completed, failed. */
    status: text('status').notNull(),
    /** Encrypted JSON of the card (number, expiry, name, zip). */
    cardEnc: text('card_enc').notNull(),
    brand: text('brand').notNull(),
    lastFour: text('last_four').notNull(),
    /**
     * The processor's payment waiting on its own challenge page (Stripe's 3-D Secure): no card is
     * kept then, and the outcome is asked of the processor. Null for the simulator's challenge.
     */
    gatewayRef: text('gateway_ref'),
    createdAt: ts('created_at').notNull(),
    answeredAt: ts('answered_at'),
  },
  (t) => [index('pay_challenges_link_idx').on(t.payLinkId), index('pay_challenges_created_idx').on(t.createdAt)],
);

/** The ACH debit authorization a customer accepted on the pay page: when, from which address and browser. */
export const achMandates = pgTable('ach_mandates', {
  transactionId: text('transaction_id').primaryKey(),
  payLinkId: text('pay_link_id').notNull(),
  acceptedAt: ts('accepted_at').notNull(),
  ipAddress: text('ip_address').notNull(),
  userAgent: text('user_agent').notNull(),
});

/**
 * Processor calls whose answer never came, inside a money operation recorded as done (capture,
 * cancel, refund): reconciliation sends each again with its idempotency key until the processor
 * answers (processor/deferred.ts). `refused`: the processor definitely refused it; an operator must look.
 */
export const processorCalls = pgTable(
  'processor_calls',
  {
    id: text('id').primaryKey(),
    kind: text('kind').notNull(),
    gatewayRef: text('gateway_ref').notNull(),
    amountCents: cents('amount_cents'),
    reference: text('reference'),
    applicationFeeCents: cents('application_fee_cents'),
    returnFee: boolean('return_fee').notNull().default(false),
    idempotencyKey: text('idempotency_key').notNull(),
    /** unconfirmed, confirmed, refused. */
    status: text('status').notNull(),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    createdAt: ts('created_at').notNull(),
    settledAt: ts('settled_at'),
  },
  (t) => [index('processor_calls_unconfirmed_idx').on(t.createdAt).where(sql`status = 'unconfirmed'`)],
);

/**
 * PaymentIntents that took money for no payment Remit could record (a link already paid,
 * deleted or expired): refunded (or, held, canceled) at once and kept here for reconciliation's
 * listing, one row per PaymentIntent.
 */
export const processorOrphans = pgTable('processor_orphans', {
  gatewayRef: text('gateway_ref').primaryKey(),
  payLinkId: text('pay_link_id'),
  amountCents: cents('amount_cents').notNull(),
  /** refunded, canceled, or failed (the refund was refused: an operator must look). */
  action: text('action').notNull(),
  reason: text('reason').notNull(),
  createdAt: ts('created_at').notNull(),
});

/** Stored responses for `Idempotency-Key`, replayed for 24 hours. */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    clientId: text('client_id').notNull(),
    key: text('key').notNull(),
    requestHash: text('request_hash').notNull(),
    statusCode: integer('status_code').notNull(),
    responseBody: text('response_body').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.clientId, t.key] }), index('idempotency_keys_created_idx').on(t.createdAt)],
);

/**
 * How many transactions each merchant has per UTC day, kept by a trigger on `transactions`, so the
 * list's `total` is a sum over days instead of a count over every row. Each day is split over 16
 * shards that inserts pick at random, so concurrent payments of one merchant rarely wait on one row.
 */
export const transactionCounts = pgTable(
  'transaction_counts',
  {
    merchantId: text('merchant_id').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    shard: smallint('shard').notNull(),
    n: cents('n').notNull(),
  },
  (t) => [primaryKey({ columns: [t.merchantId, t.day, t.shard] })],
);

/**
 * How many transactions each merchant has per UTC minute, kept by the same trigger, so a deep page
 * of the list starts in its minute, not only its day. A minute has one row until concurrent inserts
 * find it locked; each of those adds a row (`shard` a random number), so none waits on another.
 */
export const transactionMinuteCounts = pgTable(
  'transaction_minute_counts',
  {
    merchantId: text('merchant_id').notNull(),
    minute: ts('minute').notNull(),
    shard: integer('shard').notNull(),
    n: cents('n').notNull(),
  },
  (t) => [primaryKey({ columns: [t.merchantId, t.minute, t.shard] })],
);

/**
 * Rate-limit counters, one row per rule and key (`auth_fail_client:cl_…`); a window opens at a key's first hit.
 * Kept in the database so every server process on one Postgres counts against the same numbers.
 */
/** `POST /merchant/verification-link`: addresses that open a fresh Stripe Account Link at each visit. */
export const verificationLinks = pgTable(
  'verification_links',
  {
    /** SHA-256 of the token in the address: the token is a credential, never stored. */
    tokenHash: text('token_hash').primaryKey(),
    merchantId: text('merchant_id')
      .notNull()
      .references(() => merchants.id),
    /** The platform's page the merchant continues to after the return page; null: none. */
    returnUrl: text('return_url'),
    expiresAt: ts('expires_at').notNull(),
    createdAt: ts('created_at').notNull(),
  },
  (t) => [index('verification_links_merchant_idx').on(t.merchantId)],
);

export const rateLimits = pgTable(
  'rate_limits',
  {
    key: text('key').primaryKey(),
    /** When the current window opened (its first hit), milliseconds since the epoch (database clock). */
    windowStartMs: bigint('window_start_ms', { mode: 'number' }).notNull(),
    hits: integer('hits').notNull(),
    /** When the row may be swept: the end of its window. */
    expiresAt: ts('expires_at').notNull(),
  },
  (t) => [index('rate_limits_expires_idx').on(t.expiresAt)],
);

/**
 * Sandbox portal sessions. Only a SHA-256 digest of the cookie's token is kept, so a copy of the
 * table signs no one in. Ended sessions are deleted; expired ones are refused and swept at sign-in.
 */
export const portalSessions = pgTable(
  'portal_sessions',
  {
    tokenHash: text('token_hash').primaryKey(),
    clientId: text('client_id')
      .notNull()
      .references(() => clients.id),
    createdAt: ts('created_at').notNull(),
    lastSeenAt: ts('last_seen_at').notNull(),
    expiresAt: ts('expires_at').notNull(),
  },
  (t) => [index('portal_sessions_client_idx').on(t.clientId), index('portal_sessions_expires_idx').on(t.expiresAt)],
);

const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (v) => (Buffer.isBuffer(v) ? v : Buffer.from(v)),
});

/**
 * The images of a deposited check, in the database so that every server reads them and a backup
 * holds them (at most MAX_CHECK_IMAGE_BYTES each); deleted with their transaction.
 */
export const checkImages = pgTable(
  'check_images',
  {
    transactionId: text('transaction_id')
      .notNull()
      .references(() => transactions.id, { onDelete: 'cascade' }),
    side: text('side').notNull().$type<'front' | 'back'>(),
    contentType: text('content_type').notNull(),
    data: bytea('data').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.transactionId, t.side] }),
    check('check_images_side', sql`${t.side} in ('front', 'back')`),
    check('check_images_size', sql`octet_length(${t.data}) <= 10485760`),
  ],
);

/**
 * Content-Security-Policy violations a merchant's page reported (`POST /csp-reports/{public_key}`),
 * kept for REMIT_RETENTION_CSP_REPORTS_DAYS. `notified` marks the report a `merchant.csp_violation`
 * webhook went out for: at most one per blocked address and merchant an hour.
 */
export const cspReports = pgTable(
  'csp_reports',
  {
    id: text('id').primaryKey(),
    merchantId: text('merchant_id')
      .notNull()
      .references(() => merchants.id),
    blockedUri: text('blocked_uri').notNull(),
    directive: text('directive').notNull(),
    documentUri: text('document_uri').notNull(),
    disposition: text('disposition').notNull(),
    /** Remit's own script or frame was blocked. */
    remitResource: boolean('remit_resource').notNull(),
    notified: boolean('notified').notNull().default(false),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    index('csp_reports_merchant_idx').on(t.merchantId, t.createdAt),
    index('csp_reports_blocked_idx').on(t.merchantId, t.blockedUri, t.createdAt),
    index('csp_reports_created_idx').on(t.createdAt),
  ],
);
