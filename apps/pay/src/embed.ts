import type { PaymentMessage } from '@remit/contract';

/**
 * The embedding protocol: in a popup or an iframe the page tells the merchant page the outcome,
 * posting only to the link's recorded origin (never '*'); messages from any other origin are
 * ignored. The one message understood is `{type:'remit:query'}`, answered with the last outcome.
 */
export function isEmbedded(): boolean {
  return typeof window !== 'undefined' && (!!window.opener || window.parent !== window);
}

function targets(): Window[] {
  const out: Window[] = [];
  if (window.opener) out.push(window.opener as Window);
  if (window.parent !== window) out.push(window.parent);
  return out;
}

export function createEmbed(origin: string | null) {
  let last: PaymentMessage | null = null;
  const active = !!origin && isEmbedded();
  const post = (msg: PaymentMessage) => {
    last = msg;
    if (!active) return;
    for (const w of targets()) {
      try {
        w.postMessage(msg, origin!);
      } catch {
        /* the other window went away */
      }
    }
  };
  if (active) {
    window.addEventListener('message', (e: MessageEvent) => {
      if (e.origin !== origin) return;
      if ((e.data as { type?: string } | null)?.type === 'remit:query' && last && e.source) {
        (e.source as Window).postMessage(last, origin!);
      }
    });
    // In a merchant's modal, Escape pressed inside the page asks the modal to close (key events
    // inside a frame never reach the parent page).
    if (window.parent !== window) {
      window.addEventListener('keydown', (e) => {
        if (e.key === 'Escape' && last?.status !== 'succeeded') post({ type: 'remit:payment', status: 'closed', transaction_id: null });
      });
    }
    // A popup closed (or navigated away) before paying tells its opener it was closed.
    window.addEventListener('pagehide', () => {
      if (window.opener && last?.status !== 'succeeded') post({ type: 'remit:payment', status: 'closed', transaction_id: null });
    });
  }
  return {
    succeeded: (transactionId: string) => post({ type: 'remit:payment', status: 'succeeded', transaction_id: transactionId }),
    failed: () => post({ type: 'remit:payment', status: 'failed', transaction_id: null }),
  };
}
export type Embed = ReturnType<typeof createEmbed>;
