import { STRIPE } from '@remit/contract/catalogue/stripe';
import type {
  AddCardResult,
  AddCardView,
  CardEntry,
  PayLinkView,
  PayMethod,
  PayResult,
  StripeIntent,
} from '@remit/contract';
import type { Appearance, Stripe, StripeElements } from '@stripe/stripe-js';
import { useSignal } from '@preact/signals';
import type { TargetedEvent } from 'preact';
import { useEffect, useLayoutEffect, useRef } from 'preact/hooks';
import { announce, request, type ApiResult } from '@remit/form-kit';
import { getLink } from './api.js';
import type { FailureText } from './failure.js';
import { attemptKey, endAttempt } from './idempotency.js';
import { locale, t } from './i18n.js';
import { loadStripe, stripeLocale } from './stripe-js.js';

/**
 * The Stripe path of the pay and add-card pages, a chunk of its own (fetched only when the view's
 * `card_entry.kind` is `stripe`): Stripe's Payment Element in place of Remit's fields, so no card
 * or account number ever reaches Remit. The server creates the intent, the page confirms it with
 * Stripe.js, then reports it; the server reads the intent from Stripe and answers what to show.
 */

export type StripeEntry = Extract<CardEntry, { kind: 'stripe' }>;
const sm = () => STRIPE[locale.value];
const keyed = (key: string) => ({ 'idempotency-key': key, 'accept-language': locale.value });
const linkPath = (id: string) => `/pay/api/links/${encodeURIComponent(id)}/intent`;
const cardPath = (token: string) => `/pay/api/cards/${encodeURIComponent(token)}/intent`;

/** One call with an Idempotency-Key per attempt (a retry after a network error sends the same key). */
async function once<T>(scope: string, fp: string, call: (key: string) => Promise<ApiResult<T>>): Promise<ApiResult<T>> {
  const res = await call(attemptKey(scope, fp));
  if (res.ok || res.status !== 0) endAttempt(scope);
  return res;
}
/** The link's one PaymentIntent (the server reuses it across loads, tabs and retries). */
export const payIntent = (id: string) =>
  once(`${id}:intent`, '', (k) => request<StripeIntent>('POST', linkPath(id), {}, keyed(k)));
/** Key scope of a report: the page settles the answer under it (link-page `settle`). */
export const reportScope = (id: string) => `${id}:report`;
export const payReport = (id: string, paymentIntent: string) =>
  request<PayResult>(
    'POST',
    `${linkPath(id)}/report`,
    { payment_intent: paymentIntent },
    keyed(attemptKey(reportScope(id), paymentIntent)),
  );
/** The tab picked in Stripe's fields: the server sets the PaymentIntent's amount and fee to that method's total. */
const pickMethod = (id: string, method: PayMethod) =>
  // Setting an amount twice is harmless, and a replayed answer would skip a switch back: a new key each time.
  request<StripeIntent>('POST', linkPath(id), { method }, keyed(crypto.getRandomValues(new Uint32Array(4)).join('-')));
export const setupIntent = (token: string) =>
  once(`card:${token}:intent`, '', (k) => request<StripeIntent>('POST', cardPath(token), {}, keyed(k)));
export const setupReport = (token: string, si: string) =>
  once(`card:${token}:report`, si, (k) =>
    request<AddCardResult>('POST', `${cardPath(token)}/report`, { setup_intent: si }, keyed(k)),
  );

/**
 * Stripe's fields in the page's look: the Pay button's colour (the merchant's primary colour, or
 * its appearance stylesheet's), the text colour and font, as the page computed them.
 */
function appearance(form: Element): Appearance {
  const page = getComputedStyle(form);
  const button = form.querySelector('.button');
  return {
    theme: 'stripe',
    variables: {
      colorText: page.color,
      fontFamily: page.fontFamily,
      ...(button ? { colorPrimary: getComputedStyle(button).backgroundColor } : {}),
    },
  };
}

export interface StripeFieldsProps {
  entry: StripeEntry;
  mode: 'payment' | 'setup';
  /** The server's intent for this page (created once, reused). */
  intent: () => Promise<ApiResult<StripeIntent>>;
  /** Where a method that leaves the page (a bank's redirect) comes back to. */
  returnUrl: string;
  label: string;
  busy: boolean;
  /** The page's one-attempt-at-a-time wrapper: busy, "Processing…" announced. */
  run: (work: () => Promise<void>) => Promise<void>;
  /** Tells the server the intent was confirmed (or failed at Stripe) and shows its answer. */
  report: (intentId: string) => Promise<void>;
  /** A failure Stripe answered with no intent to report: a decline, or Stripe unreachable or failing. */
  fail: (f: FailureText) => void;
  /** The server refused the intent (paid, deleted, a payment in progress…): the page shows it. */
  refused: (res: Extract<ApiResult<unknown>, { ok: false }>) => void;
  /** Asks the server for the page's view again: a failure (deleted, expired) is shown as `refused`. */
  gone?: () => Promise<ApiResult<unknown>>;
  /** The tab picked in Stripe's fields (the amounts shown follow it). */
  onMethod?: (m: PayMethod) => void;
  /** When the totals differ by method: the method the intent was made for, and the call that moves it to another. */
  pick?: { first: PayMethod; call: (m: PayMethod) => Promise<ApiResult<StripeIntent>> };
}

export function StripeFields(p: StripeFieldsProps) {
  const m = t();
  const s = sm();
  const form = useRef<HTMLFormElement>(null);
  const host = useRef<HTMLDivElement>(null);
  // broken: the fields could not load (the network); failed: the server could not make the intent (the processor).
  const state = useSignal<'loading' | 'ready' | 'broken' | 'failed' | 'refused'>('loading');
  const live = useRef<{ stripe: Stripe; elements: StripeElements; secret: string } | null>(null);
  // The amount follows the tab: a payment waits for the last switch to reach Stripe.
  const switching = useSignal(false);
  const picked = useRef<{ method: PayMethod | undefined; done: Promise<unknown> }>({
    method: p.pick?.first,
    done: Promise.resolve(),
  });

  useEffect(() => {
    let unmounted = false;
    let destroy = () => {};
    void (async () => {
      const [stripe, res] = await Promise.all([
        loadStripe(p.entry.js_url, p.entry.publishable_key).catch(() => null),
        p.intent(),
      ]);
      if (unmounted) return;
      if (!res.ok && res.status >= 500) {
        state.value = 'failed';
        return;
      }
      if (!res.ok && res.status !== 0) {
        state.value = 'refused';
        return p.refused(res);
      }
      if (!res.ok || !stripe) {
        state.value = 'broken';
        return;
      }
      const elements = stripe.elements({
        clientSecret: res.data.client_secret,
        appearance: appearance(form.current!),
        locale: stripeLocale(locale.value),
      });
      const element = elements.create('payment', { layout: 'tabs' });
      element.on('ready', () => (state.value = 'ready'));
      element.on('change', (e) => {
        const method: PayMethod = e.value.type === 'us_bank_account' ? 'ach' : 'card';
        p.onMethod?.(method);
        const pick = p.pick;
        if (!pick || picked.current.method === method) return;
        picked.current.method = method;
        switching.value = true;
        picked.current.done = picked.current.done
          .then(async () => {
            const res = await pick.call(method);
            if (!res.ok && res.status !== 0) return p.refused(res);
            await elements.fetchUpdates();
          })
          .catch(() => {})
          .finally(() => (switching.value = picked.current.method !== method));
      });
      element.mount(host.current!);
      destroy = () => element.destroy();
      live.current = { stripe, elements, secret: res.data.client_secret };
    })();
    return () => {
      unmounted = true;
      destroy();
    };
  }, []);

  const submit = (e: TargetedEvent<HTMLFormElement>) => {
    e.preventDefault();
    const l = live.current;
    if (!l || p.busy) return;
    void p.run(async () => {
      await picked.current.done;
      const confirm = {
        elements: l.elements,
        redirect: 'if_required' as const,
        confirmParams: { return_url: p.returnUrl },
      };
      const r = p.mode === 'payment' ? await l.stripe.confirmPayment(confirm) : await l.stripe.confirmSetup(confirm);
      const done = ('paymentIntent' in r && r.paymentIntent) || ('setupIntent' in r && r.setupIntent) || null;
      if (done) return p.report(done.id);
      const err = r.error!;
      // Stripe shows a field's own error beside it in its frame; it is said aloud here too.
      if (err.type === 'validation_error') return announce(err.message ?? '');
      // A decline, a failed 3-D Secure, an intent paid in another tab: the server says what it means.
      // (Paid in another tab: Stripe answers the intent's unexpected state, and the server shows the receipt.)
      const unexpected = err.code === 'payment_intent_unexpected_state' || err.code === 'setup_intent_unexpected_state';
      const tried =
        err.payment_intent?.id ?? err.setup_intent?.id ?? (unexpected ? l.secret.split('_secret_')[0] : null);
      // Cancelled by Remit: the link was deleted or expired meanwhile; the server's view says which.
      if ((err.payment_intent ?? err.setup_intent)?.status === 'canceled' && p.gone) {
        const fresh = await p.gone();
        if (!fresh.ok) return p.refused(fresh);
      }
      if (tried) return p.report(tried);
      // Only the bank's refusal is a decline; Stripe unreachable or failing is not the card's fault.
      p.fail(
        err.type === 'card_error'
          ? { title: m.declinedTitle, message: err.message ?? m.tryAnother, hint: m.tryAnother }
          : { title: m.notCompletedTitle, message: m.technicalRetry },
      );
    });
  };

  if (state.value === 'refused') return null;
  const busy = p.busy || state.value === 'loading';
  return (
    <form class="pay-form" noValidate ref={form} onSubmit={submit} aria-busy={busy} aria-label={s.fields}>
      <p class="fine-print" role="status">
        {state.value === 'loading' ? s.loading : ''}
      </p>
      {(state.value === 'broken' || state.value === 'failed') && (
        <div class="alert" role="alert">
          <p>{state.value === 'broken' ? s.unavailable : s.notStarted}</p>
        </div>
      )}
      <div class="stripe-element" ref={host} />
      {state.value !== 'broken' && state.value !== 'failed' && (
        <button class="button" type="submit" disabled={p.busy || switching.value || state.value !== 'ready'}>
          {p.busy ? m.processing : p.label}
        </button>
      )}
    </form>
  );
}

/**
 * A bank payment waiting for microdeposits (Stripe's `verify_with_microdeposits`): what to do next,
 * with Stripe's verification page. The payment is pending; Stripe's events complete or fail it.
 */
export function BankVerification({ url }: { url: string }) {
  const s = sm();
  const heading = useRef<HTMLHeadingElement>(null);
  useLayoutEffect(() => heading.current?.focus(), []);
  return (
    <section class="panel notice" aria-labelledby="verify-title">
      <h2 id="verify-title" tabIndex={-1} ref={heading}>
        {s.verifyTitle}
      </h2>
      <p>{s.verifyText}</p>
      <p>
        <a class="button" href={url} target="_blank" rel="noopener noreferrer">
          {s.verifyLink}
        </a>
      </p>
    </section>
  );
}

type Common = Pick<StripeFieldsProps, 'label' | 'busy' | 'run' | 'fail'>;
type Settle<T> = (res: ApiResult<T>, scope: string) => unknown;

/** The pay page's Stripe fields: the link's PaymentIntent, its report settled as a pay attempt's answer. */
export function PayFields({
  view,
  settle,
  onMethod,
  ...rest
}: Common & { view: PayLinkView; settle: Settle<PayResult>; onMethod: (m: PayMethod) => void }) {
  const id = view.link_id;
  return (
    <StripeFields
      {...rest}
      entry={view.card_entry as StripeEntry}
      mode="payment"
      intent={() => payIntent(id)}
      returnUrl={`${location.origin}/pay/${encodeURIComponent(id)}/return`}
      report={async (pi) => void settle(await payReport(id, pi), reportScope(id))}
      refused={(res) => void settle(res, '')}
      gone={() => getLink(id)}
      onMethod={onMethod}
      pick={
        view.methods.card && view.methods.ach && view.amounts.total.card !== view.amounts.total.ach
          ? { first: 'card', call: (m) => pickMethod(id, m) }
          : undefined
      }
    />
  );
}

/** The add-card page's Stripe fields: a SetupIntent, its report answered as a saved card. */
export function SaveFields({ view, settle, ...rest }: Common & { view: AddCardView; settle: Settle<AddCardResult> }) {
  return (
    <StripeFields
      {...rest}
      entry={view.card_entry as StripeEntry}
      mode="setup"
      intent={() => setupIntent(view.token)}
      returnUrl={location.href}
      report={async (si) => void settle(await setupReport(view.token, si), '')}
      refused={(res) => void settle(res, '')}
      gone={() => request('GET', `/pay/api/cards/${encodeURIComponent(view.token)}`)}
    />
  );
}
