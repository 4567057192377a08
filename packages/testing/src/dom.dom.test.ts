import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { createElement as h } from 'react';
import { afterEach, expect, it, vi } from 'vitest';
import { GetPaymentPage, RequestPaymentonClick } from '@remit/react';
import { installFakeRemit } from './dom.js';

/** The fake's own promises beyond the docs' example: one fake per window, pending calls, the loader's refusals and events. */
afterEach(cleanup);
const settle = () => act(() => new Promise((r) => setTimeout(r, 0)));

it('a second install resets and returns the same fake, so a loader that already resolved keeps working', () => {
  const first = installFakeRemit();
  first.opened.push({ amount: 1 });
  const second = installFakeRemit();
  expect(second).toBe(first);
  expect(second.opened).toEqual([]);
});

it("a pending payment settles later; the loader's events reach document", async () => {
  const remit = installFakeRemit();
  remit.payWith('pending');
  const onSuccess = vi.fn();
  const events: string[] = [];
  document.addEventListener('remit:payment-success', (e) => events.push((e as CustomEvent).detail.transaction_id));
  render(h(GetPaymentPage, { clientKey: 'pk_test_fake', amount: '9.99', onSuccess }, 'Pay'));
  fireEvent.click(screen.getByRole('button', { name: 'Pay' }));
  await settle();
  expect(onSuccess).not.toHaveBeenCalled();
  remit.settle({ status: 'succeeded', transaction_id: 'txn_later' });
  await settle();
  expect(onSuccess).toHaveBeenCalledWith({ status: 'succeeded', transaction_id: 'txn_later' });
  expect(events).toEqual(['txn_later']);
});

it('an unreadable phone is refused with the loader code, and still recorded as tried', async () => {
  const remit = installFakeRemit();
  const onError = vi.fn();
  render(h(RequestPaymentonClick, { clientKey: 'pk_test_fake', amount: 5, phone_number: '12', onError }, 'Text'));
  fireEvent.click(screen.getByRole('button', { name: 'Text' }));
  await settle();
  expect(onError.mock.calls[0]![0]).toMatchObject({ code: 'invalid_phone' });
  expect(remit.sent).toEqual([{ amount: 5, phone: '12' }]);
});
