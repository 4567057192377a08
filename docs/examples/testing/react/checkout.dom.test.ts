// A merchant's React component test with @remit/testing/dom, in happy-dom (jsdom works the same):
// the shop's checkout renders Remit's components over a fake Remit, and the test asserts what they
// would open and send. No browser, no server, no network. (docs/testing.md)
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { createElement as h, useState } from 'react';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { CompletedTransactions, GetPaymentPage, RequestPaymentonClick } from '@remit/react';
import { installFakeRemit, type FakeRemit } from '@remit/testing/dom';

/** The shop's own component under test (JSX works the same; createElement keeps this file plain TypeScript). */
function Checkout({ total, phone }: { total: number; phone: string }) {
  const [note, setNote] = useState('');
  return h(
    'section',
    null,
    h(
      GetPaymentPage,
      {
        clientKey: 'pk_test_shop',
        amount: total,
        onSuccess: (r) => setNote(`Paid: ${r.transaction_id}`),
        onError: (e) => setNote(`Failed: ${e.message}`),
      },
      `Pay $${total.toFixed(2)}`,
    ),
    h(
      RequestPaymentonClick,
      {
        clientKey: 'pk_test_shop',
        amount: total,
        phone_number: phone,
        onSuccess: (r) => setNote(`Link sent to •••${r.phone_last_four}`),
      },
      'Text me a pay link',
    ),
    h('p', { role: 'status' }, note),
    h(CompletedTransactions, { clientKey: 'pk_test_shop' }),
  );
}

let remit: FakeRemit;
beforeEach(() => {
  remit = installFakeRemit({ publicKey: 'pk_test_shop' });
});
afterEach(cleanup);
const settle = () => act(() => new Promise((r) => setTimeout(r, 0)));

it('Pay opens the pay page for the total, and the shop shows the transaction', async () => {
  render(h(Checkout, { total: 42.5, phone: '(415) 555-0123' }));
  fireEvent.click(screen.getByRole('button', { name: 'Pay $42.50' }));
  await settle();
  expect(remit.opened).toEqual([{ amount: 42.5 }]);
  expect(screen.getByRole('status').textContent).toBe('Paid: txn_fake_1');
  // The loader found the fake: it added no script tag, so nothing was fetched.
  expect(document.querySelectorAll('script[src*="dynamic-launch.js"]')).toHaveLength(0);
});

it('a declined payment reaches the shop as an error', async () => {
  remit.payWith({ error: { code: 'card_declined', message: 'Your card was declined.' } });
  render(h(Checkout, { total: 10, phone: '4155550123' }));
  fireEvent.click(screen.getByRole('button', { name: 'Pay $10.00' }));
  await settle();
  expect(screen.getByRole('status').textContent).toBe('Failed: Your card was declined.');
});

it('the request button sends the amount to the phone', async () => {
  render(h(Checkout, { total: 18, phone: '(415) 555-0123' }));
  fireEvent.click(screen.getByRole('button', { name: 'Text me a pay link' }));
  await settle();
  expect(remit.sent).toEqual([{ amount: 18, phone: '(415) 555-0123' }]);
  expect(screen.getByRole('status').textContent).toBe('Link sent to •••0123');
});

it('the completed-transactions table shows the rows the fake holds', async () => {
  remit.setTransactions([
    {
      transaction_id: 'txn_1',
      date: '2026-11-28T10:00:00Z',
      amount: '12.50',
      brand: 'Visa',
      last_four: '4242',
      status: 'completed',
    },
  ]);
  render(h(Checkout, { total: 1, phone: '4155550123' }));
  await settle();
  expect(remit.mountedTables()).toBe(1);
  expect(screen.getByRole('cell', { name: 'Visa •••• 4242' })).toBeTruthy();
});
