import type { CardInput, PayLinkView, PayMethod, PayRequest, PayResult, Receipt as ReceiptData } from '@remit/contract';
import { useSignal } from '@preact/signals';
import { useEffect, useMemo, useRef } from 'preact/hooks';
import { announce } from '@remit/form-kit';
import { answerChallenge, getLink, payLink, type ApiResult } from './api.js';
import { Amounts } from './amounts.js';
import { BankForm } from './bank-form.js';
import { CardForm } from './card-form.js';
import { Challenge } from './challenge.js';
import { Confirming } from './confirming.js';
import { createEmbed } from './embed.js';
import { failureOf, type FailureText } from './failure.js';
import { formatMoney } from './format.js';
import { attemptKey, endAttempt } from './idempotency.js';
import { intlLocale, t } from './i18n.js';
import { CannotPay } from './cannot-pay.js';
import { Layout } from './layout.js';
import { MethodChoice } from './method-choice.js';
import { Outcome } from './outcome.js';
import { Receipt } from './receipt.js';
import { useStripeChunk } from './stripe-chunk.js';
import { takeTyped } from './typed.js';

interface Failure {
  title: string;
  message: string;
  hint?: string;
  id: number;
}

/** What pays with, without the full number: a different card or account is a new attempt. */
function fingerprint(req: PayRequest): string {
  if (req.method === 'card')
    return `card:${req.card.number.slice(-4)}:${req.card.exp_month}/${req.card.exp_year}:${req.card.zip}`;
  return `ach:${req.bank.routing_number}:${req.bank.account_number.slice(-4)}:${req.bank.account_type}`;
}

export function LinkPage({ view }: { view: PayLinkView }) {
  const m = t();
  const embed = useMemo(() => createEmbed(view.embed_origin), []);
  // An authorization holds a card: a bank debit cannot be placed on hold.
  const allowed = { card: view.methods.card, ach: view.methods.ach && !view.preauth };
  // The method the customer may have picked in the server-rendered page before hydration.
  const picked = useMemo(() => takeTyped('method'), []);
  const method = useSignal<PayMethod>(picked === 'ach' && allowed.ach ? 'ach' : allowed.card ? 'card' : 'ach');
  const busy = useSignal(false);
  const inFlight = useRef(false);
  const receipt = useSignal<ReceiptData | null>(view.receipt);
  const justPaid = useSignal(false);
  const challenge = useSignal<{ id: string; brand: string; last_four: string } | null>(null);
  const failure = useSignal<Failure | null>(null);
  // The processor's answer to a card attempt never came: the server is asking it (no second attempt meanwhile).
  const confirming = useSignal(view.status === 'processing');
  const clearCard = useSignal(0);
  // Stripe's fields take the card (its chunk, fetched after the first render); a bank account
  // waiting for microdeposits shows Stripe's verification page.
  const stripe = view.card_entry.kind === 'stripe';
  const chunk = useStripeChunk(stripe, () => show({ title: m.notCompletedTitle, message: m.networkError }));
  // After a reload, the view names it (the debit is recorded: the receipt shows beside it).
  const verification = useSignal<string | null>(view.pending_verification_url ?? null);
  const total = formatMoney(view.amounts.total[method.value], view.amounts.currency, intlLocale());

  const paid = (r: ReceiptData) => {
    receipt.value = r;
    justPaid.value = true;
    challenge.value = null;
    failure.value = null;
    embed.succeeded(r.transaction_id);
  };
  const show = (f: FailureText) => (failure.value = { ...f, id: (failure.value?.id ?? 0) + 1 });
  const declined = (message: string) => show({ title: m.declinedTitle, message });

  /** One answer of a pay or challenge call → the next state. */
  const settle = async (res: ApiResult<PayResult>, scope: string) => {
    if (res.ok) {
      endAttempt(scope);
      failure.value = null;
      if (res.data.status === 'paid') paid(res.data.receipt);
      else if (res.data.status === 'processing') confirming.value = true;
      else if (res.data.status === 'bank_verification') verification.value = res.data.verification_url;
      // The processor's own 3-D Secure page; it sends the customer back to /pay/{id}/return.
      else if (res.data.challenge.redirect_url) location.assign(res.data.challenge.redirect_url);
      else challenge.value = res.data.challenge;
      return;
    }
    // A network failure (status 0) keeps the key: the retry is replayed, not charged twice.
    if (res.status) {
      endAttempt(scope);
      challenge.value = null;
    }
    if (res.code === 'link_already_paid') {
      const fresh = await getLink(view.link_id);
      if (fresh.ok && fresh.data.receipt) return paid(fresh.data.receipt);
    }
    if (res.code === 'payment_processing') {
      confirming.value = true;
      return;
    }
    if (res.status === 402) {
      clearCard.value++;
      embed.failed();
    }
    show(failureOf(res, m));
  };

  // Back from a failed challenge at the processor (`?declined=<code>`): only what is shown, never what is charged.
  useEffect(() => {
    const code = new URLSearchParams(location.search).get('declined');
    if (code && !receipt.value) declined(code === 'three_ds_failed' ? m.threeDsFailed : m.tryAnother);
  }, []);

  /** Asks whether the processing attempt was settled: paid shows the receipt, open again is a decline. */
  const check = async () => {
    const fresh = await getLink(view.link_id);
    if (!fresh.ok || fresh.data.status === 'processing') return;
    confirming.value = false;
    if (fresh.data.receipt) paid(fresh.data.receipt);
    else declined(m.tryAnother);
  };

  const run = async (work: () => Promise<void>) => {
    if (inFlight.current) return; // a double click before the button shows as disabled
    inFlight.current = true;
    busy.value = true;
    announce(m.processing);
    try {
      await work();
    } finally {
      inFlight.current = false;
      busy.value = false;
    }
  };

  const pay = (req: PayRequest) =>
    run(async () => {
      const scope = view.link_id;
      await settle(await payLink(view.link_id, req, attemptKey(scope, fingerprint(req))), scope);
    });
  const answer = (outcome: 'complete' | 'fail') =>
    run(async () => {
      const c = challenge.value!;
      const scope = `${view.link_id}:3ds:${c.id}`;
      await settle(await answerChallenge(view.link_id, c.id, { outcome }, attemptKey(scope, outcome)), scope);
    });

  // A link made without the merchant's order id has its own id there: not the customer's business.
  const ownOrder = view.order_id !== view.link_id;
  let body;
  if (receipt.value) {
    body = (
      <>
        {verification.value && chunk && <chunk.BankVerification url={verification.value} />}
        <Receipt receipt={receipt.value} ownOrder={ownOrder} focus={justPaid.value && !verification.value} />
      </>
    );
  } else if (verification.value && chunk) {
    body = <chunk.BankVerification url={verification.value} />;
  } else if (confirming.value) {
    body = <Confirming onCheck={check} busy={busy.value} />;
  } else if (!view.merchant.accepts_payments) {
    body = <CannotPay restricted={view.merchant.restricted} />;
  } else if (challenge.value) {
    const c = challenge.value;
    body = <Challenge brand={c.brand} lastFour={c.last_four} busy={busy.value} onAnswer={answer} />;
  } else {
    const label = view.preauth ? m.authorize(total) : m.pay(total);
    body = (
      <>
        {failure.value && <Outcome {...failure.value} />}
        {stripe ? (
          chunk && (
            <chunk.PayFields
              view={view}
              label={label}
              busy={busy.value}
              run={run}
              settle={settle}
              fail={show}
              onMethod={(v) => (method.value = v)}
            />
          )
        ) : (
          <>
            {allowed.card && allowed.ach && <MethodChoice value={method.value} onChange={(v) => (method.value = v)} />}
            {method.value === 'card' ? (
              <CardForm
                submitLabel={label}
                busy={busy.value}
                clearSignal={clearCard.value}
                onSubmit={(card: CardInput) => pay({ method: 'card', card })}
              />
            ) : (
              <BankForm
                submitLabel={label}
                busy={busy.value}
                merchantName={view.merchant.name}
                amountText={total}
                dateText={new Intl.DateTimeFormat(intlLocale(), { dateStyle: 'long' }).format(new Date())}
                onSubmit={(bank) => pay({ method: 'ach', bank, authorization_accepted: true })}
              />
            )}
          </>
        )}
        <p class="fine-print">{view.preauth ? m.preauthNote : m.noChargeYet}</p>
      </>
    );
  }

  return (
    <Layout merchant={view.merchant} sandbox={view.sandbox}>
      <section class="summary" aria-labelledby="summary-title">
        <h1 id="summary-title" class="summary__title">
          {m.payTo(view.merchant.name)}
        </h1>
        {view.description && <p class="summary__description">{view.description}</p>}
        <dl class="details details--compact">
          {ownOrder && (
            <div class="details__row">
              <dt>{m.order}</dt>
              <dd>{view.order_id}</dd>
            </div>
          )}
          {view.invoice_number && (
            <div class="details__row">
              <dt>{m.invoice}</dt>
              <dd>{view.invoice_number}</dd>
            </div>
          )}
        </dl>
        <h2 class="visually-hidden">{m.summary}</h2>
        <Amounts amounts={view.amounts} method={receipt.value?.method ?? method.value} />
      </section>
      <div class="payment">{body}</div>
    </Layout>
  );
}
