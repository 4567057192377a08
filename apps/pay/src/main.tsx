import { render } from 'preact';
import { App } from './app.js';
import { locale, pickLocale, t } from './i18n.js';
import { readState } from './state.js';
import { applyBrand } from './theme.js';
import './styles.css';

const state = readState(document);
locale.value = pickLocale(location.search, navigator.languages ?? [navigator.language]);
document.documentElement.lang = locale.value;
if (state.page !== 'error') {
  applyBrand(state.view.merchant.primary_color);
  document.title = `${t().title} · ${state.view.merchant.name}`;
} else {
  document.title = state.status === 410 ? t().cancelledTitle : t().notFoundTitle;
}
render(<App state={state} />, document.getElementById('app')!);
performance.mark('remit:ready');
