import { cleanup, fireEvent, render, screen } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BankForm } from './bank-form.js';
import { locale } from './i18n.js';

const type = (label: string, value: string) => {
  const el = screen.getByLabelText(label) as HTMLInputElement;
  fireEvent.input(el, { target: { value } });
  return el;
};
const props = {
  submitLabel: 'Pay $10.00',
  busy: false,
  merchantName: 'Acme',
  amountText: '$10.00',
  dateText: 'March 5, 2026',
};

describe('BankForm', () => {
  beforeEach(() => {
    locale.value = 'en';
  });
  afterEach(cleanup);

  it('shows the debit authorization naming the merchant and amount, tied to its checkbox', () => {
    render(<BankForm {...props} onSubmit={() => {}} />);
    const box = screen.getByLabelText('I authorize this debit') as HTMLInputElement;
    expect(box.type).toBe('checkbox');
    const text = document.getElementById(box.getAttribute('aria-describedby')!.split(' ')[0]!)!;
    expect(text.textContent).toContain('authorize Acme to debit $10.00');
    expect(text.textContent).toContain('March 5, 2026');
  });

  it('checks the routing number with the ABA checksum and that the account numbers match', async () => {
    render(<BankForm {...props} onSubmit={() => {}} />);
    fireEvent.blur(type('Routing number', '021000022'));
    expect(await screen.findByText('Enter a valid 9-digit routing number')).toBeTruthy();
    type('Account number', '000123456789');
    fireEvent.blur(type('Confirm account number', '000123456788'));
    expect(await screen.findByText('The account numbers do not match')).toBeTruthy();
    const confirm = screen.getByLabelText('Confirm account number');
    expect(confirm.getAttribute('aria-invalid')).toBe('true');
    expect(confirm.getAttribute('aria-describedby')).toBe('bank-account-confirm-error');
  });

  it('will not submit until the authorization is accepted, and the summary says so', async () => {
    const onSubmit = vi.fn();
    render(<BankForm {...props} onSubmit={onSubmit} />);
    type('Account holder name', 'Ada Lovelace');
    type('Routing number', '021000021');
    type('Account number', '000123456789');
    type('Confirm account number', '000123456789');
    fireEvent.click(screen.getByLabelText('Savings'));
    fireEvent.click(screen.getByRole('button', { name: 'Pay $10.00' }));
    const summary = await screen.findByRole('alert');
    expect([...summary.querySelectorAll('a')].map((a) => a.textContent)).toEqual([
      'Accept the debit authorization to pay by bank account',
    ]);
    expect(onSubmit).not.toHaveBeenCalled();
    fireEvent.click(screen.getByLabelText('I authorize this debit'));
    fireEvent.click(screen.getByRole('button', { name: 'Pay $10.00' }));
    expect(onSubmit).toHaveBeenCalledWith({
      holder_name: 'Ada Lovelace',
      routing_number: '021000021',
      account_number: '000123456789',
      account_type: 'savings',
    });
  });

  it('keeps only digits in the number fields', () => {
    render(<BankForm {...props} onSubmit={() => {}} />);
    expect(type('Routing number', '0210-0002 1').value).toBe('021000021');
  });
});
