import type { PayPageState } from '@remit/contract';
import '@remit/form-kit/base.css';
import { hydrate, render } from 'preact';
import { App, loadPage } from './app.js';
import { pickLocale } from '@remit/contract/locales';
import { applyLocale, loadLocale, locale } from './i18n.js';
import { shell } from './shell.js';
import { readState } from './state.js';
import { linkAppearance } from './theme.js';
import { captureTyped, scripted } from './typed.js';
import './styles.css';

/**
 * The server rendered the page (ssr.tsx) in the locale it chose; the browser's own choice is the
 * same unless its languages differ from its Accept-Language. Same locale: hydrate, so the fields
 * the customer may already be typing in stay as they are. Otherwise render afresh in the browser's
 * locale, keeping what was typed and where the focus was. The warm pay frame (shell.ts) starts
 * the same way once it is given a link. A language other than English is fetched first (its own
 * chunk; the server preloads it for a page it rendered in it), so the page never shows English to it.
 */
const root = document.getElementById('app')!;
const start = async (state: PayPageState) => {
  const chosen = pickLocale(new URLSearchParams(location.search).get('locale'), navigator.languages);
  await Promise.all([loadLocale(chosen), loadPage(state)]);
  locale.value = chosen;
  applyLocale(document);
  if (state.page !== 'error') linkAppearance(state.view.merchant.stylesheet);
  captureTyped(root);
  if (root.dataset.locale === locale.value && root.firstElementChild) {
    scripted.value = false; // as the server rendered it: Pay disabled until hydrated
    hydrate(<App state={state} />, root);
  } else {
    const focused = document.activeElement?.id;
    root.textContent = '';
    render(<App state={state} />, root);
    if (focused) document.getElementById(focused)?.focus();
  }
  scripted.value = true;
  root.dataset.locale = locale.value;
  performance.mark('remit:ready');
};
if (root.hasAttribute('data-shell')) shell(start);
else void start(readState(document));
