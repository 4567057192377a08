import { chmodSync, mkdirSync, readdirSync, readFileSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';

/** Names the holder for the message a refused start prints; the lock itself is the socket (Linux). */
const HOLDER_FILE = 'remit.pid';
/** How long a start waits for a holder that is going away (a supervisor restarting a killed server). */
const WAIT_MS = 5_000;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // EPERM: the process exists but belongs to someone else.
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function holderOf(file: string): number | null {
  try {
    const pid = Number(readFileSync(file, 'utf8').trim().split(/\s/)[0]);
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

function inUse(dir: string, holder: number | null): Error {
  return new Error(
    `the embedded database in ${dir} is in use by another Remit process${holder ? ` (pid ${holder})` : ''}. ` +
      'Stop that server first (one process owns an embedded database), or run both on PostgreSQL (DATABASE_URL).',
  );
}

/** Listens on an abstract Unix socket: EADDRINUSE while another process holds the name. */
function listenAbstract(name: string): Promise<Server | 'taken'> {
  return new Promise((resolve, reject) => {
    const server = createServer((socket) => socket.destroy());
    server.once('error', (e: NodeJS.ErrnoException) => (e.code === 'EADDRINUSE' ? resolve('taken') : reject(e)));
    server.listen(`\0${name}`, () => {
      server.unref();
      resolve(server);
    });
  });
}

/**
 * The embedded database's folder, owned by one process at a time. Made owner-only (0700: no
 * other user can list or read the database files, whatever their own modes), then claimed. On
 * Linux the claim is an abstract Unix socket named for the folder's device and inode: the kernel
 * closes it the moment its process dies (a SIGKILL, before any reaping), and binding it is atomic,
 * so a dead process never holds the folder and two live ones never both do (docs/operations.md,
 * "One process per embedded database"). `remit.pid` only names the holder for the message. Elsewhere
 * (a developer's macOS) the claim is that file, taken over when its process is gone.
 * Returns the release function.
 */
export async function claimDataDir(dir: string): Promise<() => void> {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
  const file = join(dir, HOLDER_FILE);
  if (process.platform !== 'linux') return claimByFile(dir, file);
  const { dev, ino } = statSync(dir);
  const name = `remit-pglite-${dev}-${ino}`;
  const until = Date.now() + WAIT_MS;
  let server = await listenAbstract(name);
  while (server === 'taken' && Date.now() < until) {
    await new Promise((r) => setTimeout(r, 100));
    server = await listenAbstract(name);
  }
  if (server === 'taken') throw inUse(dir, holderOf(file));
  const lock = server;
  writeFileSync(file, `${process.pid}\n`, { mode: 0o600 });
  return () => {
    if (holderOf(file) === process.pid) unlinkSafe(file);
    lock.close();
  };
}

function unlinkSafe(file: string) {
  try {
    unlinkSync(file);
  } catch {
    // already gone
  }
}

/** Without abstract sockets: a lock file holding this process's id, taken over when that process no longer runs. */
function claimByFile(dir: string, file: string): () => void {
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      writeFileSync(file, String(process.pid), { flag: 'wx', mode: 0o600 });
      return () => {
        if (holderOf(file) === process.pid) unlinkSafe(file);
      };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
    const holder = holderOf(file);
    if (holder !== null && holder !== process.pid && alive(holder)) throw inUse(dir, holder);
    // Stale (its process is gone) or our own: replace it.
    unlinkSafe(file);
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
