/**
 * Runs `fn` once any press of a pointer has finished. A blur error shown while the mouse button is
 * still down shifts the layout, and the click then lands beside the button or radio the customer
 * aimed at; deferring it until after the click keeps the target where it was.
 */
let down = false;
let pending: Array<() => void> = [];

if (!import.meta.env.SSR) {
  document.addEventListener('pointerdown', () => (down = true), true);
  const release = () => {
    if (!down) return;
    down = false;
    setTimeout(() => {
      const run = pending;
      pending = [];
      for (const fn of run) fn();
    }, 0);
  };
  document.addEventListener('pointerup', release, true);
  document.addEventListener('pointercancel', release, true);
}

export function afterPointer(fn: () => void): void {
  if (down) pending.push(fn);
  else fn();
}
