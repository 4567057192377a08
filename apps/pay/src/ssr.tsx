import type { PayPageState } from '@remit/contract';
import { renderToString } from 'preact-render-to-string';
import { App } from './app.js';
import { formattedMoney } from './format.js';
import { acceptedLanguages, dirOf, LOCALES, pickLocale, type Locale } from '@remit/contract/locales';
import { addMessages, locale, t, type Messages } from './i18n.js';
import ar from './messages-ar.js';
import de from './messages-de.js';
import es from './messages-es.js';
import fr from './messages-fr.js';
import it from './messages-it.js';
import ja from './messages-ja.js';
import nl from './messages-nl.js';
import pl from './messages-pl.js';
import ptBR from './messages-pt-BR.js';
import sv from './messages-sv.js';
import zhHans from './messages-zh-Hans.js';
import { scripted } from './typed.js';

/**
 * Server rendering of the pay page (built by `vite build --ssr` into `dist/ssr/`, loaded once by
 * the server): the form's markup is in the HTML, so its fields take typing as soon as the HTML is
 * parsed; main.tsx then hydrates it, keeping what was typed.
 */

// The renderer holds every language: a page is rendered at once, in the language asked for.
const ALL: Record<Exclude<Locale, 'en'>, Messages> = { es, fr, de, it, 'pt-BR': ptBR, nl, pl, sv, ja, 'zh-Hans': zhHans, ar };
for (const l of LOCALES) if (l !== 'en') addMessages(l, ALL[l]);

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
  return { html, locale: locale.value, dir: dirOf(locale.value), title: pageTitle(state), formatted: { ...formattedMoney } };
}
