import type { WidgetTransactions } from '@remit/contract';
import { render } from 'preact';
import type { Call } from './api.js';
import { date, money } from './format.js';
import { signal, use, type Signal } from './signal.js';
import { t } from './i18n.js';
import { adoptStyles } from './styles.js';

/**
 * The completed-transactions table: date, amount, card (brand and last four), status; ten a page,
 * newest first. A `<table>` of the merchant's is filled in place (a table cannot host a shadow
 * root, and the merchant's own table styles then apply); any other element gets an open shadow
 * root with a styled table in it.
 */
type State = { kind: 'loading' } | { kind: 'error'; message: string } | { kind: 'ready'; list: WidgetTransactions };

export interface TableModel {
  state: Signal<State>;
  page: Signal<number>;
  load(page: number): Promise<void>;
}

export function tableModel(call: Call): TableModel {
  const state = signal<State>({ kind: 'loading' });
  const page = signal(0);
  let seq = 0;
  return {
    state,
    page,
    async load(p) {
      const mine = ++seq;
      page.value = p;
      if (state.value.kind !== 'ready') state.value = { kind: 'loading' };
      try {
        const list = await call<WidgetTransactions>(`/transactions?page=${p}`);
        if (mine === seq) state.value = { kind: 'ready', list };
      } catch (e) {
        if (mine === seq) state.value = { kind: 'error', message: (e as Error).message };
      }
    },
  };
}

const COLUMNS = ['date', 'amount', 'card', 'status'] as const;

export function Rows({ model }: { model: TableModel }) {
  const s = use(model.state);
  const p = use(model.page);
  const status = s.kind === 'loading' ? t('loading') : s.kind === 'error' ? t('loadFailed', s.message) : null;
  const rows = s.kind === 'ready' ? s.list.data : [];
  return (
    <>
      <caption>
        {t('caption')}
        <span class={s.kind === 'error' ? 'err' : undefined} role="status">
          {status ? ` — ${status}` : ''}
        </span>
      </caption>
      <thead>
        <tr>
          {COLUMNS.map((c) => (
            <th scope="col" class={c === 'amount' ? 'num' : undefined}>
              {t(c)}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {s.kind === 'ready' && rows.length === 0 && (
          <tr>
            <td colSpan={4}>{t('empty')}</td>
          </tr>
        )}
        {rows.map((r) => (
          <tr key={r.transaction_id}>
            <td>{date(r.date)}</td>
            <td class="num">{money(r.amount)}</td>
            <td>{r.brand ? `${r.brand}${r.last_four ? ` •••• ${r.last_four}` : ''}` : '—'}</td>
            <td>{r.status === 'completed' || r.status === 'refunded' ? t(r.status) : r.status}</td>
          </tr>
        ))}
      </tbody>
      <tfoot>
        <tr>
          <td colSpan={4}>
            <div class="pager">
              {s.kind === 'error' ? (
                <button type="button" onClick={() => model.load(p)}>
                  {t('retry')}
                </button>
              ) : (
                <>
                  <button type="button" disabled={p === 0 || s.kind !== 'ready'} onClick={() => model.load(p - 1)}>
                    {t('prev')}
                  </button>
                  <span>{t('page', String(p + 1))}</span>
                  <button
                    type="button"
                    disabled={s.kind !== 'ready' || !s.list.has_more}
                    onClick={() => model.load(p + 1)}
                  >
                    {t('next')}
                  </button>
                </>
              )}
            </div>
          </td>
        </tr>
      </tfoot>
    </>
  );
}

/** Renders the table in `el` and loads page one; returns unmount. */
export function mountTable(el: HTMLElement, model: TableModel): () => void {
  let target: Element | ShadowRoot = el;
  if (el.tagName === 'TABLE') {
    el.textContent = '';
    render(<Rows model={model} />, el);
  } else {
    const root = el.shadowRoot ?? el.attachShadow({ mode: 'open' });
    adoptStyles(root);
    target = root;
    render(
      <table>
        <Rows model={model} />
      </table>,
      root,
    );
  }
  void model.load(0);
  return () => render(null, target);
}
