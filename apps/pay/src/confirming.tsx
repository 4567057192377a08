import { useEffect } from 'preact/hooks';
import { t } from './i18n.js';

/** How often the page asks whether the processor has answered. */
const POLL_MS = 5000;

/**
 * A card attempt whose processor answer never came: the server asks the processor and the link
 * becomes paid or open again. A status region (announced, not focus-stealing) while the page
 * asks every few seconds; the button asks at once.
 */
export function Confirming({ onCheck, busy }: { onCheck: () => void; busy: boolean }) {
  const m = t();
  useEffect(() => {
    const timer = setInterval(onCheck, POLL_MS);
    return () => clearInterval(timer);
  }, []);
  return (
    <section class="panel notice" role="status" aria-labelledby="confirming-title">
      <h2 id="confirming-title">{m.confirmingTitle}</h2>
      <p>{m.confirmingText}</p>
      <button type="button" class="button button--secondary" disabled={busy} onClick={onCheck}>
        {m.checkAgain}
      </button>
    </section>
  );
}
