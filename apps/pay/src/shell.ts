import type { PayLinkView, PayPageState } from '@remit/contract';
import { getLink } from './api.js';

/**
 * The warm pay frame (`/pay/preload`, `#app[data-shell]`): the page's script loaded and run, nothing
 * rendered, until its parent (the widget's page, never another window) posts `{type:'remit:open',
 * link_id}`. It answers `{type:'remit:opened'}` to the parent's origin, then fetches the link's view
 * and starts the page on it if every ancestor's origin is one of the view's `frame_ancestors` (the
 * link page's own `frame-ancestors`, `['*']` for any); else (or in a browser that does not list a
 * frame's ancestors) it navigates to `/pay/{link_id}`, where the browser enforces that list itself.
 * A link whose card is taken in Stripe's fields navigates too: only the link page's CSP allows Stripe.js.
 */
export function shell(start: (state: PayPageState) => void): void {
  // biome-ignore lint/suspicious/noGlobalAssign: the frame's own message handler (window.onmessage), set once
  onmessage = async (e) => {
    const id = e.source === parent && e.data?.type === 'remit:open' && e.data.link_id;
    if (typeof id !== 'string') return;
    // biome-ignore lint/suspicious/noGlobalAssign: removed after the first link
    onmessage = null; // one link per frame
    // Told at once, to the parent's origin: a parent that hears nothing navigates this frame to the link.
    try {
      parent.postMessage({ type: 'remit:opened' }, e.origin);
    } catch {
      /* an opaque ('null') origin cannot be posted to; such a parent may not frame a link anyway */
    }
    const path = `/pay/${encodeURIComponent(id)}`;
    const r = await getLink(id);
    const may = (r.ok && r.data.card_entry.kind === 'remit' && r.data.frame_ancestors) || [];
    // Every ancestor's origin as the browser lists them, the parent first (the message came from
    // it: source === parent); a browser without that list (Firefox) navigates, and frame-ancestors decides.
    const above = location.ancestorOrigins;
    if (above && (may[0] === '*' || [...above].every((o) => may.includes(o)))) {
      start({ page: 'link', view: (r as { data: PayLinkView }).data });
    } else location.replace(path);
  };
}
