import { useState } from 'preact/hooks';
import type { MerchantWithKey, PortalPayLink, PortalTransaction, PortalTransactionAction } from '@remit/contract';
import { api } from './api.js';
import { CopyButton } from './copy-button.js';
import { announce, Field } from '@remit/form-kit';
import { dateTime } from './format.js';
import { usePolling } from './polling.js';
import { go } from './router.js';
import { merchant } from './state.js';

/** The chosen merchant's transactions with the sandbox actions, a pay link maker, the clock and settlement. */
export function TransactionsView() {
  const m = merchant.value;
  if (!m) {
    return (
      <p class="empty">
        No merchant yet.{' '}
        <a href="/portal/merchants" onClick={(e) => (e.preventDefault(), go('merchants'))}>
          Onboard one first
        </a>
        .
      </p>
    );
  }
  return <MerchantTransactions key={m.merchant_id} m={m} />;
}

function MerchantTransactions({ m }: { m: MerchantWithKey }) {
  const [list, setList] = useState<PortalTransaction[] | null>(null);
  const [note, setNote] = useState('');
  const [error, setError] = useState('');
  const load = async () => {
    const r = await api.transactions(m.merchant_id);
    if (r.ok) setList(r.data.transactions);
  };
  usePolling(load, [m.merchant_id]);

  const say = (r: { ok: true; data: { message: string } } | { ok: false; message: string }) => {
    if (r.ok) {
      setNote(r.data.message);
      setError('');
      announce(r.data.message);
      void load();
    } else {
      setError(r.message);
      setNote('');
    }
  };
  const act = async (t: PortalTransaction, action: PortalTransactionAction, amount?: string) =>
    say(await api.act(m.merchant_id, t.transaction_id, action, amount));

  return (
    <>
      {m.status !== 'approved' && (
        <p class="alert" role="status">
          {m.status === 'suspended'
            ? `${m.businessname} is suspended by the operator: payments are refused until it is reinstated (remit merchants reinstate).`
            : `${m.businessname} is ${m.status}: links can be made, payments are refused until it is approved (Merchants).`}
        </p>
      )}
      <div class="two">
        <PayLinkForm merchantId={m.merchant_id} />
        <SandboxTools merchantId={m.merchant_id} say={say} />
      </div>
      <div aria-live="polite" class="status-line">
        {note && <p class="note">{note}</p>}
      </div>
      {error && (
        <p class="alert" role="alert">
          {error}
        </p>
      )}
      <section aria-labelledby="txn-title">
        <h2 id="txn-title">Transactions of {m.businessname}</h2>
        <p class="hint">Newest 50; the list refreshes every 2 seconds.</p>
        {list === null ? (
          <p>Loading…</p>
        ) : list.length === 0 ? (
          <p class="empty">No transactions yet. Make a pay link and pay it with the test card 4242 4242 4242 4242.</p>
        ) : (
          <ul class="list" aria-label="Transactions">
            {list.map((t) => (
              <TransactionItem key={t.transaction_id} t={t} act={act} />
            ))}
          </ul>
        )}
      </section>
    </>
  );
}

export function TransactionItem({
  t,
  act,
}: {
  t: PortalTransaction;
  act: (t: PortalTransaction, a: PortalTransactionAction, amount?: string) => void;
}) {
  const [refund, setRefund] = useState(t.amount);
  const sale = t.type === 'Sale' || t.type === 'PreAuth';
  // A link's sale before anyone pays it: no method chosen and nothing netted yet (the API's row says card, net = amount).
  const unpaid = sale && t.status === 'pending' && t.payment_method === 'card' && !t.other_details.last_four;
  // The buttons are the actions the server says the API accepts now (`actions`), no others.
  const offers = (a: PortalTransactionAction) => t.actions.includes(a);
  const id = t.transaction_id;
  return (
    <li class="card item txn" data-transaction-id={id}>
      <div class="item__head">
        <h3 class="item__title">
          {t.type} ${t.amount}
        </h3>
        <span class={`badge badge--${t.status}`}>{t.status}</span>
      </div>
      <dl class="facts">
        <dt>Transaction ID</dt>
        <dd>
          <code>{id}</code>
        </dd>
        <dt>Date</dt>
        <dd>{dateTime(t.created_date)}</dd>
        <dt>Method</dt>
        <dd>
          {unpaid ? 'Not paid yet' : t.payment_method === 'ach' ? 'Bank account' : t.other_details.card_brand || 'Card'}
          {t.other_details.last_four ? ` ending ${t.other_details.last_four}` : ''}
        </dd>
        {!unpaid && (
          <>
            <dt>Net</dt>
            <dd>{t.net_amount.toFixed(2)}</dd>
          </>
        )}
        <dt>Settled</dt>
        <dd>{t.settled ? 'yes' : 'no'}</dd>
      </dl>
      <div class="actions">
        {offers('refund') && (
          <form
            class="inline-form"
            onSubmit={(e) => {
              e.preventDefault();
              act(t, 'refund', refund);
            }}
          >
            <label class="label" for={`refund-${id}`}>
              Refund amount
            </label>
            <input
              class="input input--short"
              id={`refund-${id}`}
              inputMode="decimal"
              value={refund}
              onInput={(e) => setRefund(e.currentTarget.value)}
            />
            <button type="submit" class="button button--small">
              Refund
            </button>
          </form>
        )}
        {offers('void') && (
          <button type="button" class="button button--small button--secondary" onClick={() => act(t, 'void')}>
            Void
          </button>
        )}
        {offers('capture') && (
          <button type="button" class="button button--small" onClick={() => act(t, 'capture')}>
            Capture
          </button>
        )}
        {offers('ach-approve') && (
          <button type="button" class="button button--small" onClick={() => act(t, 'ach-approve')}>
            Approve ACH debit
          </button>
        )}
        {offers('ach-decline') && (
          <button type="button" class="button button--small button--secondary" onClick={() => act(t, 'ach-decline')}>
            Decline ACH debit
          </button>
        )}
      </div>
    </li>
  );
}

function PayLinkForm({ merchantId }: { merchantId: string }) {
  const [amount, setAmount] = useState('10.00');
  const [email, setEmail] = useState('customer@example.com');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [made, setMade] = useState<PortalPayLink | null>(null);
  const submit = async (e: Event) => {
    e.preventDefault();
    const r = await api.payLink(merchantId, { amount, email: email || undefined });
    if (r.ok) {
      setErrors({});
      setMade(r.data);
      announce('Pay link created.');
      return;
    }
    const byField = Object.fromEntries((r.errors ?? []).map((x) => [x.path, x.message]));
    setErrors(Object.keys(byField).length ? byField : { amount: r.message });
  };
  return (
    <form class="card" onSubmit={submit} noValidate aria-labelledby="paylink-title">
      <h2 id="paylink-title">Create a pay link</h2>
      <Field
        id="paylink-amount"
        label="Amount (USD)"
        inputMode="decimal"
        value={amount}
        error={errors.amount}
        onInput={(e) => setAmount(e.currentTarget.value)}
      />
      <Field
        id="paylink-email"
        label="Customer email (optional)"
        type="email"
        hint="The link, and the receipt once paid, are sent here (to the sandbox inbox)."
        value={email}
        error={errors.email}
        onInput={(e) => setEmail(e.currentTarget.value)}
      />
      <button type="submit" class="button">
        Create pay link
      </button>
      {made && (
        <p class="made">
          <a href={made.pay_link} target="_blank" rel="noopener noreferrer" id="made-pay-link">
            Open the pay page (new tab)
          </a>{' '}
          <CopyButton text={made.pay_link} label="Copy pay link" />
        </p>
      )}
    </form>
  );
}

function SandboxTools({
  merchantId,
  say,
}: {
  merchantId: string;
  say: (r: { ok: true; data: { message: string } } | { ok: false; message: string }) => void;
}) {
  const [hours, setHours] = useState('24');
  return (
    <section class="card" aria-labelledby="tools-title">
      <h2 id="tools-title">Sandbox clock and settlement</h2>
      <form
        onSubmit={async (e) => {
          e.preventDefault();
          say(await api.advanceClock(merchantId, hours));
        }}
      >
        <Field
          id="clock-hours"
          label="Hours to move the clock forward"
          inputMode="decimal"
          value={hours}
          onInput={(e) => setHours(e.currentTarget.value)}
        />
        <button type="submit" class="button button--secondary">
          Advance the clock
        </button>
      </form>
      <p class="hint">Settling closes a batch now: settled payments can be refunded but no longer voided.</p>
      <button type="button" class="button button--secondary" onClick={async () => say(await api.settle(merchantId))}>
        Settle now
      </button>
    </section>
  );
}
