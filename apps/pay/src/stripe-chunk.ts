import { useSignal } from '@preact/signals';
import { useEffect } from 'preact/hooks';

export type StripeChunk = typeof import('./stripe-entry.js');

/**
 * The Stripe path's chunk (stripe-entry.tsx), fetched after the first render when the view says
 * Stripe takes the card: outside the page's main script and its 20 KB budget.
 */
export function useStripeChunk(wanted: boolean, failed: () => void): StripeChunk | null {
  const chunk = useSignal<StripeChunk | null>(null);
  useEffect(() => {
    if (wanted) import('./stripe-entry.js').then((c) => (chunk.value = c), failed);
  }, []);
  return chunk.value;
}
