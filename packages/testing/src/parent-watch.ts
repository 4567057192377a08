/**
 * Calls `gone` once the process that started this one has exited: its parent id changes (the
 * orphan is adopted by init or a subreaper) or it no longer exists. Polled: Node has no event for
 * it, and a pipe's end would not do (a test may start the command with stdio ignored).
 */
export function onParentGone(gone: () => void, everyMs = 500): () => void {
  const parent = process.ppid;
  const alive = () => {
    if (process.ppid !== parent) return false;
    try {
      process.kill(parent, 0);
      return true;
    } catch (e) {
      // EPERM: it exists, under another user.
      return (e as NodeJS.ErrnoException).code === 'EPERM';
    }
  };
  const timer = setInterval(() => {
    if (alive()) return;
    clearInterval(timer);
    gone();
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
