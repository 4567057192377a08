import { afterEach, describe, expect, expectTypeOf, it, vi } from 'vitest';
import type { RemitWidgets } from '@remit/contract';
import { loadRemit, onRemit, resetLoadRemitForTests, SCRIPT_PATH } from './pure.js';

/** `loadRemit`'s appearance and callbacks, and `onRemit`, in happy-dom (the loader itself is played by `window.Remit`). */
const win = window as unknown as { Remit?: RemitWidgets };
afterEach(() => {
  delete win.Remit;
  document.head.innerHTML = '';
  resetLoadRemitForTests();
});

const fire = (type: string, detail: unknown) => document.dispatchEvent(new CustomEvent(type, { detail }));

describe('onRemit', () => {
  it("calls the listener with each event's detail, typed, until stopped", () => {
    const got: string[] = [];
    const stop = onRemit('payment-success', (d) => {
      expectTypeOf(d).toEqualTypeOf<{ status: 'succeeded'; transaction_id: string }>();
      got.push(d.transaction_id);
    });
    fire('remit:payment-success', { status: 'succeeded', transaction_id: 'txn_1' });
    stop();
    fire('remit:payment-success', { status: 'succeeded', transaction_id: 'txn_2' });
    expect(got).toEqual(['txn_1']);
  });

  it('types the DOM events on document too', () => {
    document.addEventListener('remit:error', (e) =>
      expectTypeOf(e.detail).toEqualTypeOf<{ code: string; message: string }>(),
    );
    document.addEventListener('remit:ready', (e) => expectTypeOf(e.detail.public_key).toBeString());
  });
});

describe('loadRemit', () => {
  it("puts the page's appearance on the script tag it adds", () => {
    void loadRemit({
      publicKey: 'pk_test_x',
      baseUrl: 'https://remit.test',
      appearance: { theme: 'night', variables: { colorPrimary: '#7c3aed' } },
    });
    const tag = document.querySelector<HTMLScriptElement>(`script[src^="https://remit.test${SCRIPT_PATH}"]`)!;
    expect(JSON.parse(tag.dataset.appearance!)).toEqual({ theme: 'night', variables: { colorPrimary: '#7c3aed' } });
  });

  it("uses the pinned tag already in the page's HTML (a release's versioned address) instead of adding one", async () => {
    const pinned = document.createElement('script');
    pinned.type = 'text/plain'; // happy-dom must not fetch it
    pinned.setAttribute(
      'src',
      'https://remit.test/js/dynamic-launch.AbCdEf0123456789.js?remit_merchant_public_key=pk_test_x',
    );
    pinned.integrity = 'sha384-pinned';
    document.head.append(pinned);
    const loading = loadRemit({ publicKey: 'pk_test_x', baseUrl: 'https://remit.test', appearance: { theme: 'flat' } });
    expect(document.querySelectorAll('script[src*="/js/dynamic-launch"]')).toHaveLength(1);
    expect(pinned.dataset.appearance).toBe('{"theme":"flat"}');
    win.Remit = { publicKey: 'pk_test_x' } as RemitWidgets;
    pinned.dispatchEvent(new Event('load'));
    await expect(loading).resolves.toBe(win.Remit);
    pinned.remove();
  });

  it('calls onReady even when the loader ran before, and wires onSuccess, onClose and onError to the events', async () => {
    win.Remit = { publicKey: 'pk_test_x' } as RemitWidgets;
    const calls: unknown[] = [];
    const remit = await loadRemit({
      publicKey: 'pk_test_x',
      onReady: (d) => calls.push(['ready', d]),
      onSuccess: (d) => calls.push(['success', d.transaction_id]),
      onClose: (d) => calls.push(['close', d.status]),
      onError: (d) => calls.push(['error', d.code]),
    });
    expect(remit).toBe(win.Remit);
    await Promise.resolve();
    fire('remit:payment-success', { status: 'succeeded', transaction_id: 'txn_9' });
    fire('remit:close', { status: 'closed', transaction_id: null });
    fire('remit:error', { code: 'network_error', message: 'x' });
    expect(calls).toEqual([
      ['ready', { public_key: 'pk_test_x' }],
      ['success', 'txn_9'],
      ['close', 'closed'],
      ['error', 'network_error'],
    ]);
  });

  it('does nothing on the server', async () => {
    vi.stubGlobal('window', undefined);
    expect(await loadRemit({ publicKey: 'pk_test_x', onReady: () => {} })).toBeNull();
    vi.unstubAllGlobals();
  });
});
