import WIDGET_EN from '../translations/en/widgets.json' with { type: 'json' };
import type { WidgetsCatalogue } from './translate.js';

/**
 * What the widgets (pay modal, request-payment confirmation, transactions table) say to a customer:
 * `translations/<tag>/widgets.json`. English is in the widget chunk, another language is fetched
 * from `/js/widget-messages/{locale}` when used.
 */
export type WidgetMessages = WidgetsCatalogue;
export { WIDGET_EN };

/** `GET /js/widget-messages/{locale}`: the language the server chose for the tag (or the browser's Accept-Language), with its messages. */
export interface WidgetLanguage {
  locale: string;
  /** Intl tag for amounts and dates. */
  intl: string;
  dir: 'ltr' | 'rtl';
  messages: WidgetMessages;
}
