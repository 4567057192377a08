import { flushPromises, mount } from '@vue/test-utils';
import { defineComponent, h, nextTick, ref } from 'vue';
import { afterEach, describe, expect, it } from 'vitest';
import { fakeRemit } from '@remit/wrapper-core/testing';
import { CompletedTransactions, GetPaymentPage, RequestPaymentonClick } from './index.js';

const remit = fakeRemit('pk_test_abc');
afterEach(() => remit.reset());

describe('@remit/vue components over the real loadRemit', () => {
  it('GetPaymentPage: one script with the key, the slot as text; a click pays and emits success with the transaction', async () => {
    const w = mount(GetPaymentPage, {
      props: { clientKey: 'pk_test_abc', amount: '12.30', baseUrl: 'https://remit.example' },
      slots: { default: () => 'Pay $12.30' },
      attachTo: document.body,
    });
    expect(remit.scripts().map((s) => s.src)).toEqual([
      'https://remit.example/js/dynamic-launch.js?remit_merchant_public_key=pk_test_abc',
    ]);
    remit.runScript();
    expect(w.text()).toBe('Pay $12.30');
    await w.get('button').trigger('click');
    await flushPromises();
    expect(remit.calls).toEqual(['getPaymentPage(12.30)']);
    remit.resolve({ status: 'succeeded', transaction_id: 'txn_1' });
    await flushPromises();
    expect(w.emitted('success')).toEqual([[{ status: 'succeeded', transaction_id: 'txn_1' }]]);
    expect(w.emitted('close')).toBeUndefined();
    w.unmount();
  });

  it('GetPaymentPage: the appearance prop goes on the loader tag; emits ready once the loader is there', async () => {
    const w = mount(GetPaymentPage, {
      props: { clientKey: 'pk_test_abc', amount: 5, appearance: { theme: 'flat' } },
      attachTo: document.body,
    });
    expect(remit.scripts()[0]!.dataset.appearance).toBe('{"theme":"flat"}');
    expect(w.emitted('ready')).toBeUndefined();
    remit.runScript();
    await flushPromises();
    expect(w.emitted('ready')).toEqual([[{ public_key: 'pk_test_abc' }]]);
    w.unmount();
  });

  it('GetPaymentPage: closing emits close; a refusal emits error with its code; the default text is "Pay"', async () => {
    const w = mount(GetPaymentPage, { props: { clientKey: 'pk_test_abc', amount: 5 }, attachTo: document.body });
    expect(remit.scripts()[0]!.src).toBe(
      `${location.origin}/js/dynamic-launch.js?remit_merchant_public_key=pk_test_abc`,
    );
    remit.runScript();
    expect(w.get('button').text()).toBe('Pay');
    await w.get('button').trigger('click');
    await flushPromises();
    remit.resolve({ status: 'closed', transaction_id: null });
    await flushPromises();
    expect(w.emitted('close')).toEqual([[]]);
    await w.get('button').trigger('click');
    await flushPromises();
    remit.reject(Object.assign(new Error('amount must be more than zero'), { code: 'invalid_amount' }));
    await flushPromises();
    expect(w.emitted('error')![0]![0]).toMatchObject({
      message: 'amount must be more than zero',
      code: 'invalid_amount',
    });
    expect(w.emitted('success')).toBeUndefined();
    w.unmount();
  });

  it('RequestPaymentonClick sends amount and phone_number and emits success with the confirmation', async () => {
    const w = mount(RequestPaymentonClick, {
      props: { clientKey: 'pk_test_abc', amount: 20, phone_number: '+14155550123' },
    });
    remit.runScript();
    expect(w.get('button').text()).toBe('Request payment');
    await w.get('button').trigger('click');
    await flushPromises();
    expect(remit.calls).toEqual(['sendRequestPayment(20, +14155550123)']);
    const sent = { status: 'sent', link_id: 'ord_1', amount: '20.00', phone_last_four: '0123' } as const;
    remit.resolve(sent);
    await flushPromises();
    expect(w.emitted('success')).toEqual([[sent]]);
    w.unmount();
  });

  it('three components on one page add one script and mount one table; a key change remounts it; unmount removes it', async () => {
    const key = ref('pk_test_abc');
    const App = defineComponent(() => () => [
      h(GetPaymentPage, { clientKey: key.value, amount: 1 }),
      h(RequestPaymentonClick, { clientKey: key.value, amount: 1, phone_number: '4155550123' }),
      h(CompletedTransactions, { clientKey: key.value }),
    ]);
    const w = mount(App, { attachTo: document.body });
    expect(remit.scripts()).toHaveLength(1);
    remit.runScript();
    await flushPromises();
    expect(remit.calls).toEqual(['mountTransactions']);
    expect(w.get('[data-remit-widget="completed-transactions"]').text()).toBe('table');
    key.value = 'pk_test_other';
    await nextTick();
    await flushPromises();
    expect(remit.calls).toEqual(['mountTransactions', 'unmount', 'mountTransactions']);
    expect(remit.mounted()).toBe(1);
    w.unmount();
    expect(remit.mounted()).toBe(0);
  });

  it('CompletedTransactions unmounted before the loader arrives mounts nothing; a failed load emits error', async () => {
    const gone = mount(CompletedTransactions, { props: { clientKey: 'pk_test_abc' } });
    gone.unmount();
    remit.runScript();
    await flushPromises();
    expect(remit.calls).toEqual([]);
    remit.reset();
    const w = mount(CompletedTransactions, { props: { clientKey: 'pk_test_abc' } });
    remit.scripts()[0]!.dispatchEvent(new Event('error'));
    await flushPromises();
    expect(w.emitted('error')![0]![0]).toMatchObject({ message: expect.stringContaining('could not load') });
    w.unmount();
  });
});
