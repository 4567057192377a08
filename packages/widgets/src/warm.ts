import { pageQuery } from './i18n.js';

/**
 * The warm pay frame. Opening the pay modal costs a cross-site frame: a renderer process to start,
 * the pay page's HTML and assets to fetch, its script to run. When the customer shows intent (the
 * pointer or focus on a button), a hidden frame loads `/pay/preload`, a shell of the pay page (its
 * script run, nothing rendered). The pay modal then takes that frame, moves it into the dialog
 * (`moveBefore` keeps a frame's document, where a plain move would reload it) and posts it the
 * link to render: no navigation after the click. One such frame per page; narrow screens pay in a
 * popup (another cache partition), so they are not warmed.
 */
const INTENT = 'button,[role=button],input';

export interface WarmFrame {
  frame: HTMLIFrameElement;
  /** The origin the shell was loaded from (the loader's), which may differ from the pay links' (PUBLIC_URL). */
  origin: string;
  /** Resolves once the shell has loaded (its script has run and listens). */
  ready: Promise<true>;
}

let warm: WarmFrame | null = null;

export function warmPayFrame(base: string, locale?: string | null): void {
  if (innerWidth < 600 || warm?.frame.isConnected) return;
  const f = document.createElement('iframe');
  // Its module script has run (and listens) by the frame's load event.
  warm = {
    frame: f,
    origin: new URL(base, location.href).origin,
    ready: new Promise((r) => f.addEventListener('load', () => r(true), { once: true })),
  };
  f.src = `${base}/pay/preload${pageQuery(locale)}`;
  f.title = 'Remit preload';
  f.allow = 'payment';
  f.tabIndex = -1;
  f.setAttribute('aria-hidden', 'true');
  // Set through the CSSOM, which a page's CSP without 'unsafe-inline' still allows.
  f.style.display = 'none';
  document.body.append(f);
}

/** The warm frame for a pay modal, if one is on the page and this browser can move it without reloading it; the next intent warms another. */
export function takeWarmFrame(): WarmFrame | null {
  const w = warm?.frame.isConnected && 'moveBefore' in Element.prototype ? warm : null;
  if (w) warm = null;
  return w;
}

/** Warms now when a button already has the pointer or focus (the intent that loaded the chunk), else on the next such intent. */
export function warmOnIntent(base: string, locale?: string | null): void {
  const now = document.querySelector(`:is(${INTENT}):hover`) || document.activeElement?.closest?.(INTENT);
  if (now) {
    warmPayFrame(base, locale);
    return;
  }
  const on = (e: Event) => {
    if (!(e.target as Element).closest?.(INTENT)) return;
    for (const t of ['pointerover', 'focusin']) removeEventListener(t, on, true);
    warmPayFrame(base, locale);
  };
  for (const t of ['pointerover', 'focusin']) addEventListener(t, on, true);
}
