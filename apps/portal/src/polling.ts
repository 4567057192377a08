import { useEffect, useRef } from 'preact/hooks';

/** How often open lists ask for news (docs/concepts.md "The sandbox portal"). */
export const POLL_MS = 2000;

/**
 * Runs `load` now and then every `ms` while the component is mounted and the tab is visible; a
 * call never overlaps the previous one, and a tab that comes back to view loads at once.
 */
export function usePolling(load: () => Promise<unknown>, deps: unknown[] = [], ms = POLL_MS): void {
  const latest = useRef(load);
  latest.current = load;
  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const tick = async () => {
      clearTimeout(timer);
      if (stopped) return;
      if (document.visibilityState !== 'hidden') await latest.current().catch(() => undefined);
      if (!stopped) timer = setTimeout(tick, ms);
    };
    const onVisible = () => {
      if (document.visibilityState === 'visible') void tick();
    };
    void tick();
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      stopped = true;
      clearTimeout(timer);
      document.removeEventListener('visibilitychange', onVisible);
    };
  }, deps);
}
