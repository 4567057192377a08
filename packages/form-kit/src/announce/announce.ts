/**
 * Says `text` through the polite live region (`#live`) the page's HTML carries from load (a region
 * added later is often not read). Cleared first so the same message twice is read twice.
 */
export function announce(text: string): void {
  const el = document.getElementById('live');
  if (!el) return;
  el.textContent = '';
  setTimeout(() => {
    el.textContent = text;
  }, 60);
}
