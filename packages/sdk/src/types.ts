/**
 * Request and response shapes of the Remit API, with the spec's exact field names (their case
 * included: `preAuth` on charge, `preauth` elsewhere). Where the API accepts a number or text,
 * both are allowed here; responses are typed exactly as the server sends them.
 */

/** Decimal amount: text like "12.50" or a number with at most two decimals. */
export type AmountInput = string | number;
/** A whole number as a number or numeric text. */
export type IntInput = number | string;
/** true/false; form-style "true"/"false" text is accepted by the server too. */
export type FlagInput = boolean | 'true' | 'false';

/** `{result: true, message, data}`: the standard success envelope. */
export interface Envelope<T> {
  result: true;
  message: string;
  data: T;
}

/** Webhook-management and sandbox-approval endpoints answer `status` instead of `result`. */
export interface StatusEnvelope {
  status: true;
  message: string;
}

export interface MessageEnvelope {
  result: true;
  message: string;
}

/** Error envelope of every failure. */
export interface ErrorBody {
  result?: false;
  status?: false;
  message: string;
  code: string;
  errors?: FieldError[];
  request_id: string;
  [extra: string]: unknown;
}

export interface FieldError {
  path: string;
  message: string;
}

/** Per-call options. */
export interface CallOptions {
  /** Sent as `Idempotency-Key` (POST only): the first response is replayed for 24 hours. */
  idempotencyKey?: string;
  /** Extra headers, e.g. `api_key` on the customer authorization request. */
  headers?: Record<string, string>;
  timeoutMs?: number;
}

// ── Merchants ──────────────────────────────────────────────────────────────

export interface BankingInfo {
  account_number: string;
  bank_name: string;
  routing_number: string;
}

export interface BusinessInfo {
  business_address: string;
  business_city: string;
  business_country: string;
  business_email: string;
  business_industry: string;
  business_name: string;
  business_phone: string;
  business_state: string;
  business_zip: string;
  dba: string;
  ein: string;
  established_date: string;
  ownershiptype: string;
  website: string;
}

export interface OwnerInfo {
  address: string;
  b_dl_number: string;
  b_title: string;
  city: string;
  country: string;
  date_of_birth: string;
  email: string;
  first_name: string;
  last_name: string;
  ownership_percent: string;
  phone: string;
  ssn: string;
  state: string;
  zip: string;
}

export interface ProcessingInfo {
  annualCCSales: string;
  avgTicket: string;
  legal_b2b: string;
  legal_b2c: string;
  legal_cnpinternet: string;
  legal_cnpphoneemail: string;
  legal_cp: string;
  legal_percentdeliveredover30days: string;
  legal_percentdeliveredsameday: string;
  legal_productssold: string;
  /** Spelled exactly so in the spec. */
  percentdelievered7days: string;
  percentdelivered14days: string;
  processing_environment: string;
}

export interface OnboardingRequest {
  BankingInfo: BankingInfo;
  BusinessInfo: BusinessInfo;
  OwnerInfo: OwnerInfo;
  ProcessingInfo: ProcessingInfo;
}

export interface OnboardingResult {
  businessname: string;
  email: string;
  merchant_key: string;
  public_key: string;
}

export interface Merchant {
  businessname: string;
  email: string;
  first_name: string;
  last_name: string;
  join_date: string;
  merchant_id: string;
  phonenumber: string;
  public_data: { public_key: string };
  website: string;
  /** `pending` after onboarding, `approved` after approval. */
  status?: string;
}

/** The owner call `GET /merchant/{merchant_id}` also returns the merchant_key. */
export interface MerchantWithKey extends Merchant {
  merchant_key: string;
}

// ── Pay links and payment requests ────────────────────────────────────────

export interface PayLinkRequest {
  merchant_key: string;
  amount: AmountInput;
  order_id?: string;
  invoice_number?: string;
  allow_card?: FlagInput;
  allow_ach?: FlagInput;
}

export interface PayLinkResult {
  order_id: string;
  payment_link: string;
  sales_id: string;
}

export interface DeletePayLinkResult {
  result: true;
  link_id: string;
  message: string;
}

export interface PaymentRequestRequest {
  merchant_key: string;
  amount: AmountInput;
  order_id: string;
  phone_number?: string;
  email?: string;
  name?: string;
  preauth?: FlagInput;
  pass_fee?: FlagInput;
  require_3ds?: FlagInput;
  allow_card?: FlagInput;
  allow_ach?: FlagInput;
  invoice_number?: string;
  sub_merchant_key?: string;
  discount?: AmountInput;
  surcharge?: AmountInput;
  tax?: AmountInput;
  description?: string;
}

export interface PaymentRequestResult {
  order_id: string;
  link_id: string;
  pay_link: string;
}

/** The authorization request to a stored customer (`POST /requests/{customerId}`). */
export interface CustomerRequestRequest {
  merchant_key: string;
  amount: AmountInput;
  order_id: string;
  isRequestCard?: FlagInput;
  preauth?: FlagInput;
  invoice_number?: string;
  allow_card?: FlagInput;
  allow_ach?: FlagInput;
}

export interface CustomerRequestResult {
  order_id: string;
  link_id: string;
  pay_link: string;
  sales_id: string;
}

// ── Customers ─────────────────────────────────────────────────────────────

/** Raw card details: accepted by the API in sandbox only. */
export interface CardDetails {
  number: string;
  exp_month: IntInput;
  exp_year: IntInput;
  cvc: string;
  zip?: string;
}

/** Raw bank account details: accepted by the API in sandbox only. */
export interface BankAccountDetails {
  routing_number: string;
  account_number: string;
  account_type?: 'checking' | 'savings';
  holder_name?: string;
}

export interface AddCustomerRequest {
  merchant_key: string;
  first_name: string;
  last_name?: string;
  email?: string;
  phone_number?: string;
  card?: CardDetails;
  bank_account?: BankAccountDetails;
}

export interface AddCustomerResult {
  customer_id: number;
  /** '' when none. */
  customer_email: string;
  /** E.164; '' when none. */
  customer_phone: string;
}

export interface ListCustomersRequest {
  merchant_key: string;
  /** Zero-based. */
  page?: IntInput;
  perPage?: IntInput;
}

/** A stored payment method as the API shows it: numbers are never returned. */
export interface PaymentMethodSummary {
  type: 'card' | 'bank_account';
  /** '' for a bank account. */
  brand: string;
  last_four: string;
  exp_month: number | null;
  exp_year: number | null;
  /** checking or savings; null for a card. */
  account_type: string | null;
  is_default: boolean;
}

/** A stored customer ('' for text fields not given). */
export interface Customer {
  customer_id: number;
  first_name: string;
  last_name: string;
  email: string;
  /** E.164. */
  phone_number: string;
  created_date: string;
  /** Default first. */
  payment_methods: PaymentMethodSummary[];
}

export interface CustomerList {
  allList: Customer[];
  page: number;
  perPage: number;
  totalCount: number;
  totalPage: number;
}

export interface ChargeRequest {
  merchant_key: string;
  amount: AmountInput;
  order_id: string;
  /** Listed as required by the spec; absent means false. */
  preAuth?: FlagInput;
}

/** `data` of the charge response. */
export interface ChargeData {
  transaction_id: string;
  amount: string;
  status: string;
  is_status: number;
  type: string;
  payment_method: string;
  auth_code: string;
  card_brand: string;
  last_four: string;
  fee_amount: number;
  fee_percentage: string;
  net_amount: number;
  order_id: string;
  customer_id: number;
  created_date: string;
  [field: string]: unknown;
}

export interface ChargeResult {
  result: true;
  message: string;
  transaction_id: string;
  data: ChargeData;
}

// ── Transactions ──────────────────────────────────────────────────────────

export interface ListTransactionsRequest {
  merchant_key: string;
  /** `YYYY-MM-DD`, inclusive, UTC. */
  from_date?: string;
  to_date?: string;
  /** 1 to 100, default 20. */
  limit?: IntInput;
  /** Zero-based. */
  pageNumber?: IntInput;
}

/** Fields DESIGN.md adds to both transaction shapes. */
export interface TransactionExtras {
  status: string;
  /** 0 pending, 1 authorized, 2 completed, 3 declined, 4 voided, 5 fully refunded, 6 returned. */
  is_status: number;
  /** Sale, PreAuth, Void, Refund, Return. */
  type: string;
  payment_method: string;
  settled: boolean;
  order_id: string;
}

export interface TransactionListItem extends TransactionExtras {
  transaction_id: string;
  amount: string;
  created_date: string;
  fee_percentage: string;
  net_amount: number;
  other_details: { auth_code: string; card_brand: string; last_four: string };
}

export interface TransactionList {
  result: true;
  message: string;
  data: TransactionListItem[];
  /** Count of all matching transactions, not just this page. */
  total: number;
}

export interface Transaction extends TransactionExtras {
  transaction_id: string;
  amount: string;
  transaction_date: string;
  fee_percentage: string;
  net_amount: number;
  other_details: { authcode: string; cardType: string; lastFourDigits: string };
}

// ── Voids, refunds, preauthorizations ────────────────────────────────────

export interface VoidRequest {
  merchant_key: string;
  transaction_id: string;
  sub_merchant_key?: string;
  amount?: AmountInput;
}

export interface RefundRequest {
  merchant_key: string;
  transaction_id: string;
  amount: AmountInput;
  sub_merchant_key?: string;
}

export interface VoidRefundRecord {
  sales_id: string;
  transaction_id: string;
  order_createdfrom: string;
  amount: number;
  txn_id: string;
  txn_date: string;
  linked_txn_id: string;
  Status: string;
  type: 'Void' | 'Refund';
}

export interface PreauthUpdateRequest {
  merchant_key: string;
  /** Always the original preauthorization id. */
  transaction_id: string;
  last_authorized_amount: AmountInput;
  new_authorized_amount: AmountInput;
  order_id?: string;
}

export interface PreauthUpdateResult {
  Status: string;
  Account: string;
  Brand: string;
  AuthCode: string;
  Authorized: string;
  transaction_id: string;
  orderid: string;
}

export interface PreauthCaptureRequest {
  merchant_key: string;
  transaction_id: string;
}

export interface PreauthCaptureResult {
  Status: string;
  Account: string;
  Brand: string;
  AuthCode: string;
  amount: string;
  Authorized: number;
  orderid: string;
  transaction_id: string;
  net_amount: number;
}

export interface PreauthVoidRequest {
  merchant_key: string;
  transaction_id: string;
}

// ── ACH, deposits ─────────────────────────────────────────────────────────

export interface UpdateAchRequest {
  merchant_key: string;
  transaction_id: string;
  new_status: 'approved' | 'declined';
}

/** A file part: bytes with an optional name and content type, or a Blob. */
export type FilePart = Blob | { data: Uint8Array | ArrayBuffer; filename?: string; contentType?: string };

export interface RemoteDepositRequest {
  merchant_key: string;
  amount: AmountInput;
  /** Device OS name. */
  device: string;
  front_file: FilePart;
  back_file: FilePart;
}

export interface RemoteDepositResult {
  transactionId: string;
  amount: string;
}

// ── Webhooks and sandbox ──────────────────────────────────────────────────

export interface UpdateWebhooksUrlRequest {
  webhook_url: string;
}

export interface UpdateWebhooksUrlResult extends StatusEnvelope {
  /** Standard Webhooks signing secret (`whsec_…`). */
  signing_secret?: string;
}

export interface ListDeliveriesRequest {
  event_type?: string;
  status?: string;
  page?: IntInput;
  limit?: IntInput;
}

export interface WebhookDeliveryAttempt {
  at: string;
  status_code: number | null;
  latency_ms: number;
  error: string | null;
}

export interface WebhookDelivery {
  id: string;
  event_id: string;
  event_type: string;
  url: string;
  status: string;
  attempts: WebhookDeliveryAttempt[];
  next_attempt_at: string | null;
  created_at: string;
  delivered_at: string | null;
}

export interface WebhookDeliveryPage {
  status: true;
  message: string;
  data: { deliveries: WebhookDelivery[]; page: number; limit: number; totalCount: number; totalPage: number };
}

export interface AdvanceClockRequest {
  merchant_key: string;
  hours: number;
}

export interface AdvanceClockResult {
  merchant_id: string;
  /** The merchant's sandbox time now (ISO 8601). */
  clock: string;
  offset_hours: number;
}

export interface SettleRequest {
  merchant_key: string;
}

export interface SettleResult {
  merchant_id: string;
  settled_count: number;
  transaction_ids: string[];
  settled_at: string;
}

export interface ListSandboxMessagesRequest {
  merchant_key?: string;
  recipient?: string;
  channel?: 'sms' | 'email';
  /** One-based. */
  page?: IntInput;
  limit?: IntInput;
}

/** An SMS or email kept in the sandbox inbox instead of being sent. */
export interface SandboxMessage {
  id: string;
  merchant_id: string;
  channel: string;
  recipient: string;
  subject: string | null;
  body_text: string;
  body_html: string | null;
  pay_link_id: string | null;
  status: string;
  attempts: number;
  last_error: string | null;
  next_attempt_at: string | null;
  created_at: string;
  sent_at: string | null;
}

export interface SandboxMessagePage {
  messages: SandboxMessage[];
  page: number;
  limit: number;
  totalCount: number;
  totalPage: number;
}
