import type { PayPageState } from '@remit/contract';
import { getLink } from './api.js';

/**
 * The warm pay frame (`/pay/preload`, `#app[data-shell]`): the page's script loaded and run, nothing
 * rendered, until its parent (the widget's page, never another window) posts `{type:'remit:open',
 * link_id}`. Then it fetches the link's view and starts the page on it, if every ancestor's origin
 * is one of the view's `frame_ancestors` (the link page's own `frame-ancestors`); else it navigates
 * to `/pay/{link_id}`, where the browser enforces that list itself. It tells its parent it is ready
 * (`remit:shell`, carrying nothing) so the widget knows it can skip a navigation.
 */
export function shell(start: (state: PayPageState) => void): void {
  const open = async (e: MessageEvent) => {
    const id = e.source === parent && e.data?.type === 'remit:open' && e.data.link_id;
    if (typeof id !== 'string') return;
    removeEventListener('message', open);
    const path = `/pay/${encodeURIComponent(id)}`;
    const r = await getLink(id);
    const may = r.ok ? r.data.frame_ancestors : [];
    // Every ancestor: the parent (the message's origin) and, where the browser lists them, the
    // ones above it; without the list (Firefox), only a parent that is the top window.
    const ancestors = [e.origin, ...(location.ancestorOrigins ?? (parent === top ? [] : ['?']))];
    if (r.ok && ancestors.every((o) => may.includes('*') || may.includes(o))) {
      history.replaceState(null, '', path);
      start({ page: 'link', view: r.data });
    } else location.replace(path);
  };
  addEventListener('message', open);
  parent.postMessage({ type: 'remit:shell' }, '*');
}
