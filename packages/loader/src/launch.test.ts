import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { PaymentResult, RemitWidgets } from '@remit/contract';
import type { BootWidgets, WidgetUI } from './ui.js';

/**
 * dynamic-launch.js in happy-dom: the script tag is put on the page as a merchant would, the
 * module is evaluated as the browser would run it, and the widget chunk's script tag is caught
 * before it is fetched (the test plays the chunk by calling `window.__remitUI`).
 */
type Win = Window & {
  Remit?: RemitWidgets;
  __remitUI?: (b: BootWidgets) => void;
  getPaymentPage?: unknown;
  sendRequestPayment?: unknown;
};
const win = window as unknown as Win;
const KEY = 'pk_test_abcdefghijklmnop';
const SRC = `https://remit.test/js/dynamic-launch.js?remit_merchant_public_key=${KEY}`;

let chunks: HTMLScriptElement[];
let errors: string[];
let events: Array<{ type: string; detail: unknown }>;
const record = (e: Event) => events.push({ type: e.type, detail: (e as CustomEvent).detail });

async function launch(src = SRC, nonce = 'n0nce') {
  const tag = document.createElement('script');
  tag.type = 'text/plain'; // stands for the merchant's tag; happy-dom must not fetch it
  tag.setAttribute('src', src);
  tag.nonce = nonce;
  document.head.appendChild(tag);
  vi.resetModules();
  await import('./launch.js');
}

/** Plays the chunk: the loader gets these operations. */
function chunkRuns(ui: Partial<WidgetUI>) {
  const boot = vi.fn<BootWidgets>(
    () => ({ pay: vi.fn(), request: vi.fn(), table: vi.fn(() => () => {}), ...ui }) as WidgetUI,
  );
  win.__remitUI!(boot);
  return boot;
}

// Every evaluation of the loader leaves its observer on the shared document: each test disconnects its own.
const observers: MutationObserver[] = [];
class TrackedObserver extends MutationObserver {
  constructor(cb: MutationCallback) {
    super(cb);
    observers.push(this);
  }
}

// ...and its intent listeners (pointerover, focusin) on the document: removed after each test too.
const listeners: Array<[string, EventListenerOrEventListenerObject, boolean | AddEventListenerOptions | undefined]> =
  [];
const addListener = document.addEventListener.bind(document);

beforeEach(() => {
  vi.stubGlobal('MutationObserver', TrackedObserver);
  vi.spyOn(document, 'addEventListener').mockImplementation(
    (type: string, fn: EventListenerOrEventListenerObject, opts?: boolean | AddEventListenerOptions) => {
      if (!type.startsWith('remit:')) listeners.push([type, fn, opts]);
      addListener(type, fn, opts);
    },
  );
  chunks = [];
  errors = [];
  events = [];
  delete win.Remit;
  delete win.__remitUI;
  delete win.getPaymentPage;
  delete win.sendRequestPayment;
  document.head.innerHTML = '';
  document.body.innerHTML = '';
  const append = document.head.append.bind(document.head);
  vi.spyOn(document.head, 'append').mockImplementation((...nodes) => {
    for (const n of nodes) if (n instanceof HTMLScriptElement && n.src.includes('/js/widgets.')) chunks.push(n);
    append(...nodes.filter((n) => !(n instanceof HTMLScriptElement && n.src.includes('/js/widgets.'))));
  });
  vi.spyOn(console, 'error').mockImplementation((m: string) => void errors.push(m));
  for (const t of ['remit:payment-success', 'remit:close', 'remit:error']) document.addEventListener(t, record);
});
afterEach(() => {
  for (const o of observers.splice(0)) o.disconnect();
  for (const [type, fn, opts] of listeners.splice(0)) document.removeEventListener(type, fn, opts);
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  for (const t of ['remit:payment-success', 'remit:close', 'remit:error']) document.removeEventListener(t, record);
});

describe('globals', () => {
  it('defines getPaymentPage, sendRequestPayment and window.Remit with the key of its own address, loading nothing yet', async () => {
    await launch();
    expect(typeof win.getPaymentPage).toBe('function');
    expect(typeof win.sendRequestPayment).toBe('function');
    expect(win.Remit!.publicKey).toBe(KEY);
    expect(win.Remit!.getPaymentPage).toBe(win.getPaymentPage);
    expect(chunks).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('dispatches remit:ready with its key once window.Remit is there', async () => {
    const ready: unknown[] = [];
    const on = (e: Event) => ready.push([(e as CustomEvent).detail, typeof win.Remit]);
    document.addEventListener('remit:ready', on);
    await launch();
    document.removeEventListener('remit:ready', on);
    expect(ready).toEqual([[{ public_key: KEY }, 'object']]);
  });

  it('loaded twice, defines everything once', async () => {
    await launch();
    const first = win.Remit;
    const pay = win.getPaymentPage;
    await launch(SRC.replace(KEY, 'pk_test_other0000'));
    expect(win.Remit).toBe(first);
    expect(win.getPaymentPage).toBe(pay);
    expect(win.Remit!.publicKey).toBe(KEY);
  });
});

describe('bad input: a console error, a remit:error event and a rejected Promise; nothing loaded', () => {
  it.each([[0], [-5], ['ten'], [12.345], [null], [undefined], [Number.NaN], [{}], ['1e3']])(
    'amount %j',
    async (amount) => {
      await launch();
      const err = await win.Remit!.getPaymentPage(amount as never).catch((e) => e);
      expect(err).toBeInstanceOf(Error);
      expect(err.code).toBe('invalid_amount');
      expect(err.message).toContain('amount must be a number above 0 with at most 2 decimals');
      expect(errors).toEqual([`Remit: ${err.message}`]);
      expect(events).toEqual([{ type: 'remit:error', detail: { code: 'invalid_amount', message: err.message } }]);
      expect(chunks).toEqual([]);
    },
  );

  it('a missing or malformed key is reported at load and by every call', async () => {
    await launch('https://remit.test/js/dynamic-launch.js?remit_merchant_public_key=sk_live_oops');
    expect(errors[0]).toBe('Remit: the script address needs ?remit_merchant_public_key=pk_… (got "sk_live_oops")');
    const err = await win.Remit!.getPaymentPage(10).catch((e) => e);
    expect(err.code).toBe('invalid_key');
    expect(chunks).toEqual([]);
  });
});

describe('using a widget', () => {
  it("passes the script address's ?locale= to the chunk", async () => {
    await launch(`${SRC}&locale=pt-BR`);
    win.Remit!.getPaymentPage('5').catch(() => 0);
    const boot = chunkRuns({ pay: vi.fn(async () => ({ status: 'closed', transaction_id: null }) as PaymentResult) });
    expect(boot).toHaveBeenCalledWith({ base: 'https://remit.test', key: KEY, locale: 'pt-BR' });
  });

  it('loads the chunk once, from its own origin with its own nonce and integrity; resolves and dispatches payment-success', async () => {
    await launch();
    const button = document.createElement('button');
    document.body.append(button);
    button.focus();
    const result: PaymentResult = { status: 'succeeded', transaction_id: 'txn_1' };
    const pending = win.Remit!.getPaymentPage('12.50');
    expect(chunks).toHaveLength(1);
    expect(chunks[0]!.src).toBe('https://remit.test/js/widgets.test000000.js');
    expect(chunks[0]!.nonce).toBe('n0nce');
    // Pinned: the page's integrity on the loader reaches the chunk it adds (CORS mode, which integrity needs).
    expect(chunks[0]!.integrity).toBe('sha384-test');
    expect(chunks[0]!.getAttribute('crossorigin')).toBe('');
    const pay = vi.fn(async () => result);
    const boot = chunkRuns({ pay });
    expect(boot).toHaveBeenCalledWith({ base: 'https://remit.test', key: KEY, locale: null });
    await expect(pending).resolves.toEqual(result);
    expect(pay).toHaveBeenCalledWith('12.50', button, null, undefined);
    expect(events).toEqual([{ type: 'remit:payment-success', detail: result }]);
    // A second use reuses the chunk.
    await win.Remit!.getPaymentPage(3);
    expect(chunks).toHaveLength(1);
  });

  it('closing resolves {status:"closed"} and dispatches remit:close', async () => {
    await launch();
    const pending = win.Remit!.getPaymentPage(5);
    chunkRuns({ pay: async () => ({ status: 'closed', transaction_id: null }) });
    await expect(pending).resolves.toEqual({ status: 'closed', transaction_id: null });
    expect(events).toEqual([{ type: 'remit:close', detail: { status: 'closed', transaction_id: null } }]);
  });

  it("a server refusal rejects with the server's code and message, logged and dispatched", async () => {
    await launch();
    const pending = win.Remit!.sendRequestPayment(5, '(415) 555-0123');
    const failure = Object.assign(new Error('Too many requests (widget_sms_phone …)'), {
      code: 'rate_limited',
      status: 429,
    });
    const request = vi.fn(async () => Promise.reject(failure));
    chunkRuns({ request });
    const err = await pending.catch((e) => e);
    expect(err).toMatchObject({ code: 'rate_limited', message: 'Too many requests (widget_sms_phone …)' });
    expect(request).toHaveBeenCalledWith('5', '(415) 555-0123', document.body);
    expect(errors).toEqual(['Remit: Too many requests (widget_sms_phone …)']);
    expect(events).toEqual([
      { type: 'remit:error', detail: { code: 'rate_limited', message: 'Too many requests (widget_sms_phone …)' } },
    ]);
  });

  it('a chunk that fails to load rejects load_failed; the next call tries again', async () => {
    await launch();
    const first = win.Remit!.getPaymentPage(5);
    chunks[0]!.dispatchEvent(new Event('error'));
    await expect(first).rejects.toMatchObject({
      code: 'load_failed',
      message: 'could not load the widgets from https://remit.test',
    });
    const second = win.Remit!.getPaymentPage(5);
    expect(chunks).toHaveLength(2);
    chunkRuns({ pay: async () => ({ status: 'closed', transaction_id: null }) });
    await expect(second).resolves.toMatchObject({ status: 'closed' });
  });
});

describe('warming up on intent', () => {
  it('the pointer or focus reaching a button loads the chunk once, before any click; elsewhere nothing', async () => {
    await launch();
    const p = document.createElement('p');
    const button = document.createElement('button');
    const inner = document.createElement('span');
    button.append(inner);
    document.body.append(p, button);
    p.dispatchEvent(new Event('pointerover', { bubbles: true }));
    expect(chunks).toEqual([]);
    inner.dispatchEvent(new Event('pointerover', { bubbles: true }));
    expect(chunks).toHaveLength(1);
    button.focus();
    button.dispatchEvent(new Event('pointerover', { bubbles: true }));
    expect(chunks).toHaveLength(1);
    // The click then finds the chunk there: no second script.
    const pay = vi.fn(async () => ({ status: 'closed' as const, transaction_id: null }));
    chunkRuns({ pay });
    await win.Remit!.getPaymentPage(5);
    expect(pay).toHaveBeenCalledTimes(1);
    expect(chunks).toHaveLength(1);
  });

  it('keyboard focus on a button warms up too; a failed warm-up is silent and the click tries again', async () => {
    await launch();
    const button = document.createElement('button');
    document.body.append(button);
    button.focus();
    expect(chunks).toHaveLength(1);
    chunks[0]!.dispatchEvent(new Event('error'));
    await new Promise((r) => setTimeout(r, 0));
    expect(errors).toEqual([]);
    const pending = win.Remit!.getPaymentPage(5);
    expect(chunks).toHaveLength(2);
    chunkRuns({ pay: async () => ({ status: 'closed', transaction_id: null }) });
    await expect(pending).resolves.toMatchObject({ status: 'closed' });
  });

  it('with a bad key, nothing is warmed', async () => {
    await launch('https://remit.test/js/dynamic-launch.js');
    const button = document.createElement('button');
    document.body.append(button);
    button.dispatchEvent(new Event('pointerover', { bubbles: true }));
    expect(chunks).toEqual([]);
  });
});

describe('#remit_complete_transactions', () => {
  it('is filled when on the page at load, and when added later (once per element)', async () => {
    document.body.innerHTML = '<table id="remit_complete_transactions"></table>';
    await launch();
    expect(chunks).toHaveLength(1);
    const table = vi.fn(() => () => {});
    chunkRuns({ table });
    await vi.waitFor(() => expect(table).toHaveBeenCalledTimes(1));
    expect(table.mock.calls[0]).toEqual([document.getElementById('remit_complete_transactions')]);

    // A single-page app swaps the view: a new table appears later.
    document.body.innerHTML = '';
    const later = document.createElement('table');
    later.id = 'remit_complete_transactions';
    document.body.append(later);
    await vi.waitFor(() => expect(table).toHaveBeenCalledTimes(2));
    expect(table.mock.calls[1]).toEqual([later]);
    document.body.append(document.createElement('p'));
    await new Promise((r) => setTimeout(r, 20));
    expect(table).toHaveBeenCalledTimes(2);
  });

  it('mountTransactions returns an unmount that also works before the chunk arrived', async () => {
    await launch();
    const el = document.createElement('div');
    const off = win.Remit!.mountTransactions(el);
    off();
    const table = vi.fn(() => () => {});
    chunkRuns({ table });
    await new Promise((r) => setTimeout(r, 10));
    expect(table).not.toHaveBeenCalled();
  });
});
