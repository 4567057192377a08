import type { JSX } from 'preact';
import { useEffect, useRef } from 'preact/hooks';
import { api, setCsrfToken, whenSignedOut } from './api.js';
import { announce } from '@remit/form-kit';
import { go, PER_MERCHANT, TITLES, view, VIEWS, type View } from './router.js';
import { created, merchant, merchantId, merchants, session, setMerchants } from './state.js';
import { SignInView } from './sign-in-view.js';
import { MerchantsView } from './merchants-view.js';
import { OnboardingView } from './onboarding-view.js';
import { WebhooksView } from './webhooks-view.js';
import { InboxView } from './inbox-view.js';
import { TransactionsView } from './transactions-view.js';
import { SnippetsView } from './snippets-view.js';

const VIEW: Record<View, () => JSX.Element> = {
  merchants: MerchantsView,
  onboarding: OnboardingView,
  webhooks: WebhooksView,
  inbox: InboxView,
  transactions: TransactionsView,
  snippets: SnippetsView,
};

export async function loadMerchants(): Promise<void> {
  const r = await api.merchants();
  if (r.ok) setMerchants(r.data.merchants);
}

function signedOut(message?: string) {
  session.value = null;
  created.value = null;
  merchants.value = [];
  merchantId.value = null;
  setCsrfToken('');
  if (message) announce(message);
}

whenSignedOut(() => signedOut('Your session has ended. Sign in again.'));

export function App() {
  useEffect(() => {
    void api.session().then((r) => {
      if (r.ok) {
        setCsrfToken(r.data.csrf_token);
        session.value = r.data;
      } else session.value = null;
    });
  }, []);
  useEffect(() => {
    if (session.value) void loadMerchants();
  }, [session.value?.client_id]);

  const current = view.value;
  const title = session.value ? TITLES[current] : 'Sandbox portal';
  useEffect(() => {
    document.title = `${title} · Remit sandbox`;
  }, [title]);

  if (session.value === undefined) {
    return (
      <main id="main" class="main">
        <p>Loading…</p>
      </main>
    );
  }
  if (session.value === null) return <SignInView />;
  const Current = VIEW[current];
  return (
    <>
      <a class="skip-link" href="#main">
        Skip to content
      </a>
      <header class="topbar">
        <div class="topbar__inner">
          <span class="brand">Remit sandbox</span>
          <span class="who">
            Signed in as <code>{session.value.client_id}</code>
          </span>
          <button
            type="button"
            class="button button--small button--secondary"
            onClick={async () => {
              await api.signOut();
              signedOut('Signed out.');
              history.pushState(null, '', '/portal');
            }}
          >
            Sign out
          </button>
        </div>
        <nav class="nav" aria-label="Portal">
          <ul>
            {VIEWS.map((v) => (
              <li key={v}>
                <a
                  href={`/portal/${v}`}
                  aria-current={v === current ? 'page' : undefined}
                  onClick={(e) => {
                    e.preventDefault();
                    go(v);
                  }}
                >
                  {TITLES[v]}
                </a>
              </li>
            ))}
          </ul>
        </nav>
      </header>
      <main id="main" class="main" tabIndex={-1}>
        <Heading title={TITLES[current]} />
        {merchants.value.length > 0 && PER_MERCHANT.has(current) && <MerchantPicker />}
        <Current />
      </main>
    </>
  );
}

/** The view's h1; it takes focus when the view changes, so a screen reader hears where it is. */
function Heading({ title }: { title: string }) {
  const ref = useRef<HTMLHeadingElement>(null);
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    ref.current?.focus();
  }, [title]);
  return (
    <h1 ref={ref} tabIndex={-1}>
      {title}
    </h1>
  );
}

function MerchantPicker() {
  return (
    <div class="picker">
      <label class="label" for="merchant-picker">
        Merchant
      </label>
      <select
        id="merchant-picker"
        class="input select"
        value={merchant.value?.merchant_id ?? ''}
        onChange={(e) => {
          merchantId.value = e.currentTarget.value;
        }}
      >
        {merchants.value.map((m) => (
          <option key={m.merchant_id} value={m.merchant_id}>
            {m.businessname} ({m.status})
          </option>
        ))}
      </select>
    </div>
  );
}
