import { useState } from 'preact/hooks';
import { api } from './api.js';
import { announce } from '@remit/form-kit';
import { CopyButton } from './copy-button.js';
import { dateTime } from './format.js';
import { usePolling } from './polling.js';
import { go, type View } from './router.js';
import { merchant, merchantId, merchants, setMerchants } from './state.js';
import { VerificationFacts } from './verification.js';

/** The client's merchants with status and keys; onboard a demo merchant in one click; approve. */
export function MerchantsView() {
  const [busy, setBusy] = useState('');
  const [error, setError] = useState('');
  /** The merchant just approved: the page says what to do with it next. */
  const [approved, setApproved] = useState('');
  usePolling(async () => {
    const r = await api.merchants();
    if (r.ok) setMerchants(r.data.merchants);
  });

  const onboardDemo = async () => {
    setBusy('onboard');
    setError('');
    const example = await api.onboardingExample();
    const r = example.ok ? await api.onboard(example.data) : example;
    setBusy('');
    if (!r.ok) return setError(r.message);
    const made = r.data.merchant;
    setMerchants([made, ...merchants.value]);
    merchantId.value = made.merchant_id;
    announce(`${made.businessname} onboarded; it is pending approval.`);
  };

  const approve = async (id: string, name: string) => {
    setBusy(id);
    setError('');
    const r = await api.approve(id);
    setBusy('');
    if (!r.ok) return setError(r.message);
    setMerchants(merchants.value.map((m) => (m.merchant_id === id ? r.data.merchant : m)));
    // The next step (a pay link, a snippet) is for this merchant, so it becomes the chosen one.
    merchantId.value = id;
    setApproved(name);
    announce(`${name} approved: it can take payments now. Next: take a test payment.`);
  };

  return (
    <>
      <div class="actions">
        <button type="button" class="button" onClick={onboardDemo} disabled={busy === 'onboard'}>
          {busy === 'onboard' ? 'Onboarding…' : 'Onboard a demo merchant'}
        </button>
        <button type="button" class="button button--secondary" onClick={() => go('onboarding')}>
          Review and edit the submission first
        </button>
      </div>
      {error && (
        <p class="alert" role="alert">
          {error}
        </p>
      )}
      {approved && <NextStep name={approved} />}
      {merchants.value.length === 0 ? (
        <p class="empty">No merchants yet. Onboard a demo merchant to start: it is a complete, valid submission.</p>
      ) : (
        <ul class="list" aria-label="Merchants">
          {merchants.value.map((m) => (
            <li class="card item" key={m.merchant_id}>
              <div class="item__head">
                <h2 class="item__title">{m.businessname}</h2>
                <span class={`badge badge--${m.status}`}>{m.status}</span>
                {merchant.value?.merchant_id === m.merchant_id && <span class="badge">chosen</span>}
              </div>
              <dl class="keys">
                <dt>Merchant ID</dt>
                <dd>
                  <code>{m.merchant_id}</code>
                </dd>
                <dt>Merchant key</dt>
                <dd>
                  <code>{m.merchant_key}</code>{' '}
                  <CopyButton text={m.merchant_key} label={`Copy merchant key of ${m.businessname}`} />
                </dd>
                <dt>Public key</dt>
                <dd>
                  <code>{m.public_data.public_key}</code>{' '}
                  <CopyButton text={m.public_data.public_key} label={`Copy public key of ${m.businessname}`} />
                </dd>
                <dt>Joined</dt>
                <dd>{dateTime(m.join_date)}</dd>
                <VerificationFacts v={m.verification} />
              </dl>
              <div class="actions">
                {m.status === 'pending' && (
                  <button
                    type="button"
                    class="button"
                    disabled={busy === m.merchant_id}
                    onClick={() => approve(m.merchant_id, m.businessname)}
                  >
                    Approve {m.businessname}
                  </button>
                )}
                {merchant.value?.merchant_id !== m.merchant_id && (
                  <button
                    type="button"
                    class="button button--secondary"
                    onClick={() => (merchantId.value = m.merchant_id)}
                  >
                    Choose {m.businessname}
                  </button>
                )}
              </div>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

/** After Approve: the way to a first payment, a pay link or an embedded button. */
function NextStep({ name }: { name: string }) {
  const link = (to: View, text: string) => (
    <a
      href={`/portal/${to}`}
      onClick={(e) => {
        e.preventDefault();
        go(to);
      }}
    >
      {text}
    </a>
  );
  return (
    <p class="next">
      <strong>{name} approved.</strong> Next: take a test payment. {link('transactions', 'Make a pay link')} and pay it
      with the test card 4242 4242 4242 4242, or {link('snippets', 'copy a snippet')} to put a pay button on your page.
    </p>
  );
}
