/**
 * What Stripe.js does to confirm an intent, over plain HTTP, for tests without a browser: create
 * the PaymentMethod with the publishable key (as the Payment Element's frame does), confirm the
 * intent with its client secret, answer 3-D Secure on the emulator's challenge page, and read the
 * intent back. The answer has the shape of `stripe.confirmPayment` / `stripe.confirmSetup`.
 */

/** How the customer pays: a test card (number; expiry, CVC, ZIP filled in), or a bank account. */
export type StripeJsPayWith =
  | { card: string; exp_month?: number; exp_year?: number; cvc?: string; zip?: string; threeDs?: 'complete' | 'fail' }
  | { bank: 'instant'; name?: string }
  | { bank: 'microdeposits'; name?: string; routing_number?: string; account_number?: string };

/** `{paymentIntent}` / `{setupIntent}` or `{error: {type, code, decline_code?, message, payment_intent?}}`, as Stripe.js answers. */
export type StripeJsResult = {
  paymentIntent?: Record<string, any>;
  setupIntent?: Record<string, any>;
  error?: { type: string; code?: string; decline_code?: string; message: string; [k: string]: unknown };
};

interface Emu {
  url: string;
  publishableKey: string;
}

const form = (params: Record<string, string | undefined>) => {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined) q.set(k, v);
  return q.toString();
};

async function call(
  emu: Emu,
  method: 'GET' | 'POST',
  path: string,
  params: Record<string, string | undefined>,
): Promise<{ ok: boolean; body: any }> {
  const body = form({ key: emu.publishableKey, ...params });
  const res = await fetch(`${emu.url}${path}${method === 'GET' ? `?${body}` : ''}`, {
    method,
    ...(method === 'POST' ? { headers: { 'content-type': 'application/x-www-form-urlencoded' }, body } : {}),
  });
  return { ok: res.ok, body: await res.json() };
}

async function confirm(
  emu: Emu,
  kind: 'payment_intent' | 'setup_intent',
  clientSecret: string,
  pay: StripeJsPayWith,
  returnUrl: string,
): Promise<StripeJsResult> {
  const iid = clientSecret.split('_secret_')[0]!;
  const path = `/v1/${kind}s/${iid}`;
  const name = kind === 'payment_intent' ? 'paymentIntent' : 'setupIntent';
  let pm: Record<string, string | undefined>;
  if ('card' in pay) {
    const year = pay.exp_year ?? new Date().getUTCFullYear() + 3;
    pm = {
      type: 'card',
      'card[number]': pay.card,
      'card[exp_month]': String(pay.exp_month ?? 12),
      'card[exp_year]': String(year),
      'card[cvc]': pay.cvc ?? '123',
      'billing_details[address][postal_code]': pay.zip ?? '94105',
    };
  } else if (pay.bank === 'instant') {
    const session = await call(emu, 'POST', `${path}/link_account_sessions`, { client_secret: clientSecret });
    if (!session.ok) return { error: session.body.error };
    pm = {
      type: 'us_bank_account',
      'billing_details[name]': pay.name ?? 'Ada Lovelace',
      'us_bank_account[financial_connections_account]': session.body.accounts.data[0].id,
    };
  } else {
    pm = {
      type: 'us_bank_account',
      'billing_details[name]': pay.name ?? 'Ada Lovelace',
      'us_bank_account[routing_number]': pay.routing_number ?? '110000000',
      'us_bank_account[account_number]': pay.account_number ?? '000123456789',
      'us_bank_account[account_holder_type]': 'individual',
    };
  }
  const made = await call(emu, 'POST', '/v1/payment_methods', pm);
  if (!made.ok) return { error: made.body.error };
  const confirmed = await call(emu, 'POST', `${path}/confirm`, {
    client_secret: clientSecret,
    payment_method: made.body.id,
    return_url: returnUrl,
    use_stripe_sdk: 'true',
    ...(made.body.type === 'us_bank_account'
      ? {
          'mandate_data[customer_acceptance][type]': 'online',
          'mandate_data[customer_acceptance][online][infer_from_client]': 'true',
        }
      : {}),
  });
  if (!confirmed.ok) return { error: confirmed.body.error };
  let intent = confirmed.body;
  if (intent.status === 'requires_action' && intent.next_action?.type === 'use_stripe_sdk') {
    const answer = 'card' in pay && pay.threeDs === 'fail' ? 'fail' : 'complete';
    const res = await fetch(`${intent.next_action.use_stripe_sdk.stripe_js}/${answer}`, { method: 'POST' });
    await res.arrayBuffer();
    const again = await call(emu, 'GET', path, { client_secret: clientSecret });
    if (!again.ok) return { error: again.body.error };
    intent = again.body;
  }
  const error = kind === 'payment_intent' ? intent.last_payment_error : intent.last_setup_error;
  if (intent.status === 'requires_payment_method' && error) return { error: { ...error, [kind]: intent } };
  return { [name]: intent };
}

/** `stripe.confirmPayment({elements, redirect: 'if_required'})` with `pay` typed into the Payment Element. */
export const stripeJsConfirmPayment = (
  emu: Emu,
  clientSecret: string,
  pay: StripeJsPayWith,
  returnUrl = 'http://127.0.0.1/return',
): Promise<StripeJsResult> => confirm(emu, 'payment_intent', clientSecret, pay, returnUrl);

/** `stripe.confirmSetup({elements, redirect: 'if_required'})` with `pay` typed into the Payment Element. */
export const stripeJsConfirmSetup = (
  emu: Emu,
  clientSecret: string,
  pay: StripeJsPayWith,
  returnUrl = 'http://127.0.0.1/return',
): Promise<StripeJsResult> => confirm(emu, 'setup_intent', clientSecret, pay, returnUrl);
