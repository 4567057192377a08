import { cleanup, fireEvent, render, screen } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CardForm } from './card-form.js';
import { loadLocale, locale } from './i18n.js';

const type = (label: string | RegExp, value: string) => {
  const el = screen.getByLabelText(label) as HTMLInputElement;
  fireEvent.input(el, { target: { value } });
  return el;
};
const leave = (el: HTMLElement) => fireEvent.blur(el);

describe('CardForm', () => {
  beforeEach(() => {
    locale.value = 'en';
    document.body.innerHTML = '<div id="live" aria-live="polite"></div>';
  });
  afterEach(cleanup);

  it('has the autocomplete, inputmode and type a card form needs', () => {
    render(<CardForm submitLabel="Pay $10.00" busy={false} onSubmit={() => {}} />);
    const expected: Array<[string, string]> = [
      ['Card number', 'cc-number'],
      ['Expiry date', 'cc-exp'],
      ['Security code', 'cc-csc'],
      ['Name on card', 'cc-name'],
      ['ZIP code', 'postal-code'],
    ];
    for (const [label, ac] of expected) {
      const el = screen.getByLabelText(label) as HTMLInputElement;
      expect(el.getAttribute('autocomplete')).toBe(ac);
      expect(el.getAttribute('type')).toBe('text');
    }
    for (const label of ['Card number', 'Expiry date', 'Security code', 'ZIP code']) {
      expect(screen.getByLabelText(label).getAttribute('inputmode')).toBe('numeric');
    }
  });

  it('spaces the number as typed and shows the brand', () => {
    render(<CardForm submitLabel="Pay" busy={false} onSubmit={() => {}} />);
    const n = type('Card number', '378282246310005');
    expect(n.value).toBe('3782 822463 10005');
    expect(screen.getByText('American Express')).toBeTruthy();
    expect(screen.getByText('4 digits')).toBeTruthy();
  });

  it('names Mastercard 2-series and Discover 622126–622925 as the core does, and no brand just outside them', () => {
    render(<CardForm submitLabel="Pay" busy={false} onSubmit={() => {}} />);
    const brand = () => document.getElementById('card-brand')?.textContent ?? '';
    type('Card number', '2221000000000009');
    expect(brand()).toContain('Mastercard');
    type('Card number', '2220000000000000');
    expect(brand()).toBe('');
    type('Card number', '6221260000000000');
    expect(brand()).toContain('Discover');
    type('Card number', '6221250000000000');
    expect(brand()).toBe('');
  });

  it('shows an error beside a field when the customer leaves it, tied by aria-describedby and announced', async () => {
    render(<CardForm submitLabel="Pay" busy={false} onSubmit={() => {}} />);
    const n = type('Card number', '4242 4242 4242 4241');
    expect(n.getAttribute('aria-invalid')).toBeNull();
    leave(n);
    const msg = await screen.findByText('Enter a valid card number');
    expect(n.getAttribute('aria-invalid')).toBe('true');
    expect(n.getAttribute('aria-describedby')).toContain(msg.id);
    await vi.waitFor(() => expect(document.getElementById('live')!.textContent).toBe('Enter a valid card number'));
    // fixed: the error goes away while typing
    type('Card number', '4242424242424242');
    expect(document.getElementById('card-number-error')).toBeNull();
    expect(n.getAttribute('aria-invalid')).toBeNull();
  });

  it('checks expiry in the past, the CVC length per brand and the ZIP', async () => {
    render(<CardForm submitLabel="Pay" busy={false} onSubmit={() => {}} />);
    type('Card number', '378282246310005');
    leave(type('Expiry date', '01 / 20'));
    leave(type('Security code', '123'));
    leave(type('ZIP code', '12')); // a postal code has 3 to 10 characters (any country's: card-rules.ts)
    expect(await screen.findByText('This card has expired')).toBeTruthy();
    expect(screen.getByText('Enter the 4-digit security code')).toBeTruthy();
    expect(screen.getByText('Enter a valid ZIP or postal code')).toBeTruthy();
  });

  it('on submit lists every error in a focused summary linking to the fields, and sends nothing', async () => {
    const onSubmit = vi.fn();
    render(<CardForm submitLabel="Pay" busy={false} onSubmit={onSubmit} />);
    type('Card number', '4242');
    fireEvent.click(screen.getByRole('button', { name: 'Pay' }));
    const summary = await screen.findByRole('alert');
    expect(summary.textContent).toContain('There is a problem');
    const links = summary.querySelectorAll('a');
    expect([...links].map((a) => a.getAttribute('href'))).toEqual([
      '#card-number',
      '#card-expiry',
      '#card-cvc',
      '#card-name',
      '#card-zip',
    ]);
    expect(document.activeElement).toBe(summary);
    fireEvent.click(links[2]!);
    expect(document.activeElement).toBe(screen.getByLabelText('Security code'));
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('submits the card as the pay call takes it', () => {
    const onSubmit = vi.fn();
    render(<CardForm submitLabel="Pay" busy={false} onSubmit={onSubmit} />);
    type('Card number', '4242 4242 4242 4242');
    type('Expiry date', '12 / 34');
    type('Security code', '123');
    type('Name on card', ' Ada Lovelace ');
    type('ZIP code', '94107');
    fireEvent.click(screen.getByRole('button', { name: 'Pay' }));
    expect(onSubmit).toHaveBeenCalledWith({
      number: '4242424242424242',
      exp_month: 12,
      exp_year: 2034,
      cvc: '123',
      name: 'Ada Lovelace',
      zip: '94107',
    });
  });

  it('while busy the button is disabled and says so', () => {
    render(<CardForm submitLabel="Pay" busy onSubmit={() => {}} />);
    const b = screen.getByRole('button', { name: 'Processing…' }) as HTMLButtonElement;
    expect(b.disabled).toBe(true);
  });

  it('speaks Spanish once its chunk is loaded', async () => {
    await loadLocale('es');
    locale.value = 'es';
    render(<CardForm submitLabel="Pagar" busy={false} onSubmit={() => {}} />);
    leave(type('Número de tarjeta', '1234'));
    expect(await screen.findByText('Introduzca un número de tarjeta válido')).toBeTruthy();
  });
});
