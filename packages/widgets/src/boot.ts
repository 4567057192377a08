import type { WidgetConfig } from '@remit/contract';
import type { WidgetContext, WidgetUI } from '@remit/loader/ui';
import { widgetApi, type Call } from './api.js';
import { loadLanguage } from './i18n.js';
import { pay } from './pay.js';
import { setAppearance } from './styles.js';
import { request } from './request.js';
import { mountTable, tableModel, type TableModel } from './transactions.js';
import { warmOnIntent, warmPayFrame } from './warm.js';

/**
 * The widget chunk's operations for the loader. The widget settings are read once in the
 * background (only the appearance is taken from them, as the server resolved it: under the
 * page's own, the loader tag's `data-appearance`, when that one reads; else the console says
 * why it was ignored); every mounted table refreshes after a successful payment.
 */
export function bootWidgets(ctx: WidgetContext, call: Call = widgetApi(ctx)): WidgetUI {
  const mine = document.querySelector<HTMLElement>('script[data-appearance]')?.dataset.appearance;
  const config = call<WidgetConfig>(mine ? '/config?appearance=' + encodeURIComponent(mine) : '/config');
  config.then(
    (c) => {
      setAppearance(c.appearance_css);
      if (c.appearance_warning) console.warn('Remit: ' + c.appearance_warning);
    },
    () => {},
  );
  // The modal's "Test mode" mark: shown once the settings say sandbox (still in flight on a first click).
  const sandbox = config.then(
    (c) => c.environment === 'sandbox',
    () => false,
  );
  let language: Promise<unknown> | null = loadLanguage(ctx.base, ctx.locale).then(() => (language = null));
  warmOnIntent(ctx.base, ctx.locale);
  const tables = new Map<TableModel, { el: HTMLElement; off: () => void }>();
  return {
    async pay(amount, opener, popup, opts) {
      warmPayFrame(ctx.base, ctx.locale); // a call with no intent before it (a script, not a click) warms while the link is made
      const r = await pay(call, amount, opener, popup, mine, language, ctx.locale, opts, sandbox);
      if (r.status === 'succeeded')
        for (const [model, t] of tables) {
          // A table a single-page app has taken off the page is let go, not refreshed.
          if (t.el.isConnected) void model.load(0);
          else t.off();
        }
      return r;
    },
    request: (amount, phone, opener) => request(call, amount, phone, opener, language),
    table(el) {
      const model = tableModel(call);
      let unmount: (() => void) | undefined;
      let gone = false;
      // Filled once its language is there (at once in English): no English caption first.
      void Promise.resolve(language).then(() => gone || (unmount = mountTable(el, model)));
      const off = () => {
        gone = true;
        tables.delete(model);
        unmount?.();
      };
      tables.set(model, { el, off });
      return off;
    },
  };
}
