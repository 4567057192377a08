import type { WidgetConfig } from '@remit/contract';
import type { WidgetContext, WidgetUI } from '@remit/loader/ui';
import { widgetApi, type Call } from './api.js';
import { pay } from './pay.js';
import { request } from './request.js';
import { mountTable, tableModel, type TableModel } from './transactions.js';
import { warmOnIntent, warmPayFrame } from './warm.js';

/**
 * The widget chunk's operations for the loader. The widget settings are read once in the
 * background (only the theme colour is taken from them); every mounted table refreshes after a
 * successful payment.
 */
export function bootWidgets(ctx: WidgetContext, call: Call = widgetApi(ctx)): WidgetUI {
  let primary: string | null = null;
  call<WidgetConfig>('/config').then(
    (c) => (primary = c.theme.primary_color),
    () => {},
  );
  warmOnIntent(ctx.base);
  const tables = new Map<TableModel, { el: HTMLElement; off: () => void }>();
  return {
    async pay(amount, opener, popup) {
      warmPayFrame(ctx.base); // a call with no intent before it (a script, not a click) warms while the link is made
      const r = await pay(call, amount, opener, popup, () => primary);
      if (r.status === 'succeeded')
        for (const [model, t] of tables) {
          // A table a single-page app has taken off the page is let go, not refreshed.
          if (t.el.isConnected) void model.load(0);
          else t.off();
        }
      return r;
    },
    request: (amount, phone, opener) => request(call, amount, phone, opener, () => primary),
    table(el) {
      const model = tableModel(call);
      const unmount = mountTable(el, model, primary);
      const off = () => {
        tables.delete(model);
        unmount();
      };
      tables.set(model, { el, off });
      return off;
    },
  };
}
