import { chmodSync, mkdirSync, readdirSync, readFileSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const LOCK_FILE = 'remit.pid';

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // EPERM: the process exists but belongs to someone else.
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * The embedded database's folder, owned by one process at a time. Made owner-only (0700: no
 * other user can list or read the database files, whatever their own modes), then claimed with a
 * lock file holding this process's id. A lock left by a process that no longer runs (killed) is
 * taken over; one held by a live process is refused with a message that says what to do.
 * Returns the release function.
 */
export function claimDataDir(dir: string): () => void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
  const file = join(dir, LOCK_FILE);
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      writeFileSync(file, String(process.pid), { flag: 'wx', mode: 0o600 });
      return () => {
        try {
          if (readFileSync(file, 'utf8').trim() === String(process.pid)) unlinkSync(file);
        } catch {
          // already gone
        }
      };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
    let holder = NaN;
    try {
      holder = Number(readFileSync(file, 'utf8').trim());
    } catch {
      continue; // released meanwhile
    }
    if (Number.isInteger(holder) && holder > 0 && holder !== process.pid && alive(holder)) {
      throw new Error(
        `the embedded database in ${dir} is in use by another Remit process (pid ${holder}). ` +
          'Stop that server first (one process owns an embedded database), or run both on PostgreSQL (DATABASE_URL).',
      );
    }
    // Stale (its process is gone) or our own: replace it.
    try {
      unlinkSync(file);
    } catch {
      // someone else removed it first
    }
  }
  throw new Error(`could not lock the embedded database in ${dir}; remove ${file} if no Remit process runs.`);
}

/**
 * PGlite creates its files world-readable (0644) whatever the umask: take group and other bits off
 * everything in the folder. Run once the database is open and again at close; files it makes in
 * between sit in the 0700 folder, out of other users' reach.
 */
export function restrictDataDir(dir: string): void {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    const mode = statSync(p).mode & 0o777;
    if (mode & 0o077) chmodSync(p, mode & 0o700);
    if (e.isDirectory()) restrictDataDir(p);
  }
}
