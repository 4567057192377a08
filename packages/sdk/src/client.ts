import type * as T from '@remit/contract';
import { basicAuth, call, type Answer, type Fetch } from './transport.js';

export interface RemitOptions {
  /** The server's address, with or without the `/api/v1` suffix (e.g. `http://127.0.0.1:8080`). */
  baseUrl: string;
  clientId: string;
  secretKey: string;
  /** Default time-out of each call (30 s). */
  timeoutMs?: number;
  /** Another `fetch` (a proxy agent, a test double); the global one by default. */
  fetch?: Fetch;
}

/** Per-call options. */
export interface CallOptions {
  /** Sent as `Idempotency-Key` (POST only): the first response is replayed for 24 hours. */
  idempotencyKey?: string;
  /** Extra headers, e.g. `api_key` on the customer authorization request. */
  headers?: Record<string, string>;
  timeoutMs?: number;
}

/** A file part: bytes with an optional name and content type, or a Blob. */
export type FilePart = Blob | { data: Uint8Array | ArrayBuffer; filename?: string; contentType?: string };

/** `POST /merchant/remote_deposit_capture`: the text parts and the check's two images. */
export interface RemoteDepositRequest {
  merchant_key: string;
  amount: string | number;
  /** Device OS name. */
  device: string;
  front_file: FilePart;
  back_file: FilePart;
}

/**
 * A failed call: the HTTP status and the server's error envelope. `code` is the stable machine
 * code to switch on; `errors` names the fields at fault.
 */
export class RemitApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly errors: T.FieldError[];
  readonly request_id: string;
  /** The whole error body, for fields a particular endpoint adds (e.g. `link_id`). */
  readonly body: unknown;

  constructor(status: number, body: Partial<T.ErrorEnvelope> | undefined, fallbackText = '') {
    const message = typeof body?.message === 'string' ? body.message : fallbackText || `HTTP ${status}`;
    super(message);
    this.name = 'RemitApiError';
    this.status = status;
    this.code = typeof body?.code === 'string' ? body.code : status >= 500 ? 'server_error' : 'invalid_response';
    this.errors = Array.isArray(body?.errors) ? body.errors : [];
    this.request_id = typeof body?.request_id === 'string' ? body.request_id : '';
    this.body = body;
  }
}

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

const seg = (v: string | number) => encodeURIComponent(String(v));

/**
 * Typed client of the Remit API. One method per endpoint; each returns the server's success
 * body as is (envelope included) and throws `RemitApiError` on any failure.
 *
 * @example
 * const remit = new Remit({ baseUrl: 'http://127.0.0.1:8080', clientId, secretKey });
 * const { data } = await remit.transactions.list({ merchant_key, limit: 50 });
 */
export class Remit {
  readonly #origin: string;
  readonly #auth: string;
  readonly #timeoutMs: number | undefined;
  readonly #fetch: Fetch;

  constructor(opts: RemitOptions) {
    if (!opts?.baseUrl || !opts.clientId || !opts.secretKey) {
      throw new TypeError('Remit needs baseUrl, clientId and secretKey.');
    }
    this.#origin = opts.baseUrl.replace(/\/+$/, '').replace(/\/api\/v1$/, '');
    this.#auth = basicAuth(opts.clientId, opts.secretKey);
    this.#timeoutMs = opts.timeoutMs;
    this.#fetch = opts.fetch ?? ((input, init) => globalThis.fetch(input, init));
  }

  /**
   * Any call; the typed methods below go through here. `path` starts at the server root. GET
   * parameters go in the query string, others in a JSON body.
   */
  async request<R>(
    method: Method,
    path: string,
    params?: unknown,
    opts: CallOptions = {},
    form?: FormData,
  ): Promise<R> {
    // No user-agent: browsers refuse to set it; the server needs none.
    const headers: Record<string, string> = { authorization: this.#auth, ...opts.headers };
    if (opts.idempotencyKey !== undefined) headers['idempotency-key'] = opts.idempotencyKey;
    const res = await call(this.#fetch, {
      method,
      url: `${this.#origin}${path}`,
      headers,
      params,
      form,
      timeoutMs: opts.timeoutMs ?? this.#timeoutMs ?? 30_000,
    });
    return unwrap<R>(res);
  }

  // ── Merchants ────────────────────────────────────────────────────────────

  /** `POST /onboarding`: the merchant starts pending. */
  onboarding(body: T.OnboardingRequest, opts?: CallOptions) {
    return this.request<T.Envelope<T.OnboardingResult>>('POST', '/api/v1/onboarding', body, opts);
  }

  readonly merchants = {
    /** `GET /merchant`. */
    list: (opts?: CallOptions) =>
      this.request<T.Envelope<T.MerchantView[]>>('GET', '/api/v1/merchant', undefined, opts),
    /** `GET /merchant/{merchant_id}`: the owner call, which includes the merchant_key. */
    get: (merchantId: string, opts?: CallOptions) =>
      this.request<T.Envelope<T.MerchantWithKey>>('GET', `/api/v1/merchant/${seg(merchantId)}`, undefined, opts),
  };

  /** `POST /approve-merchant` (sandbox only). */
  approveMerchant(body: { merchant_id: string }, opts?: CallOptions) {
    return this.request<T.StatusEnvelope>('POST', '/api/v1/approve-merchant', body, opts);
  }

  // ── Pay links and payment requests ──────────────────────────────────────

  readonly payLinks = {
    /** `POST /pay-link`. */
    create: (body: T.PayLinkRequest, opts?: CallOptions) =>
      this.request<T.Envelope<T.PayLinkResult>>('POST', '/api/v1/pay-link', body, opts),
    /** `DELETE /pay-link/{linkId}`. */
    delete: (linkId: string, body: { merchant_key: string }, opts?: CallOptions) =>
      this.request<T.DeletePayLinkResult>('DELETE', `/api/v1/pay-link/${seg(linkId)}`, body, opts),
  };

  readonly requests = {
    /** `POST /requests`: a payment request and its pay link, optionally sent by SMS/email. */
    create: (body: T.PaymentRequestRequest, opts?: CallOptions) =>
      this.request<T.Envelope<T.PaymentRequestResult>>('POST', '/api/v1/requests', body, opts),
    /** `POST /requests/{customerId}`: the authorization request to a stored customer. */
    createForCustomer: (customerId: string | number, body: T.CustomerRequestRequest, opts?: CallOptions) =>
      this.request<T.Envelope<T.CustomerRequestResult>>('POST', `/api/v1/requests/${seg(customerId)}`, body, opts),
  };

  // ── Customers ───────────────────────────────────────────────────────────

  readonly customers = {
    /** `POST /customers/add`. */
    add: (body: T.AddCustomerRequest, opts?: CallOptions) =>
      this.request<T.Envelope<T.AddCustomerResult>>('POST', '/api/v1/customers/add', body, opts),
    /** `GET /customers` (parameters in a JSON body). */
    list: (params: T.ListCustomersRequest, opts?: CallOptions) =>
      this.request<T.Envelope<T.CustomerList>>('GET', '/api/v1/customers', params, opts),
    /** `GET /customers/{customerId}`. */
    get: (customerId: string | number, params: { merchant_key: string }, opts?: CallOptions) =>
      this.request<T.Envelope<T.Customer>>('GET', `/api/v1/customers/${seg(customerId)}`, params, opts),
    /** `POST /customers/request-card/{customerId}`. */
    requestCard: (customerId: string | number, body: { merchant_key: string }, opts?: CallOptions) =>
      this.request<T.MessageEnvelope>('POST', `/api/v1/customers/request-card/${seg(customerId)}`, body, opts),
    /** `POST /customers/charge/{customerId}`: charges the default payment method (or preauthorizes). */
    charge: (customerId: string | number, body: T.ChargeRequest, opts?: CallOptions) =>
      this.request<T.ChargeResult>('POST', `/api/v1/customers/charge/${seg(customerId)}`, body, opts),
  };

  // ── Transactions ────────────────────────────────────────────────────────

  readonly transactions = {
    /** `GET /merchant/transactions`: newest first; `total` counts every match. */
    list: (params: T.ListTransactionsRequest, opts?: CallOptions) =>
      this.request<T.TransactionList>('GET', '/api/v1/merchant/transactions', params, opts),
    /**
     * Every transaction that matches, newest first, page after page by key (`starting_after`, Remit's
     * extension): each page costs what the first does, and a sale made meanwhile never shifts a later
     * page (it is newer than every key). `pageNumber` is not taken; `limit` is the page size.
     *
     * @example
     * for await (const t of remit.transactions.iterate({ merchant_key, from_date: '2026-01-01' })) console.log(t.transaction_id);
     */
    iterate: (
      params: Omit<T.ListTransactionsRequest, 'pageNumber' | 'starting_after'>,
      opts?: CallOptions,
    ): AsyncIterable<T.TransactionListItem> => {
      const list = this.transactions.list;
      return {
        async *[Symbol.asyncIterator]() {
          let after: string | undefined;
          for (;;) {
            const page = await list(after === undefined ? params : { ...params, starting_after: after }, opts);
            yield* page.data;
            const last = page.data.at(-1);
            if (!last) return;
            after = last.transaction_id;
          }
        },
      };
    },
    /** `GET /merchant/transactions/{transaction_id}`: `data` is an array holding the one transaction. */
    get: (transactionId: string, params: { merchant_key: string }, opts?: CallOptions) =>
      this.request<T.Envelope<T.TransactionDetail[]>>(
        'GET',
        `/api/v1/merchant/transactions/${seg(transactionId)}`,
        params,
        opts,
      ),
  };

  // ── Voids, refunds, preauthorizations ──────────────────────────────────

  readonly voids = {
    /** `POST /order/sales-void`: voids an unsettled transaction. */
    create: (body: T.VoidRequest, opts?: CallOptions) =>
      this.request<T.Envelope<T.MoneyRecord>>('POST', '/api/v1/order/sales-void', body, opts),
  };

  readonly refunds = {
    /** `POST /order/sales-return`: full or partial refund (a full refund after 24 h becomes a void). */
    create: (body: T.RefundRequest, opts?: CallOptions) =>
      this.request<T.Envelope<T.MoneyRecord>>('POST', '/api/v1/order/sales-return', body, opts),
  };

  readonly preauth = {
    /** `POST /preauth/update`: increment or decrement the authorized amount. */
    update: (body: T.PreauthUpdateRequest, opts?: CallOptions) =>
      this.request<T.Envelope<T.PreauthUpdateResult>>('POST', '/api/v1/preauth/update', body, opts),
    /** `POST /preauth/capture`. */
    capture: (body: T.PreauthIdRequest, opts?: CallOptions) =>
      this.request<T.Envelope<T.PreauthCaptureResult>>('POST', '/api/v1/preauth/capture', body, opts),
    /** `POST /preauth/void`: releases the hold; answers a void record. */
    void: (body: T.PreauthIdRequest, opts?: CallOptions) =>
      this.request<T.Envelope<T.MoneyRecord>>('POST', '/api/v1/preauth/void', body, opts),
  };

  // ── ACH, deposits, webhooks ─────────────────────────────────────────────

  /** `POST /update-ach` (sandbox only): approve or decline an ACH transaction. */
  updateAch(body: T.UpdateAchRequest, opts?: CallOptions) {
    return this.request<T.MessageEnvelope>('POST', '/api/v1/update-ach', body, opts);
  }

  /** `POST /merchant/remote_deposit_capture`: multipart with the check's two images. */
  remoteDepositCapture(body: RemoteDepositRequest, opts?: CallOptions) {
    const form = new FormData();
    form.append('amount', String(body.amount));
    form.append('merchant_key', body.merchant_key);
    form.append('device', body.device);
    form.append('front_file', ...filePart(body.front_file, 'front.jpg'));
    form.append('back_file', ...filePart(body.back_file, 'back.jpg'));
    return this.request<T.Envelope<T.RemoteDepositResult>>(
      'POST',
      '/api/v1/merchant/remote_deposit_capture',
      undefined,
      opts,
      form,
    );
  }

  /** `POST /client/update-webhooks-url`: replaces the client's webhook URL. */
  updateWebhooksUrl(body: T.UpdateWebhooksUrlRequest, opts?: CallOptions) {
    return this.request<T.UpdateWebhooksUrlResult>('POST', '/api/v1/client/update-webhooks-url', body, opts);
  }

  readonly webhooks = {
    /** `GET /client/webhook-deliveries`: the delivery log, newest first. */
    deliveries: (params: T.ListDeliveriesRequest = {}, opts?: CallOptions) =>
      this.request<T.WebhookDeliveryPage>('GET', '/api/v1/client/webhook-deliveries', params, opts),
    /** `POST /client/webhook-deliveries/{id}/retry`: send a delivery again now. */
    retry: (deliveryId: string, opts?: CallOptions) =>
      this.request<T.DeliveryRetryResult>(
        'POST',
        `/api/v1/client/webhook-deliveries/${seg(deliveryId)}/retry`,
        undefined,
        opts,
      ),
  };

  /** Sandbox simulation endpoints (`/sandbox`, not under `/api/v1`). */
  readonly sandbox = {
    /** Moves the merchant's sandbox clock forward (24-hour rule, settlement). */
    advanceClock: (body: T.AdvanceClockRequest, opts?: CallOptions) =>
      this.request<T.Envelope<T.AdvanceClockResult>>('POST', '/sandbox/advance-clock', body, opts),
    /** Closes a settlement batch now. */
    settle: (body: T.SettleRequest, opts?: CallOptions) =>
      this.request<T.Envelope<T.SettleResult>>('POST', '/sandbox/settle', body, opts),
    /** The sandbox inbox: SMS and email that would have been sent to customers. */
    messages: (params: T.ListSandboxMessagesRequest = {}, opts?: CallOptions) =>
      this.request<T.Envelope<T.SandboxMessagePage>>('GET', '/sandbox/messages', params, opts),
  };
}

/** The success body, or a RemitApiError for an HTTP error or a `result|status: false` envelope. */
function unwrap<R>(res: Answer): R {
  const body = res.body as Record<string, unknown> | undefined;
  const failed =
    res.status >= 400 ||
    body === undefined ||
    typeof body !== 'object' ||
    body.result === false ||
    body.status === false;
  if (failed) throw new RemitApiError(res.status, body as Partial<T.ErrorEnvelope> | undefined, res.text.slice(0, 200));
  return body as R;
}

function filePart(part: FilePart, fallbackName: string): [Blob, string] {
  if (part instanceof Blob) {
    const name = 'name' in part && typeof part.name === 'string' && part.name ? part.name : fallbackName;
    return [part, name];
  }
  const bytes = part.data instanceof Uint8Array ? part.data : new Uint8Array(part.data);
  return [
    new Blob([bytes as BlobPart], { type: part.contentType ?? 'application/octet-stream' }),
    part.filename ?? fallbackName,
  ];
}
