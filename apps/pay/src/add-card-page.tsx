import type { AddCardResult, AddCardView, CardInput } from '@remit/contract';
import { useSignal } from '@preact/signals';
import { useLayoutEffect, useRef } from 'preact/hooks';
import { announce } from '@remit/form-kit';
import type { ApiResult } from './api.js';
import { saveCard } from './card-api.js';
import { CardForm } from './card-form.js';
import { failureOf, type FailureText } from './failure.js';
import { attemptKey, endAttempt } from './idempotency.js';
import { t } from './i18n.js';
import { CannotPay } from './cannot-pay.js';
import { Layout } from './layout.js';
import { Outcome } from './outcome.js';
import { useStripeChunk } from './stripe-chunk.js';

function Saved({ card, merchant, focus }: { card: string; merchant: string; focus: boolean }) {
  const m = t();
  const heading = useRef<HTMLHeadingElement>(null);
  useLayoutEffect(() => {
    if (focus) heading.current?.focus();
  }, []);
  return (
    <section class="panel receipt" aria-labelledby="saved-title">
      <div class="receipt__status" aria-hidden="true">
        ✓
      </div>
      <h2 id="saved-title" tabIndex={-1} ref={heading}>
        {m.savedTitle}
      </h2>
      <p>{m.savedText(card, merchant)}</p>
    </section>
  );
}

/** `/pay/card/{token}`: the customer saves a card with the merchant; nothing is charged. */
export function AddCardPage({ view }: { view: AddCardView }) {
  const m = t();
  const saved = useSignal(view.saved_card);
  const justSaved = useSignal(false);
  const busy = useSignal(false);
  const failure = useSignal<(FailureText & { id: number }) | null>(null);
  const clearCard = useSignal(0);
  const inFlight = useRef(false);

  const stripe = view.card_entry.kind === 'stripe';
  const show = (f: FailureText) => (failure.value = { ...f, id: (failure.value?.id ?? 0) + 1 });
  const chunk = useStripeChunk(stripe, () => show({ title: m.notCompletedTitle, message: m.networkError }));

  const run = async (work: () => Promise<void>) => {
    if (inFlight.current) return;
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
  /** The server's answer to a card saved (Remit's fields) or a SetupIntent confirmed (Stripe's). */
  const finish = (res: ApiResult<AddCardResult>, scope: string) => {
    if (res.ok) {
      endAttempt(scope);
      justSaved.value = true;
      saved.value = { brand: res.data.brand, last_four: res.data.last_four };
      return;
    }
    if (res.status !== 0) endAttempt(scope);
    if (res.status === 402) clearCard.value++;
    show(failureOf(res, m));
  };
  const submit = (card: CardInput) =>
    run(async () => {
      const scope = `card:${view.token}`;
      finish(
        await saveCard(
          view.token,
          { card },
          attemptKey(scope, `${card.number.slice(-4)}:${card.exp_month}/${card.exp_year}`),
        ),
        scope,
      );
    });

  return (
    <Layout merchant={view.merchant} sandbox={view.sandbox}>
      <section class="summary" aria-labelledby="summary-title">
        <h1 id="summary-title" class="summary__title">
          {m.addCardTitle(view.merchant.name)}
        </h1>
        <p class="summary__description">{m.addCardIntro(view.customer_first_name, view.merchant.name)}</p>
      </section>
      <div class="payment">
        {saved.value ? (
          <Saved
            card={m.endingIn(saved.value.brand, saved.value.last_four)}
            merchant={view.merchant.name}
            focus={justSaved.value}
          />
        ) : !view.merchant.accepts_payments ? (
          <CannotPay restricted={view.merchant.restricted} />
        ) : (
          <>
            {failure.value && <Outcome {...failure.value} />}
            {!stripe ? (
              <CardForm submitLabel={m.saveCard} busy={busy.value} clearSignal={clearCard.value} onSubmit={submit} />
            ) : (
              chunk && (
                <chunk.SaveFields
                  view={view}
                  label={m.saveCard}
                  busy={busy.value}
                  run={run}
                  settle={finish}
                  fail={show}
                />
              )
            )}
          </>
        )}
      </div>
    </Layout>
  );
}
