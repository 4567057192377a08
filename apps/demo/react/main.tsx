/** @jsxImportSource react */
import { StrictMode, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { CompletedTransactions, GetPaymentPage, RequestPaymentonClick } from '@remit/react';
// The shop's stylesheet: the three demo sites look alike.
import '../shop/shop.css';

// The demo server writes the Remit server and the public key into the page (`?key=` overrides).
const meta = (name: string) => document.querySelector<HTMLMetaElement>(`meta[name="${name}"]`)!.content;
const remit = { clientKey: meta('remit-key'), baseUrl: meta('remit-url') };

function Shop() {
  const [status, setStatus] = useState('');
  const [phone, setPhone] = useState('(415) 555-0123');
  const failed = (e: Error) => setStatus(`Error: ${e.message}`);
  return (
    <main aria-labelledby="shop-title">
      <h1 id="shop-title">Remit demo shop</h1>
      <p className="lead">A React app on its own origin, with @remit/react.</p>
      <section aria-labelledby="mug">
        <h2 id="mug">Blue mug</h2>
        <p>$12.50</p>
        <GetPaymentPage
          {...remit}
          amount="12.50"
          onSuccess={(r) => setStatus(r.status === 'succeeded' ? `Paid: ${r.transaction_id}` : '')}
          onClose={() => setStatus('Payment window closed')}
          onError={failed}
        >
          Buy for $12.50
        </GetPaymentPage>
      </section>
      <section aria-labelledby="request">
        <h2 id="request">Ask a customer to pay</h2>
        <label htmlFor="phone">Customer phone</label>
        <input id="phone" type="tel" autoComplete="tel" value={phone} onChange={(e) => setPhone(e.target.value)} />
        <RequestPaymentonClick
          {...remit}
          amount={20}
          phone_number={phone}
          onSuccess={(r) => setStatus(`Payment request sent to the phone ending ${r.phone_last_four}`)}
          onError={failed}
        >
          Text a $20.00 payment request
        </RequestPaymentonClick>
      </section>
      <section aria-labelledby="done">
        <h2 id="done">Recent sales</h2>
        <CompletedTransactions {...remit} onError={failed} />
      </section>
      <p role="status">{status}</p>
    </main>
  );
}

createRoot(document.getElementById('app')!).render(
  <StrictMode>
    <Shop />
  </StrictMode>,
);
