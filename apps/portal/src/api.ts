import type {
  PORTAL_CSRF_HEADER,
  Credentials,
  EmbedPolicy,
  OnboardingRequest,
  PortalDeliveries,
  PortalDone,
  PortalMerchant,
  PortalMerchants,
  PortalMessages,
  PortalPayLink,
  PortalPayLinkInput,
  PortalSession,
  PortalTransactionAction,
  PortalTransactions,
  PortalWebhook,
  SignInInput,
} from '@remit/contract';

import { request, type ApiResult, type FieldError } from '@remit/form-kit';

/**
 * The portal's calls to its own server. The session is an HttpOnly cookie the page never sees;
 * every change carries the CSRF token the server gave at sign-in (kept in memory only).
 * Failures carry the envelope's code, message and field errors; status 0 = network.
 */
export type { ApiResult, FieldError };

/** The contract's header name, spelled here so no zod schema enters the bundle; the type checks they agree. */
const CSRF_HEADER: typeof PORTAL_CSRF_HEADER = 'x-csrf-token';

let csrfToken = '';
export const setCsrfToken = (token: string) => {
  csrfToken = token;
};

/** Called when a call finds the session gone (401), so the page can show the sign-in form. */
let onSignedOut: () => void = () => {};
export const whenSignedOut = (fn: () => void) => {
  onSignedOut = fn;
};

async function call<T>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, body?: unknown): Promise<ApiResult<T>> {
  const r = await request<T>(method, `/portal/api${path}`, body, method === 'GET' ? {} : { [CSRF_HEADER]: csrfToken });
  if (r.ok) return r;
  if (r.status === 401 && path !== '/session') onSignedOut();
  if (r.status === 0) return { ...r, message: 'The server could not be reached. Check that it is running.' };
  return r;
}

const m = (id: string) => `/merchants/${encodeURIComponent(id)}`;

export const api = {
  createCredentials: () => call<Credentials>('POST', '/credentials'),
  signIn: (input: SignInInput) => call<PortalSession>('POST', '/session', input),
  session: () => call<PortalSession>('GET', '/session'),
  signOut: () => call<null>('DELETE', '/session'),
  merchants: () => call<PortalMerchants>('GET', '/merchants'),
  onboardingExample: () => call<OnboardingRequest>('GET', '/onboarding-example'),
  onboard: (input: OnboardingRequest) => call<PortalMerchant>('POST', '/merchants', input),
  approve: (merchantId: string) => call<PortalMerchant>('POST', `${m(merchantId)}/approve`),
  webhook: () => call<PortalWebhook>('GET', '/webhook'),
  setWebhook: (webhook_url: string) => call<PortalWebhook>('PUT', '/webhook', { webhook_url }),
  deliveries: () => call<PortalDeliveries>('GET', '/deliveries'),
  retry: (id: string) => call<PortalDone>('POST', `/deliveries/${encodeURIComponent(id)}/retry`),
  testEvent: () => call<{ event_id: string }>('POST', '/test-event'),
  messages: (merchantId?: string) =>
    call<PortalMessages>('GET', `/messages${merchantId ? `?merchant_id=${encodeURIComponent(merchantId)}` : ''}`),
  messageHtmlUrl: (id: string) => `/portal/api/messages/${encodeURIComponent(id)}/html`,
  transactions: (merchantId: string) => call<PortalTransactions>('GET', `${m(merchantId)}/transactions`),
  embedPolicy: (merchantId: string) => call<EmbedPolicy>('GET', `${m(merchantId)}/embed-policy`),
  payLink: (merchantId: string, input: PortalPayLinkInput) =>
    call<PortalPayLink>('POST', `${m(merchantId)}/pay-links`, input),
  act: (merchantId: string, txn: string, action: PortalTransactionAction, amount?: string) =>
    call<PortalDone>(
      'POST',
      `${m(merchantId)}/transactions/${encodeURIComponent(txn)}/${action}`,
      amount === undefined ? {} : { amount },
    ),
  advanceClock: (merchantId: string, hours: string) =>
    call<PortalDone>('POST', `${m(merchantId)}/advance-clock`, { hours }),
  settle: (merchantId: string) => call<PortalDone>('POST', `${m(merchantId)}/settle`),
};
