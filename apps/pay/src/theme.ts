/**
 * The merchant's appearance is a stylesheet the server resolved (`/pay/appearance.css?…`, the
 * view's `merchant.stylesheet`): a page it rendered links it in its head already; the warm pay
 * frame, started on a link later, links it here. A stylesheet, not a style attribute: the CSP
 * allows styles from this origin only.
 */
export function linkAppearance(href: string | null): void {
  if (!href || document.querySelector('link[data-appearance]')) return;
  const link = document.createElement('link');
  link.rel = 'stylesheet';
  link.href = href;
  link.dataset.appearance = '';
  document.head.append(link);
}
