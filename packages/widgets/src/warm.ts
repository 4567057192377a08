/**
 * Warming the pay frame on intent. Opening the pay modal costs a cross-site frame: a renderer
 * process to start and the pay page's assets to fetch, after the pay link is made. When the
 * customer shows intent (the pointer or focus on a button), a hidden frame loads `/pay/preload`
 * (an empty page that fetches those assets), so the process is running and the assets are cached
 * for this page's frames by the time they are needed. One such frame per page; narrow screens pay in a popup
 * (another cache partition), so they are not warmed.
 */
const INTENT = 'button,[role=button],input';

export function warmPayFrame(base: string): void {
  const src = `${base}/pay/preload`;
  if (innerWidth < 600 || document.querySelector(`iframe[src="${src}"]`)) return;
  const f = document.createElement('iframe');
  f.src = src;
  f.title = 'Remit preload';
  f.tabIndex = -1;
  f.setAttribute('aria-hidden', 'true');
  // Set through the CSSOM, which a page's CSP without 'unsafe-inline' still allows.
  f.style.display = 'none';
  document.body.append(f);
}

/** Warms now when a button already has the pointer or focus (the intent that loaded the chunk), else on the next such intent. */
export function warmOnIntent(base: string): void {
  const now = document.querySelector(`:is(${INTENT}):hover`) || document.activeElement?.closest?.(INTENT);
  if (now) return warmPayFrame(base);
  const on = (e: Event) => {
    if (!(e.target as Element).closest?.(INTENT)) return;
    for (const t of ['pointerover', 'focusin']) removeEventListener(t, on, true);
    warmPayFrame(base);
  };
  for (const t of ['pointerover', 'focusin']) addEventListener(t, on, true);
}
