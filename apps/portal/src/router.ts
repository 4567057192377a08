import { signal } from '@preact/signals';

export const VIEWS = ['merchants', 'onboarding', 'webhooks', 'inbox', 'transactions', 'snippets'] as const;
export type View = (typeof VIEWS)[number];

export const TITLES: Record<View, string> = {
  merchants: 'Merchants',
  onboarding: 'Onboard a merchant',
  webhooks: 'Webhooks',
  inbox: 'Inbox',
  transactions: 'Transactions',
  snippets: 'Snippets',
};

/**
 * The views that show one merchant, so they carry the merchant picker. Onboarding makes a new one;
 * the webhook URL, its secret and the delivery log belong to the client, for all its merchants.
 */
export const PER_MERCHANT: ReadonlySet<View> = new Set<View>(['merchants', 'inbox', 'transactions', 'snippets']);

export function viewOf(pathname: string): View {
  const name = pathname.replace(/^\/portal\/?/, '').split('/')[0] ?? '';
  return (VIEWS as readonly string[]).includes(name) ? (name as View) : 'merchants';
}

export const view = signal<View>(typeof location === 'undefined' ? 'merchants' : viewOf(location.pathname));

/** Each view has its own address, so reloads, the back button and shared links work. */
export function go(next: View): void {
  if (next === view.value) return;
  history.pushState(null, '', `/portal/${next}`);
  view.value = next;
}

if (typeof window !== 'undefined') {
  window.addEventListener('popstate', () => {
    view.value = viewOf(location.pathname);
  });
}
