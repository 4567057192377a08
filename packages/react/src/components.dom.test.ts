import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { createElement as h, StrictMode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeRemit } from '@remit/wrapper-core/testing';
import { CompletedTransactions, GetPaymentPage, RequestPaymentonClick } from './index.js';

const remit = fakeRemit('pk_test_abc');
afterEach(() => {
  cleanup();
  remit.reset();
});
const flush = () => act(() => new Promise((r) => setTimeout(r, 0)));

describe('@remit/react components over the real loadRemit', () => {
  it('GetPaymentPage: one script with the key, children as text; a click pays and calls onSuccess with the transaction', async () => {
    const onSuccess = vi.fn();
    const onClose = vi.fn();
    render(
      h(
        GetPaymentPage,
        { clientKey: 'pk_test_abc', amount: '12.30', baseUrl: 'https://remit.example', onSuccess, onClose },
        'Pay $12.30',
      ),
    );
    const scripts = remit.scripts();
    expect(scripts).toHaveLength(1);
    expect(scripts[0]!.src).toBe('https://remit.example/js/dynamic-launch.js?remit_merchant_public_key=pk_test_abc');
    remit.runScript();
    fireEvent.click(screen.getByRole('button', { name: 'Pay $12.30' }));
    await flush();
    expect(remit.calls).toEqual(['getPaymentPage(12.30)']);
    remit.resolve({ status: 'succeeded', transaction_id: 'txn_1' });
    await flush();
    expect(onSuccess).toHaveBeenCalledWith({ status: 'succeeded', transaction_id: 'txn_1' });
    expect(onClose).not.toHaveBeenCalled();
  });

  it('GetPaymentPage: the appearance prop goes on the loader tag; onReady once the loader is there', async () => {
    const onReady = vi.fn();
    render(h(GetPaymentPage, { clientKey: 'pk_test_abc', amount: 5, appearance: { theme: 'night' }, onReady }));
    expect(remit.scripts()[0]!.dataset.appearance).toBe('{"theme":"night"}');
    expect(onReady).not.toHaveBeenCalled();
    remit.runScript();
    await flush();
    expect(onReady).toHaveBeenCalledWith({ public_key: 'pk_test_abc' });
  });

  it('GetPaymentPage: closing the pay window calls onClose, not onSuccess; a refusal calls onError with its code', async () => {
    const onSuccess = vi.fn();
    const onClose = vi.fn();
    const onError = vi.fn();
    render(h(GetPaymentPage, { clientKey: 'pk_test_abc', amount: 5, onSuccess, onClose, onError }));
    expect(remit.scripts()[0]!.src).toBe(
      `${location.origin}/js/dynamic-launch.js?remit_merchant_public_key=pk_test_abc`,
    );
    remit.runScript();
    const button = screen.getByRole('button', { name: 'Pay' });
    fireEvent.click(button);
    await flush();
    remit.resolve({ status: 'closed', transaction_id: null });
    await flush();
    expect(onClose).toHaveBeenCalledTimes(1);
    fireEvent.click(button);
    await flush();
    remit.reject(Object.assign(new Error('amount must be more than zero'), { code: 'invalid_amount' }));
    await flush();
    expect(onError).toHaveBeenCalledWith(
      expect.objectContaining({ message: 'amount must be more than zero', code: 'invalid_amount' }),
    );
    expect(onSuccess).not.toHaveBeenCalled();
  });

  it('RequestPaymentonClick sends amount and phone_number and hands the confirmation to onSuccess', async () => {
    const onSuccess = vi.fn();
    render(h(RequestPaymentonClick, { clientKey: 'pk_test_abc', amount: 20, phone_number: '+14155550123', onSuccess }));
    remit.runScript();
    fireEvent.click(screen.getByRole('button', { name: 'Request payment' }));
    await flush();
    expect(remit.calls).toEqual(['sendRequestPayment(20, +14155550123)']);
    const sent = { status: 'sent', link_id: 'ord_1', amount: '20.00', phone_last_four: '0123' } as const;
    remit.resolve(sent);
    await flush();
    expect(onSuccess).toHaveBeenCalledWith(sent);
  });

  it('a script that fails to load calls onError on click, and the next click retries with a new script', async () => {
    const onError = vi.fn();
    render(h(GetPaymentPage, { clientKey: 'pk_test_abc', amount: 5, onError }));
    remit.scripts()[0]!.dispatchEvent(new Event('error'));
    await flush();
    expect(remit.scripts()).toHaveLength(0);
    fireEvent.click(screen.getByRole('button', { name: 'Pay' }));
    await flush();
    expect(remit.scripts()).toHaveLength(1);
    remit.scripts()[0]!.dispatchEvent(new Event('error'));
    await flush();
    expect(onError).toHaveBeenCalledWith(
      expect.objectContaining({ message: expect.stringContaining('could not load') }),
    );
  });

  it('StrictMode: three components, double-mounted, add one script and mount one table; unmount removes it', async () => {
    const view = render(
      h(
        StrictMode,
        null,
        h(GetPaymentPage, { clientKey: 'pk_test_abc', amount: 1 }),
        h(RequestPaymentonClick, { clientKey: 'pk_test_abc', amount: 1, phone_number: '4155550123' }),
        h(CompletedTransactions, { clientKey: 'pk_test_abc' }),
      ),
    );
    expect(remit.scripts()).toHaveLength(1);
    remit.runScript();
    await flush();
    expect(remit.calls).toEqual(['mountTransactions']);
    expect(remit.mounted()).toBe(1);
    expect(view.container.querySelector('[data-remit-widget="completed-transactions"]')!.textContent).toBe('table');
    view.unmount();
    expect(remit.mounted()).toBe(0);
    expect(remit.calls).toEqual(['mountTransactions', 'unmount']);
  });

  it('CompletedTransactions unmounted before the loader arrives mounts nothing', async () => {
    const view = render(h(CompletedTransactions, { clientKey: 'pk_test_abc' }));
    view.unmount();
    remit.runScript();
    await flush();
    expect(remit.mounted()).toBe(0);
    expect(remit.calls).toEqual([]);
  });
});
