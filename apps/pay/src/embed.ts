import type { PaymentMessage } from '@remit/contract';

/**
 * The embedding protocol: in a popup or an iframe the page tells the merchant page the outcome,
 * posting only to the link's recorded origin (never '*'); messages from any other origin are
 * ignored. The one message understood is `{type:'remit:query'}`, answered with the last outcome.
 */
export function isEmbedded(): boolean {
  return !import.meta.env.SSR && (!!opener || parent !== window);
}

/** The windows told: an opener (popup) and a parent (iframe). */
const targets = () => [opener as Window | null, parent !== window && parent].filter((w): w is Window => !!w);

export function createEmbed(origin: string | null) {
  let last: PaymentMessage | null = null;
  const active = !!origin && isEmbedded();
  const post = (status: PaymentMessage['status'], transaction_id: string | null = null) => {
    last = { type: 'remit:payment', status, transaction_id };
    if (active)
      for (const w of targets()) {
        try {
          w.postMessage(last, origin!);
        } catch {
          /* the other window went away */
        }
      }
  };
  if (active) {
    addEventListener('message', (e: MessageEvent) => {
      if (e.origin === origin && (e.data as { type?: string } | null)?.type === 'remit:query' && last && e.source) {
        (e.source as Window).postMessage(last, origin);
      }
    });
    // In a merchant's modal, Escape pressed inside the page asks the modal to close (key events
    // inside a frame never reach the parent page).
    if (parent !== window)
      addEventListener('keydown', (e) => e.key === 'Escape' && last?.status !== 'succeeded' && post('closed'));
    // A popup closed (or navigated away) before paying tells its opener it was closed.
    addEventListener('pagehide', () => opener && last?.status !== 'succeeded' && post('closed'));
  }
  return {
    succeeded: (transactionId: string) => post('succeeded', transactionId),
    failed: () => post('failed'),
  };
}
export type Embed = ReturnType<typeof createEmbed>;
