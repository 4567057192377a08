import type { PayPageState } from '@remit/contract';
import { renderToString } from 'preact-render-to-string';
import { AddCardPage } from './add-card-page.js';
import { App, setAddCardPage } from './app.js';
import { formattedMoney } from './format.js';
import { acceptedLanguages, dirOf, LOCALES, pickLocale, type Locale } from '@remit/contract/locales';
import { addMessages, locale, messagesOf, t } from './i18n.js';
import { PAY } from '@remit/contract/catalogue/pay';
import { scripted } from './typed.js';

/**
 * Server rendering of the pay page (built by `vite build --ssr` into `dist/ssr/`, loaded once by
 * the server): the form's markup is in the HTML, so its fields take typing as soon as the HTML is
 * parsed; main.tsx then hydrates it, keeping what was typed.
 */

// The renderer holds every language: a page is rendered at once, in the language asked for.
for (const l of LOCALES) if (l !== 'en') addMessages(l, messagesOf(PAY[l]));
setAddCardPage(AddCardPage);

export interface RenderedPage {
  /** Markup of `#app`. */
  html: string;
  locale: Locale;
  dir: 'ltr' | 'rtl';
  title: string;
  /** The money texts the render made, by their arguments, for the page to hydrate without Intl. */
  formatted: Record<string, string>;
}

export function pageTitle(state: PayPageState): string {
  const m = t();
  if (state.page !== 'error') return `${m.title} · ${state.view.merchant.name}`;
  return state.status === 410 ? m.cancelledTitle : m.notFoundTitle;
}

/** The page for a state, in the locale `?locale=` or the browser's languages choose (as main.tsx does). */
export function renderPage(state: PayPageState, search: string, acceptLanguage: string | undefined): RenderedPage {
  locale.value = pickLocale(new URLSearchParams(search).get('locale'), acceptedLanguages(acceptLanguage));
  scripted.value = false;
  for (const k in formattedMoney) delete formattedMoney[k]; // this page's texts only
  const html = renderToString(<App state={state} />);
  return {
    html,
    locale: locale.value,
    dir: dirOf(locale.value),
    title: pageTitle(state),
    formatted: { ...formattedMoney },
  };
}
