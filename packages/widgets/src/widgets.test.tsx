import { fireEvent, render, screen, waitFor } from '@testing-library/preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { WidgetTransactions } from '@remit/contract';
import type { Call } from './api.js';
import { widgetError } from './api.js';
import { pay } from './pay.js';
import { bootWidgets } from './boot.js';
import { request } from './request.js';
import { mountTable, Rows, tableModel } from './transactions.js';

const tx = (i: number) => ({
  transaction_id: `txn_${i}`,
  date: '2026-11-23T12:00:00.000Z',
  amount: '12.50',
  brand: 'Visa',
  last_four: '4242',
  status: 'completed',
});
const pageOf = (n: number, has_more = false, page = 0): WidgetTransactions => ({
  data: Array.from({ length: n }, (_, i) => tx(page * 10 + i)),
  page,
  page_size: 10,
  has_more,
});

afterEach(() => {
  document.body.innerHTML = '';
});

describe('completed transactions table', () => {
  it('shows loading, then rows with date, amount, card and status', async () => {
    let answer!: (v: WidgetTransactions) => void;
    const call = vi.fn(() => new Promise((r) => (answer = r as never))) as unknown as Call;
    const model = tableModel(call);
    render(
      <table>
        <Rows model={model} />
      </table>,
    );
    void model.load(0);
    expect(screen.getByRole('status').textContent).toContain('Loading transactions…');
    answer(pageOf(2));
    await waitFor(() => expect(screen.getAllByRole('row')).toHaveLength(4)); // head, 2 rows, foot
    const cells = screen.getAllByRole('row')[1]!.querySelectorAll('td');
    expect([...cells].map((c) => c.textContent)).toEqual(['Nov 23, 2026', '$12.50', 'Visa •••• 4242', 'Completed']);
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Date', 'Amount', 'Card', 'Status']);
    expect(call).toHaveBeenCalledWith('/transactions?page=0');
  });

  it('empty: says so', async () => {
    const model = tableModel((async () => pageOf(0)) as Call);
    render(
      <table>
        <Rows model={model} />
      </table>,
    );
    await model.load(0);
    await screen.findByText('No completed transactions yet.');
    expect((screen.getByRole('button', { name: 'Next page' }) as HTMLButtonElement).disabled).toBe(true);
    expect((screen.getByRole('button', { name: 'Previous page' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('error: shows the message and a retry that loads again', async () => {
    const call = vi.fn(async () => {
      throw widgetError('network_error', 'could not reach the server');
    });
    const model = tableModel(call as unknown as Call);
    render(
      <table>
        <Rows model={model} />
      </table>,
    );
    await model.load(0);
    await waitFor(() =>
      expect(screen.getByRole('status').textContent).toBe(' — Could not load transactions: could not reach the server'),
    );
    call.mockImplementation(async () => pageOf(1) as never);
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(screen.getAllByRole('row')).toHaveLength(3));
    expect(call).toHaveBeenCalledTimes(2);
  });

  it('pages forward and back', async () => {
    const call = vi.fn(async (path: string) => (path.endsWith('page=0') ? pageOf(10, true, 0) : pageOf(3, false, 1)));
    const model = tableModel(call as unknown as Call);
    render(
      <table>
        <Rows model={model} />
      </table>,
    );
    await model.load(0);
    await waitFor(() => expect(screen.getAllByRole('row')).toHaveLength(12));
    fireEvent.click(screen.getByRole('button', { name: 'Next page' }));
    await waitFor(() => expect(screen.getByText('Page 2')).toBeTruthy());
    await waitFor(() => expect(screen.getAllByRole('row')).toHaveLength(5));
    expect(call).toHaveBeenLastCalledWith('/transactions?page=1');
    fireEvent.click(screen.getByRole('button', { name: 'Previous page' }));
    await waitFor(() => expect(screen.getByText('Page 1')).toBeTruthy());
  });

  it("fills a merchant's <table> in place, and gives other elements a shadow root", async () => {
    const call = (async () => pageOf(1)) as Call;
    const table = document.createElement('table');
    document.body.append(table);
    const off = mountTable(table, tableModel(call));
    await waitFor(() => expect(table.querySelectorAll('tbody tr')).toHaveLength(1));
    expect(table.shadowRoot).toBeNull();
    off();
    expect(table.querySelector('tbody')).toBeNull();

    const div = document.createElement('div');
    document.body.append(div);
    mountTable(div, tableModel(call));
    await waitFor(() => expect(div.shadowRoot!.querySelectorAll('tbody tr')).toHaveLength(1));
    expect(div.shadowRoot!.adoptedStyleSheets).toHaveLength(2);
    expect(div.querySelector('[style]')).toBeNull();
  });
});

describe('pay modal', () => {
  const link = { link_id: 'ord_1', pay_link: 'https://remit.test/pay/ord_1', amount: '12.50' };

  async function openModal() {
    const button = document.createElement('button');
    document.body.append(button);
    button.focus();
    const call = vi.fn(async () => link) as unknown as Call;
    const result = pay(call, '12.50', button, null);
    await waitFor(() => expect(document.querySelector('remit-pay')).not.toBeNull());
    const root = document.querySelector('remit-pay')!.shadowRoot!;
    // The frame follows in the render after the link is known.
    await waitFor(() => expect(root.querySelector('iframe')).not.toBeNull());
    return { button, call, result, root };
  }

  it('opens the pay page in a titled iframe inside a modal dialog', async () => {
    const { call, root } = await openModal();
    expect(call).toHaveBeenCalledWith('/pay-links', { amount: '12.50' });
    const dialog = root.querySelector('dialog')!;
    expect(dialog.getAttribute('aria-label')).toBe('Pay $12.50');
    const frame = root.querySelector('iframe')!;
    expect(frame.getAttribute('title')).toBe('Payment form: Pay $12.50');
    expect(frame.getAttribute('src')).toBe(link.pay_link);
    expect(root.querySelector('button')!.getAttribute('aria-label')).toBe('Close payment');
    expect(root.adoptedStyleSheets.length).toBeGreaterThan(0);
  });

  it('Escape (cancel) closes: resolves closed, removes the modal and returns focus to the button', async () => {
    const { button, result, root } = await openModal();
    root.querySelector('dialog')!.dispatchEvent(new Event('cancel', { cancelable: true }));
    await expect(result).resolves.toEqual({ status: 'closed', transaction_id: null });
    expect(document.querySelector('remit-pay')).toBeNull();
    expect(document.activeElement).toBe(button);
  });

  it('settles on the pay page message from its own origin and frame only', async () => {
    const { result, root } = await openModal();
    const frame = root.querySelector('iframe')!;
    // happy-dom loads no frames: the frame's window is played by a stand-in.
    const frameWindow = window.open('about:blank') ?? window;
    Object.defineProperty(frame, 'contentWindow', { value: frameWindow });
    const settled = vi.fn();
    void result.then(settled);
    const msg = { type: 'remit:payment', status: 'succeeded', transaction_id: 'txn_9' };
    window.dispatchEvent(new MessageEvent('message', { data: msg, origin: 'https://evil.test', source: frameWindow }));
    window.dispatchEvent(
      new MessageEvent('message', {
        data: { ...msg, status: 'failed' },
        origin: 'https://remit.test',
        source: frameWindow,
      }),
    );
    await new Promise((r) => setTimeout(r, 10));
    expect(settled).not.toHaveBeenCalled();
    window.dispatchEvent(new MessageEvent('message', { data: msg, origin: 'https://remit.test', source: frameWindow }));
    await expect(result).resolves.toEqual({ status: 'succeeded', transaction_id: 'txn_9' });
    expect(document.querySelector('remit-pay')).toBeNull();
  });

  it('a refused pay link rejects, removes the modal and returns focus to the button', async () => {
    const button = document.createElement('button');
    document.body.append(button);
    button.focus();
    const call = (async () => {
      throw widgetError('amount_over_limit', "amount must be at most 500.00, the widget's max_amount.", 400);
    }) as Call;
    await expect(pay(call, '900', button, null)).rejects.toMatchObject({ code: 'amount_over_limit', status: 400 });
    expect(document.querySelector('remit-pay')).toBeNull();
    expect(document.activeElement).toBe(button);
  });

  it('opens at once, while the link is being made; the frame comes with the link', async () => {
    let answer!: (l: typeof link) => void;
    const call = vi.fn(() => new Promise((r) => (answer = r as never))) as unknown as Call;
    const result = pay(call, '12.50', null, null);
    const root = document.querySelector('remit-pay')!.shadowRoot!;
    expect(root.querySelector('dialog')!.open).toBe(true);
    expect(root.querySelector('.wait[role=status]')!.textContent).toBe('Opening the payment form…');
    expect(root.querySelector('iframe')).toBeNull();
    answer(link);
    await waitFor(() => expect(root.querySelector('iframe')?.getAttribute('src')).toBe(link.pay_link));
    expect(root.querySelector('.wait[role=status]')).toBeNull();
    root.querySelector('dialog')!.dispatchEvent(new Event('cancel', { cancelable: true }));
    await expect(result).resolves.toEqual({ status: 'closed', transaction_id: null });
  });

  it('closed before the link arrives: resolves closed and never shows the frame', async () => {
    let answer!: (l: typeof link) => void;
    const call = vi.fn(() => new Promise((r) => (answer = r as never))) as unknown as Call;
    const result = pay(call, '12.50', null, null);
    document
      .querySelector('remit-pay')!
      .shadowRoot!.querySelector('dialog')!
      .dispatchEvent(new Event('cancel', { cancelable: true }));
    answer(link);
    await expect(result).resolves.toEqual({ status: 'closed', transaction_id: null });
    expect(document.querySelector('remit-pay')).toBeNull();
  });

  it('closed before a refusal arrives: still resolves closed (the customer left; no error to report)', async () => {
    let refuse!: (e: Error) => void;
    const call = vi.fn(() => new Promise((_, no) => (refuse = no))) as unknown as Call;
    const result = pay(call, '12.50', null, null);
    document
      .querySelector('remit-pay')!
      .shadowRoot!.querySelector('dialog')!
      .dispatchEvent(new Event('cancel', { cancelable: true }));
    refuse(widgetError('network_error', 'could not reach the server'));
    await expect(result).resolves.toEqual({ status: 'closed', transaction_id: null });
  });

  it('focus guards at both ends send Tab back into the dialog: the end one to the close button, the start one to the frame', async () => {
    const { root } = await openModal();
    const [start, end] = [...root.querySelectorAll<HTMLElement>('.guard')];
    const close = root.querySelector<HTMLElement>('.x')!;
    const frame = root.querySelector('iframe')!;
    expect(close.hasAttribute('autofocus')).toBe(true); // the dialog opens on it, not on the start guard
    end!.focus();
    expect(root.activeElement).toBe(close);
    start!.focus();
    expect(root.activeElement).toBe(frame);
  });
});

describe('request payment confirmation', () => {
  it('sends, resolves with what was sent, and confirms in a dialog that returns focus when done', async () => {
    const button = document.createElement('button');
    document.body.append(button);
    button.focus();
    const sent = { status: 'sent' as const, link_id: 'ord_2', amount: '15.00', phone_last_four: '0123' };
    const call = vi.fn(async () => sent) as unknown as Call;
    await expect(request(call, '15', '(415) 555-0123', button)).resolves.toEqual(sent);
    expect(call).toHaveBeenCalledWith('/payment-requests', { amount: '15', phone_number: '(415) 555-0123' });
    const root = document.querySelector('remit-request')!.shadowRoot!;
    expect(root.querySelector('h2')!.textContent).toBe('Payment request sent');
    expect(root.querySelector('p')!.textContent).toBe(
      'A text message with a link to pay $15.00 was sent to the phone number ending in 0123.',
    );
    (root.querySelector('button') as HTMLButtonElement).click();
    expect(document.querySelector('remit-request')).toBeNull();
    expect(document.activeElement).toBe(button);
  });
});

describe("request payment: the phone is checked with the server's rule, errors name recipient_phone", () => {
  // Each is one the server's phone_number schema refuses (normalizePhone); the last passed the loader's old pattern.
  it.each(['12345', '', 'call me', '+1 (415) 555-0123 ext 9', '(015) 555-0123', '0000000000'])(
    '%j: refused before any call',
    async (phone) => {
      const call = vi.fn() as unknown as Call;
      const err = await request(call, '15', phone, null).catch((e) => e);
      expect(err).toMatchObject({
        code: 'invalid_phone',
        message: `recipient_phone must be a 10-digit US number or E.164 like +14155550100 (got ${JSON.stringify(phone)})`,
      });
      expect(call).not.toHaveBeenCalled();
    },
  );

  it('a short E.164 number the server takes is sent (the old pattern refused it)', async () => {
    const call = vi.fn(async () => ({
      status: 'sent',
      link_id: 'ord_3',
      amount: '15.00',
      phone_last_four: '3456',
    })) as unknown as Call;
    await request(call, '15', ' +44123456 ', null);
    expect(call).toHaveBeenCalledWith('/payment-requests', { amount: '15', phone_number: '+44123456' });
  });

  it("the server's refusal of phone_number reaches the caller as recipient_phone", async () => {
    const call = vi.fn(async () => {
      throw widgetError(
        'phone_country_not_allowed',
        "phone_number must be a phone number in US (the widget settings' sms_countries).",
        400,
      );
    }) as unknown as Call;
    const err = await request(call, '15', '+447700900123', null).catch((e) => e);
    expect(err).toMatchObject({
      code: 'phone_country_not_allowed',
      message: "recipient_phone must be a phone number in US (the widget settings' sms_countries).",
    });
  });
});

describe('boot: tables refresh after a payment', () => {
  it('every table on the page loads again on success; one taken off the page is let go, not asked for', async () => {
    const link = { link_id: 'ord_1', pay_link: 'https://remit.test/pay/ord_1', amount: '5.00' };
    const call = vi.fn(async (path: string) =>
      path === '/config' ? { appearance_css: '', appearance_warning: null } : path === '/pay-links' ? link : pageOf(1),
    ) as unknown as Call;
    const ui = bootWidgets({ base: 'https://remit.test', key: 'pk_test_x' }, call);
    const kept = document.createElement('table');
    const gone = document.createElement('table');
    document.body.append(kept, gone);
    ui.table(kept);
    ui.table(gone);
    await waitFor(() => expect(kept.querySelectorAll('tbody tr')).toHaveLength(1));
    const loads = () =>
      (call as unknown as ReturnType<typeof vi.fn>).mock.calls.filter(([p]) => String(p).startsWith('/transactions'))
        .length;
    expect(loads()).toBe(2);
    gone.remove();
    const result = ui.pay('5', null, null);
    await waitFor(() => expect(document.querySelector('remit-pay')?.shadowRoot?.querySelector('iframe')).toBeTruthy());
    const frame = document.querySelector('remit-pay')!.shadowRoot!.querySelector('iframe')!;
    const frameWindow = window.open('about:blank') ?? window;
    Object.defineProperty(frame, 'contentWindow', { value: frameWindow });
    window.dispatchEvent(
      new MessageEvent('message', {
        data: { type: 'remit:payment', status: 'succeeded', transaction_id: 'txn_1' },
        origin: 'https://remit.test',
        source: frameWindow,
      }),
    );
    await expect(result).resolves.toEqual({ status: 'succeeded', transaction_id: 'txn_1' });
    await waitFor(() => expect(loads()).toBe(3));
    expect(gone.querySelector('tbody')).toBeNull(); // unmounted
  });
});

describe('boot: the appearance', () => {
  it("asks for the page's own (data-appearance on the loader tag), warns when the server ignored it, and every root wears the sheet", async () => {
    const tag = document.createElement('script');
    tag.dataset.appearance = '{"theme":"night"}';
    document.head.append(tag);
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const call = vi.fn(async (path: string) =>
      path.startsWith('/config')
        ? { appearance_css: ':host{--brand:#7c3aed}', appearance_warning: 'the appearance option is ignored: why' }
        : pageOf(1),
    ) as unknown as Call;
    const ui = bootWidgets({ base: 'https://remit.test', key: 'pk_test_x' }, call);
    const div = document.createElement('div');
    document.body.append(div);
    ui.table(div);
    expect(call).toHaveBeenCalledWith('/config?appearance=%7B%22theme%22%3A%22night%22%7D');
    await waitFor(() => expect(warn).toHaveBeenCalledWith('Remit: the appearance option is ignored: why'));
    const [styles, theme] = div.shadowRoot!.adoptedStyleSheets;
    expect(styles!.cssRules.length).toBeGreaterThan(10);
    expect([...theme!.cssRules].map((r) => r.cssText).join('')).toContain('--brand');
    tag.remove();
    warn.mockRestore();
  });
});
