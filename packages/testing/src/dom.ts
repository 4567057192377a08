/**
 * @remit/testing/dom: a fake Remit for component tests in jsdom or happy-dom. Install it before
 * rendering; the components of @remit/react and @remit/vue then find `window.Remit` already there,
 * so the loader adds no script tag and nothing goes to the network. The fake records what the
 * components would open (the pay page, for an amount) and send (a payment request, to a phone), and
 * answers as the real widgets do.
 *
 * @example
 * const remit = installFakeRemit();
 * render(<GetPaymentPage clientKey="pk_test_x" amount={12.5} onSuccess={paid} />);
 * await user.click(screen.getByRole('button'));
 * expect(remit.opened).toEqual([{ amount: 12.5 }]);
 */

export type PaymentResult =
  | { status: 'succeeded'; transaction_id: string }
  | { status: 'closed'; transaction_id: null };
export interface RequestResult {
  status: 'sent' | 'queued';
  link_id: string;
  amount: string;
  phone_last_four: string;
}
/** A row of the completed-transactions table. */
export interface FakeTransaction {
  transaction_id: string;
  date: string;
  amount: string;
  brand: string | null;
  last_four: string | null;
  status: string;
}
/** What the next call answers: a result, an error (`code`, `message`, as the loader rejects), or `'pending'` (settled later by `settle`). */
export type FakeAnswer<R> = R | { error: { code: string; message: string } } | 'pending';

export interface FakeRemit {
  readonly publicKey: string;
  /** Every pay page the components opened (`getPaymentPage`), oldest first. */
  readonly opened: Array<{ amount: number | string }>;
  /** Every payment request they sent (`sendRequestPayment`), oldest first. */
  readonly sent: Array<{ amount: number | string; phone: string }>;
  /** How many completed-transactions tables are mounted now. */
  mountedTables(): number;
  /** How the next pay pages answer (default: succeeded with a fake transaction id). */
  payWith(answer: FakeAnswer<PaymentResult>): void;
  /** How the next payment requests answer (default: sent). */
  requestWith(answer: FakeAnswer<RequestResult>): void;
  /** The rows the completed-transactions tables show. */
  setTransactions(rows: FakeTransaction[]): void;
  /** Settles the oldest call left pending. */
  settle(answer: Exclude<FakeAnswer<PaymentResult | RequestResult>, 'pending'>): void;
  /** Removes the fake's records and answers (the `window.Remit` stand-in stays, as a loaded script would). */
  reset(): void;
}

interface WidgetsApi {
  publicKey: string;
  getPaymentPage(amount: number | string): Promise<PaymentResult>;
  sendRequestPayment(amount: number | string, phone: string): Promise<RequestResult>;
  mountTransactions(el: HTMLElement): () => void;
}

const AMOUNT = /^\d+(\.\d{1,2})?$/;
const widgetError = (code: string, message: string) => Object.assign(new Error(message), { code });

function checkAmount(amount: number | string): Error | null {
  const text = typeof amount === 'number' ? String(amount) : amount.trim();
  if (!AMOUNT.test(text) || Number(text) <= 0)
    return widgetError('invalid_amount', 'Amount must be a positive number with at most two decimals.');
  return null;
}

function checkPhone(phone: string): Error | null {
  const digits = phone.replace(/[\s().-]/g, '');
  if (/^\+?1?[2-9]\d{9}$/.test(digits) || /^\+[1-9]\d{7,14}$/.test(digits)) return null;
  return widgetError('invalid_phone', 'Enter a US phone number (10 digits) or an international one starting with +.');
}

const FAKE = Symbol.for('remit.testing.fakeRemit');

/**
 * Puts a fake `window.Remit` on the page (once per window: a second call resets and returns the
 * same fake, so a loader that already resolved keeps working). Call it before the first render.
 */
export function installFakeRemit(opts: { publicKey?: string } = {}): FakeRemit {
  if (typeof window === 'undefined') throw new Error('installFakeRemit needs a DOM (jsdom or happy-dom environment)');
  const w = window as unknown as Record<PropertyKey, unknown> & { Remit?: WidgetsApi };
  const existing = w[FAKE] as FakeRemit | undefined;
  if (existing) {
    existing.reset();
    return existing;
  }
  const opened: FakeRemit['opened'] = [];
  const sent: FakeRemit['sent'] = [];
  const pending: Array<{ resolve: (r: never) => void; reject: (e: Error) => void; kind: 'pay' | 'request' }> = [];
  let payAnswer: FakeAnswer<PaymentResult> = { status: 'succeeded', transaction_id: 'txn_fake_1' };
  let requestAnswer: FakeAnswer<RequestResult> | null = null;
  let transactions: FakeTransaction[] = [];
  const tables = new Set<HTMLElement>();
  let count = 0;

  const emit = (name: string, detail: unknown) => document.dispatchEvent(new CustomEvent(`remit:${name}`, { detail }));
  const answer = <R>(a: FakeAnswer<R>, kind: 'pay' | 'request'): Promise<R> => {
    if (a === 'pending')
      return new Promise<R>((resolve, reject) => pending.push({ resolve: resolve as never, reject, kind }));
    if (a && typeof a === 'object' && 'error' in a) return Promise.reject(widgetError(a.error.code, a.error.message));
    return Promise.resolve(a as R);
  };
  const reported = <R>(p: Promise<R>, kind: 'pay' | 'request'): Promise<R> =>
    p.then(
      (r) => {
        if (kind === 'pay') emit((r as PaymentResult).status === 'closed' ? 'close' : 'payment-success', r);
        return r;
      },
      (e: Error & { code?: string }) => {
        emit('error', { code: e.code ?? 'error', message: e.message });
        throw e;
      },
    );
  const render = (el: HTMLElement) => {
    const cells = (t: FakeTransaction) => [
      t.date.slice(0, 10),
      t.amount,
      t.brand ? `${t.brand} •••• ${t.last_four ?? ''}` : 'Bank account',
      t.status,
    ];
    el.innerHTML = '';
    const table = el.tagName === 'TABLE' ? el : el.appendChild(document.createElement('table'));
    const head = table.appendChild(document.createElement('thead')).appendChild(document.createElement('tr'));
    for (const h of ['Date', 'Amount', 'Payment method', 'Status'])
      head.appendChild(document.createElement('th')).textContent = h;
    const body = table.appendChild(document.createElement('tbody'));
    for (const t of transactions) {
      const tr = body.appendChild(document.createElement('tr'));
      for (const c of cells(t)) tr.appendChild(document.createElement('td')).textContent = c;
    }
  };

  const api: WidgetsApi = {
    get publicKey() {
      return fake.publicKey;
    },
    getPaymentPage(amount) {
      const bad = checkAmount(amount);
      opened.push({ amount });
      return reported(bad ? Promise.reject(bad) : answer(payAnswer, 'pay'), 'pay');
    },
    sendRequestPayment(amount, phone) {
      const bad = checkAmount(amount) ?? checkPhone(phone);
      sent.push({ amount, phone });
      const defaultAnswer: RequestResult = {
        status: 'sent',
        link_id: `link_fake_${++count}`,
        amount: Number(amount).toFixed(2),
        phone_last_four: phone.replace(/\D/g, '').slice(-4),
      };
      return reported(bad ? Promise.reject(bad) : answer(requestAnswer ?? defaultAnswer, 'request'), 'request');
    },
    mountTransactions(el) {
      tables.add(el);
      render(el);
      return () => {
        tables.delete(el);
        el.innerHTML = '';
      };
    },
  };
  const fake: FakeRemit & { publicKey: string } = {
    publicKey: opts.publicKey ?? 'pk_test_fake',
    opened,
    sent,
    mountedTables: () => tables.size,
    payWith: (a) => void (payAnswer = a),
    requestWith: (a) => void (requestAnswer = a),
    setTransactions(rows) {
      transactions = [...rows];
      for (const el of tables) render(el);
    },
    settle(a) {
      const p = pending.shift();
      if (!p) throw new Error('No widget call is pending');
      if (a && typeof a === 'object' && 'error' in a) p.reject(widgetError(a.error.code, a.error.message));
      else p.resolve(a as never);
    },
    reset() {
      opened.length = 0;
      sent.length = 0;
      pending.length = 0;
      payAnswer = { status: 'succeeded', transaction_id: 'txn_fake_1' };
      requestAnswer = null;
      transactions = [];
    },
  };
  w.Remit = api;
  w[FAKE] = fake;
  return fake;
}
