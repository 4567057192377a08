import type { PayPageState } from '@remit/contract';
import { renderToString } from 'preact-render-to-string';
import { App } from './app.js';
import { formattedMoney } from './format.js';
import { addMessages, locale, pickLocale, t, type Locale } from './i18n.js';
import { es } from './messages-es.js';
import { scripted } from './typed.js';

/**
 * Server rendering of the pay page (built by `vite build --ssr` into `dist/ssr/`, loaded once by
 * the server): the form's markup is in the HTML, so its fields take typing as soon as the HTML is
 * parsed; main.tsx then hydrates it, keeping what was typed.
 */

// The renderer holds every language: a page is rendered at once, in the language asked for.
addMessages('es', es);

export interface RenderedPage {
  /** Markup of `#app`. */
  html: string;
  locale: Locale;
  title: string;
  /** The money texts the render made, by their arguments, for the page to hydrate without Intl. */
  formatted: Record<string, string>;
}

/** `Accept-Language` as a list of tags, most wanted first (q=0 dropped). */
export function acceptedLanguages(header: string | undefined): string[] {
  if (!header) return [];
  return header
    .split(',')
    .map((part, i) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      return { tag: tag.trim(), q: q ? Number(q.slice(2)) : 1, i };
    })
    .filter((l) => l.tag && l.q > 0)
    .sort((a, b) => b.q - a.q || a.i - b.i)
    .map((l) => l.tag);
}

export function pageTitle(state: PayPageState): string {
  const m = t();
  if (state.page !== 'error') return `${m.title} · ${state.view.merchant.name}`;
  return state.status === 410 ? m.cancelledTitle : m.notFoundTitle;
}

/** The page for a state, in the locale `?locale=` or the browser's languages choose (as main.tsx does). */
export function renderPage(state: PayPageState, search: string, acceptLanguage: string | undefined): RenderedPage {
  locale.value = pickLocale(search, acceptedLanguages(acceptLanguage));
  scripted.value = false;
  for (const k in formattedMoney) delete formattedMoney[k]; // this page's texts only
  const html = renderToString(<App state={state} />);
  return { html, locale: locale.value, title: pageTitle(state), formatted: { ...formattedMoney } };
}
