import { readFileSync } from 'node:fs';

/** Shells `npx` (npm exec) and scripts run a command through (`sh -c remit-sandbox`). */
const SHELLS = new Set(['sh', 'bash', 'dash', 'zsh', 'ash']);

/** `comm` and parent of a process, from /proc (Linux); null elsewhere or once it is gone. */
function procStat(pid: number): { comm: string; ppid: number } | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // pid (comm) state ppid …: comm may hold spaces and parentheses, so read around the last ')'.
    const close = stat.lastIndexOf(')');
    return { comm: stat.slice(stat.indexOf('(') + 1, close), ppid: Number(stat.slice(close + 2).split(' ')[1]) };
  } catch {
    return null;
  }
}

function exists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // EPERM: it exists, under another user.
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Calls `gone` once the process that started this one has exited: the parent, and when the parent
 * is a shell (`npx` runs `sh -c remit-sandbox`), the process that started the shell too, since a
 * shell outlives an `npx` killed outright. Polled: Node has no event for it, and a pipe's end would
 * not do (a test may start the command with stdio ignored). Started by init: nothing to watch.
 */
export function onParentGone(gone: () => void, everyMs = 250): () => void {
  const parent = process.ppid;
  if (parent <= 1) return () => {};
  const watched = [parent];
  const shell = procStat(parent);
  if (shell && SHELLS.has(shell.comm) && shell.ppid > 1) watched.push(shell.ppid);
  const timer = setInterval(() => {
    if (process.ppid === parent && watched.every(exists)) return;
    clearInterval(timer);
    gone();
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
