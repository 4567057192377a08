/**
 * One Idempotency-Key per attempt, kept in sessionStorage: a double click, a retry after a network
 * error or a reload sends the same key, so the server replays the first answer instead of charging
 * again. An attempt is a scope (the link) plus a fingerprint of what is paid with (never the full
 * card or account number); a different card is a new attempt, and a decline ends the attempt.
 */
const memory = new Map<string, string>();

function store(): Storage | null {
  try {
    return window.sessionStorage;
  } catch {
    return null; // storage blocked (some embedded contexts): the key lives as long as the page
  }
}

/** 128 random bits. (`crypto.randomUUID` exists only in secure contexts: not on plain http.) */
const newKey = (): string => crypto.getRandomValues(new Uint32Array(4)).join('-');

export function attemptKey(scope: string, fingerprint: string): string {
  const name = `remit-attempt:${scope}`;
  const raw = store()?.getItem(name) ?? memory.get(name) ?? null;
  if (raw) {
    try {
      const saved = JSON.parse(raw) as { key: string; fp: string };
      if (saved.fp === fingerprint) return saved.key;
    } catch {
      /* a damaged entry: start a new attempt */
    }
  }
  const key = newKey();
  const value = JSON.stringify({ key, fp: fingerprint });
  memory.set(name, value);
  try {
    store()?.setItem(name, value);
  } catch {
    /* quota or blocked: memory keeps it */
  }
  return key;
}

export function endAttempt(scope: string): void {
  const name = `remit-attempt:${scope}`;
  memory.delete(name);
  try {
    store()?.removeItem(name);
  } catch {
    /* nothing kept */
  }
}
