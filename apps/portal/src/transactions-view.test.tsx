import { cleanup, render } from '@testing-library/preact';
import type { PortalTransaction } from '@remit/contract';
import { afterEach, describe, expect, it } from 'vitest';
import { TransactionItem } from './transactions-view.js';

const row = (over: Partial<PortalTransaction> = {}): PortalTransaction => ({
  transaction_id: 'txn_1',
  amount: '12.50',
  created_date: '2026-01-02T03:04:05.000Z',
  fee_percentage: '0',
  net_amount: 12.5,
  other_details: { auth_code: '', card_brand: '', last_four: '' },
  status: 'pending',
  is_status: 0,
  type: 'Sale',
  payment_method: 'card',
  settled: false,
  order_id: 'ord_1',
  actions: [],
  ...over,
});

/** The facts list as "term: value" lines. */
const facts = () =>
  [...document.querySelectorAll('dt')]
    .map((dt) => `${dt.textContent}: ${dt.nextElementSibling!.textContent}`)
    .filter((f) => !f.startsWith('Date'));

describe('a transaction in the portal', () => {
  afterEach(cleanup);

  it('an unpaid link says it is not paid yet, with no method and no net', () => {
    render(<TransactionItem t={row()} act={() => {}} />);
    expect(facts()).toEqual(['Transaction ID: txn_1', 'Method: Not paid yet', 'Settled: no']);
  });

  it('a paid card sale shows its card and its net', () => {
    render(
      <TransactionItem
        t={row({
          status: 'completed',
          is_status: 2,
          net_amount: 11.84,
          fee_percentage: '2.9',
          other_details: { auth_code: 'A1', card_brand: 'Visa', last_four: '4242' },
        })}
        act={() => {}}
      />,
    );
    expect(facts()).toEqual(['Transaction ID: txn_1', 'Method: Visa ending 4242', 'Net: 11.84', 'Settled: no']);
  });

  it('an ACH debit waiting to clear is paid: bank account and net shown', () => {
    render(<TransactionItem t={row({ payment_method: 'ach', net_amount: 12.0 })} act={() => {}} />);
    expect(facts()).toEqual(['Transaction ID: txn_1', 'Method: Bank account', 'Net: 12.00', 'Settled: no']);
  });

  it('shows the buttons the server offers and no others: a settled sale has Refund, no Void', () => {
    const buttons = () => [...document.querySelectorAll('.actions button')].map((b) => b.textContent!.trim());
    render(
      <TransactionItem
        t={row({ status: 'completed', is_status: 2, settled: true, actions: ['refund'] })}
        act={() => {}}
      />,
    );
    expect(buttons()).toEqual(['Refund']);
    cleanup();
    render(
      <TransactionItem
        t={row({ type: 'PreAuth', status: 'authorized', is_status: 1, actions: ['void', 'capture'] })}
        act={() => {}}
      />,
    );
    expect(buttons()).toEqual(['Void', 'Capture']);
    cleanup();
    render(
      <TransactionItem t={row({ payment_method: 'ach', actions: ['ach-approve', 'ach-decline'] })} act={() => {}} />,
    );
    expect(buttons()).toEqual(['Approve ACH debit', 'Decline ACH debit']);
    cleanup();
    // A completed sale with nothing offered (what the server answers for a voided or refunded one) has no button.
    render(<TransactionItem t={row({ status: 'voided', is_status: 4, actions: [] })} act={() => {}} />);
    expect(buttons()).toEqual([]);
  });
});
