import type { TestServer } from '../testing/harness.js';
import { newMerchant, validOnboarding, type TestMerchant } from '../testing/fixtures.js';

/**
 * The API's routes as the security suites see them: for each, a valid request for a tenant and
 * the kind of each field, so a suite can break exactly one thing at a time.
 */

export interface Tenant extends TestMerchant {
  customer_id: number;
  ach_customer_id: number;
  /** A completed card sale. */
  sale_id: string;
  /** An authorized preauthorization. */
  preauth_id: string;
  /** A pending ACH sale. */
  ach_id: string;
  link_id: string;
}

/** How a field is typed, which decides what a wrong value for it is. */
export type FieldKind = 'text' | 'amount' | 'flag' | 'int' | 'date' | 'object';

export interface RouteCase {
  name: string;
  method: 'GET' | 'POST' | 'DELETE';
  path(t: Tenant): string;
  /** A valid body (or GET parameters) for tenant `t`. */
  body(t: Tenant): Record<string, unknown>;
  /** Every field a wrong type may be put in; a dotted name is a nested field. */
  fields: Record<string, FieldKind>;
  /** Fields whose absence is an error. */
  required: string[];
  /** The one multipart route. */
  multipart?: boolean;
  /** Sent as application/x-www-form-urlencoded (the spec allows it on sales-void). */
  form?: boolean;
  /** Path templates with parameters, to fuzz them. */
  pathParam?: (t: Tenant, value: string) => string;
}

export const card = { number: '4242424242424242', exp_month: 12, exp_year: 2040, cvc: '123', zip: '94105' };
export const bankAccount = { routing_number: '011000015', account_number: '000123456789', account_type: 'checking' };

/** A merchant with a customer of each kind, a sale, a preauthorization, an ACH sale and a pay link, all made through the API. */
export async function makeTenant(s: TestServer, name: string): Promise<Tenant> {
  const m = await newMerchant(s, { business_name: name });
  const post = async (path: string, json: unknown) => {
    const res = await s.http({ method: 'POST', path: `/api/v1${path}`, auth: m.auth, json });
    if (res.status !== 200) throw new Error(`${path} failed: ${res.status} ${res.text}`);
    return res.body;
  };
  const mk = m.merchant_key;
  const customer = await post('/customers/add', {
    merchant_key: mk,
    first_name: 'Card',
    email: 'card@example.test',
    card,
  });
  const achCustomer = await post('/customers/add', { merchant_key: mk, first_name: 'Bank', bank_account: bankAccount });
  const customer_id = customer.data.customer_id as number;
  const ach_customer_id = achCustomer.data.customer_id as number;
  const sale = await post(`/customers/charge/${customer_id}`, {
    merchant_key: mk,
    amount: '10.00',
    order_id: `${name}-sale`,
  });
  const pre = await post(`/customers/charge/${customer_id}`, {
    merchant_key: mk,
    amount: '20.00',
    order_id: `${name}-pre`,
    preAuth: true,
  });
  const ach = await post(`/customers/charge/${ach_customer_id}`, {
    merchant_key: mk,
    amount: '30.00',
    order_id: `${name}-ach`,
  });
  const link = await post('/pay-link', { merchant_key: mk, amount: '5.00', order_id: `${name}-link` });
  return {
    ...m,
    customer_id,
    ach_customer_id,
    sale_id: sale.transaction_id,
    preauth_id: pre.transaction_id,
    ach_id: ach.transaction_id,
    link_id: String(link.data.payment_link).split('/').pop()!,
  };
}

const api = (p: string) => `/api/v1${p}`;

/** Every route that takes a `merchant_key`. */
export const merchantKeyRoutes: RouteCase[] = [
  {
    name: 'POST /pay-link',
    method: 'POST',
    path: () => api('/pay-link'),
    body: (t) => ({
      merchant_key: t.merchant_key,
      amount: '5.00',
      order_id: 'sec-link',
      invoice_number: 'INV1',
      allow_card: true,
      allow_ach: true,
    }),
    fields: {
      merchant_key: 'text',
      amount: 'amount',
      order_id: 'text',
      invoice_number: 'text',
      allow_card: 'flag',
      allow_ach: 'flag',
    },
    required: ['merchant_key', 'amount'],
  },
  {
    name: 'DELETE /pay-link/{linkId}',
    method: 'DELETE',
    path: (t) => api(`/pay-link/${t.link_id}`),
    pathParam: (_t, v) => api(`/pay-link/${v}`),
    body: (t) => ({ merchant_key: t.merchant_key }),
    fields: { merchant_key: 'text' },
    required: ['merchant_key'],
  },
  {
    name: 'POST /requests',
    method: 'POST',
    path: () => api('/requests'),
    body: (t) => ({
      merchant_key: t.merchant_key,
      amount: '12.00',
      order_id: `sec-req-${Math.random().toString(36).slice(2)}`,
      phone_number: '4155550123',
      email: 'buyer@example.test',
      name: 'Buyer',
      preauth: false,
      pass_fee: false,
      require_3ds: false,
      allow_card: true,
      allow_ach: true,
      invoice_number: 'INV2',
      discount: '1.00',
      surcharge: '0.50',
      tax: '0.25',
      description: 'Security test',
    }),
    fields: {
      merchant_key: 'text',
      amount: 'amount',
      order_id: 'text',
      phone_number: 'text',
      email: 'text',
      name: 'text',
      preauth: 'flag',
      pass_fee: 'flag',
      require_3ds: 'flag',
      allow_card: 'flag',
      allow_ach: 'flag',
      invoice_number: 'text',
      discount: 'amount',
      surcharge: 'amount',
      tax: 'amount',
      description: 'text',
    },
    required: ['merchant_key', 'amount', 'order_id'],
  },
  {
    name: 'POST /requests/{customerId}',
    method: 'POST',
    path: (t) => api(`/requests/${t.customer_id}`),
    pathParam: (_t, v) => api(`/requests/${v}`),
    body: (t) => ({
      merchant_key: t.merchant_key,
      amount: '8.00',
      order_id: 'sec-auth-req',
      isRequestCard: false,
      preauth: false,
      allow_card: true,
      allow_ach: true,
    }),
    fields: {
      merchant_key: 'text',
      amount: 'amount',
      order_id: 'text',
      isRequestCard: 'flag',
      preauth: 'flag',
      allow_card: 'flag',
      allow_ach: 'flag',
    },
    required: ['merchant_key', 'amount', 'order_id'],
  },
  {
    name: 'POST /customers/add',
    method: 'POST',
    path: () => api('/customers/add'),
    body: (t) => ({
      merchant_key: t.merchant_key,
      first_name: 'Eve',
      last_name: 'Tester',
      email: 'eve@example.test',
      phone_number: '4155550199',
      card,
    }),
    fields: {
      merchant_key: 'text',
      first_name: 'text',
      last_name: 'text',
      email: 'text',
      phone_number: 'text',
      card: 'object',
      bank_account: 'object',
    },
    required: ['merchant_key', 'first_name'],
  },
  {
    name: 'GET /customers',
    method: 'GET',
    path: () => api('/customers'),
    body: (t) => ({ merchant_key: t.merchant_key, page: 0, perPage: 10 }),
    fields: { merchant_key: 'text', page: 'int', perPage: 'int' },
    required: ['merchant_key'],
  },
  {
    name: 'GET /customers/{customerId}',
    method: 'GET',
    path: (t) => api(`/customers/${t.customer_id}`),
    pathParam: (_t, v) => api(`/customers/${v}`),
    body: (t) => ({ merchant_key: t.merchant_key }),
    fields: { merchant_key: 'text' },
    required: ['merchant_key'],
  },
  {
    name: 'POST /customers/request-card/{customerId}',
    method: 'POST',
    path: (t) => api(`/customers/request-card/${t.customer_id}`),
    pathParam: (_t, v) => api(`/customers/request-card/${v}`),
    body: (t) => ({ merchant_key: t.merchant_key }),
    fields: { merchant_key: 'text' },
    required: ['merchant_key'],
  },
  {
    name: 'POST /customers/charge/{customerId}',
    method: 'POST',
    path: (t) => api(`/customers/charge/${t.customer_id}`),
    pathParam: (_t, v) => api(`/customers/charge/${v}`),
    body: (t) => ({ merchant_key: t.merchant_key, amount: 4.5, order_id: 'sec-charge', preAuth: false }),
    fields: { merchant_key: 'text', amount: 'amount', order_id: 'text', preAuth: 'flag' },
    required: ['merchant_key', 'amount', 'order_id'],
  },
  {
    name: 'GET /merchant/transactions',
    method: 'GET',
    path: () => api('/merchant/transactions'),
    body: (t) => ({
      merchant_key: t.merchant_key,
      from_date: '2020-01-01',
      to_date: '2099-12-31',
      limit: '10',
      pageNumber: 0,
    }),
    fields: { merchant_key: 'text', from_date: 'date', to_date: 'date', limit: 'int', pageNumber: 'int' },
    required: ['merchant_key'],
  },
  {
    name: 'GET /merchant/transactions/{transaction_id}',
    method: 'GET',
    path: (t) => api(`/merchant/transactions/${t.sale_id}`),
    pathParam: (_t, v) => api(`/merchant/transactions/${v}`),
    body: (t) => ({ merchant_key: t.merchant_key }),
    fields: { merchant_key: 'text' },
    required: ['merchant_key'],
  },
  {
    name: 'POST /order/sales-void',
    method: 'POST',
    path: () => api('/order/sales-void'),
    body: (t) => ({ merchant_key: t.merchant_key, transaction_id: t.sale_id, sub_merchant_key: '' }),
    fields: { merchant_key: 'text', transaction_id: 'text', sub_merchant_key: 'text' },
    required: ['merchant_key', 'transaction_id'],
  },
  {
    name: 'POST /order/sales-void (form body)',
    method: 'POST',
    path: () => api('/order/sales-void'),
    body: (t) => ({ merchant_key: t.merchant_key, transaction_id: t.sale_id, sub_merchant_key: '' }),
    fields: { merchant_key: 'text', transaction_id: 'text', sub_merchant_key: 'text' },
    required: ['merchant_key', 'transaction_id'],
    form: true,
  },
  {
    name: 'POST /order/sales-return',
    method: 'POST',
    path: () => api('/order/sales-return'),
    body: (t) => ({ merchant_key: t.merchant_key, transaction_id: t.sale_id, amount: '1.00' }),
    fields: { merchant_key: 'text', transaction_id: 'text', amount: 'amount', sub_merchant_key: 'text' },
    required: ['merchant_key', 'transaction_id', 'amount'],
  },
  {
    name: 'POST /preauth/update',
    method: 'POST',
    path: () => api('/preauth/update'),
    body: (t) => ({
      merchant_key: t.merchant_key,
      transaction_id: t.preauth_id,
      last_authorized_amount: '20.00',
      new_authorized_amount: '25.00',
      order_id: 'sec-pre',
    }),
    fields: {
      merchant_key: 'text',
      transaction_id: 'text',
      last_authorized_amount: 'amount',
      new_authorized_amount: 'amount',
      order_id: 'text',
    },
    required: ['merchant_key', 'transaction_id', 'last_authorized_amount', 'new_authorized_amount'],
  },
  {
    name: 'POST /preauth/capture',
    method: 'POST',
    path: () => api('/preauth/capture'),
    body: (t) => ({ merchant_key: t.merchant_key, transaction_id: t.preauth_id }),
    fields: { merchant_key: 'text', transaction_id: 'text' },
    required: ['merchant_key', 'transaction_id'],
  },
  {
    name: 'POST /preauth/void',
    method: 'POST',
    path: () => api('/preauth/void'),
    body: (t) => ({ merchant_key: t.merchant_key, transaction_id: t.preauth_id }),
    fields: { merchant_key: 'text', transaction_id: 'text' },
    required: ['merchant_key', 'transaction_id'],
  },
  {
    name: 'POST /update-ach',
    method: 'POST',
    path: () => api('/update-ach'),
    body: (t) => ({ merchant_key: t.merchant_key, transaction_id: t.ach_id, new_status: 'approved' }),
    fields: { merchant_key: 'text', transaction_id: 'text', new_status: 'text' },
    required: ['merchant_key', 'transaction_id', 'new_status'],
  },
  {
    name: 'POST /merchant/remote_deposit_capture',
    method: 'POST',
    path: () => api('/merchant/remote_deposit_capture'),
    body: (t) => ({ merchant_key: t.merchant_key, amount: '42.50', device: 'iOS' }),
    fields: { merchant_key: 'text', amount: 'amount', device: 'text' },
    required: ['merchant_key', 'amount', 'device'],
    multipart: true,
  },
  {
    name: 'GET /widgets',
    method: 'GET',
    path: () => api('/widgets'),
    body: (t) => ({ merchant_key: t.merchant_key }),
    fields: { merchant_key: 'text' },
    required: ['merchant_key'],
  },
  {
    name: 'POST /sandbox/advance-clock',
    method: 'POST',
    path: () => '/sandbox/advance-clock',
    body: (t) => ({ merchant_key: t.merchant_key, hours: 1 }),
    fields: { merchant_key: 'text', hours: 'int' },
    required: ['merchant_key', 'hours'],
  },
  {
    name: 'POST /sandbox/settle',
    method: 'POST',
    path: () => '/sandbox/settle',
    body: (t) => ({ merchant_key: t.merchant_key }),
    fields: { merchant_key: 'text' },
    required: ['merchant_key'],
  },
  {
    name: 'GET /sandbox/messages',
    method: 'GET',
    path: () => '/sandbox/messages',
    body: (t) => ({ merchant_key: t.merchant_key, channel: 'sms', page: '1', limit: '10' }),
    fields: { merchant_key: 'text', channel: 'text', page: 'int', limit: 'int' },
    required: [],
  },
];

/** Routes without a merchant_key; the bad-input suite covers these too. */
export const clientRoutes: RouteCase[] = [
  {
    name: 'POST /onboarding',
    method: 'POST',
    path: () => api('/onboarding'),
    body: () => validOnboarding({ business_name: 'Never Onboarded' }),
    fields: {
      BankingInfo: 'object',
      BusinessInfo: 'object',
      OwnerInfo: 'object',
      ProcessingInfo: 'object',
      'BankingInfo.routing_number': 'text',
      'BankingInfo.account_number': 'text',
      'BusinessInfo.business_name': 'text',
      'BusinessInfo.business_email': 'text',
      'BusinessInfo.ein': 'text',
      'BusinessInfo.established_date': 'date',
      'OwnerInfo.ssn': 'text',
      'OwnerInfo.email': 'text',
      'OwnerInfo.date_of_birth': 'date',
      'ProcessingInfo.avgTicket': 'text',
    },
    required: ['BankingInfo', 'BusinessInfo', 'OwnerInfo', 'ProcessingInfo'],
  },
  {
    name: 'GET /merchant',
    method: 'GET',
    path: () => api('/merchant'),
    body: () => ({}),
    fields: {},
    required: [],
  },
  {
    name: 'POST /approve-merchant',
    method: 'POST',
    path: () => api('/approve-merchant'),
    body: () => ({ merchant_id: 'm_doesnotexist' }),
    fields: { merchant_id: 'text' },
    required: ['merchant_id'],
  },
  {
    name: 'POST /client/update-webhooks-url',
    method: 'POST',
    path: () => api('/client/update-webhooks-url'),
    body: () => ({ webhook_url: 'http://127.0.0.1:9/hook' }),
    fields: { webhook_url: 'text' },
    required: ['webhook_url'],
  },
  {
    name: 'GET /client/webhook-deliveries',
    method: 'GET',
    path: () => api('/client/webhook-deliveries'),
    body: () => ({ page: '1', limit: '10' }),
    fields: { event_type: 'text', status: 'text', page: 'int', limit: 'int' },
    required: [],
  },
  {
    name: 'POST /client/webhook-deliveries/{id}/retry',
    method: 'POST',
    // No delivery has this id: every request, however malformed, can only be refused.
    path: () => api('/client/webhook-deliveries/whd_doesnotexist/retry'),
    pathParam: (_t, v) => api(`/client/webhook-deliveries/${v}/retry`),
    body: () => ({}),
    fields: {},
    required: [],
  },
  {
    name: 'GET /merchant/{merchant_id}',
    method: 'GET',
    path: (t) => api(`/merchant/${t.merchant_id}`),
    pathParam: (_t, v) => api(`/merchant/${v}`),
    body: () => ({}),
    fields: {},
    required: [],
  },
];

/** Multipart text for the deposit route; `files` are [name, bytes, type]. */
export function multipartBody(fields: Record<string, string>, files: Array<[string, Buffer, string]>) {
  const boundary = `----remitsec${Math.random().toString(36).slice(2)}`;
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(fields)) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  }
  for (const [k, data, type] of files) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${k}"; filename="${k}.png"\r\nContent-Type: ${type}\r\n\r\n`,
      ),
    );
    parts.push(data, Buffer.from('\r\n'));
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { raw: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** A tiny valid PNG header: enough for a content sniffer to call it an image. */
export const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52]);

/** The request a route case makes: JSON, or multipart for the deposit route. */
export function requestFor(rc: RouteCase, t: Tenant, body: Record<string, unknown> = rc.body(t)) {
  if (rc.multipart) {
    const fields = Object.fromEntries(Object.entries(body).map(([k, v]) => [k, String(v)]));
    return {
      method: rc.method,
      path: rc.path(t),
      ...multipartBody(fields, [
        ['front_file', PNG, 'image/png'],
        ['back_file', PNG, 'image/png'],
      ]),
    };
  }
  if (rc.form) {
    const form = Object.fromEntries(Object.entries(body).map(([k, v]) => [k, String(v)]));
    return { method: rc.method, path: rc.path(t), form };
  }
  return { method: rc.method, path: rc.path(t), json: body };
}
