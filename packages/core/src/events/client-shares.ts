/** A 2xx in less than this counts as a fast answer: the client's share grows. */
export const FAST_ANSWER_MS = 1_000;

interface Share {
  /** Deliveries of the client this process holds: claimed, not yet sent and answered. */
  held: number;
  /** The most it may hold now. */
  limit: number;
  /** The last claim filled its limit: more of its deliveries may be due. */
  full: boolean;
  /** When it last held a delivery (performance.now()). */
  lastAt: number;
}

/** A raised limit is kept this long after the client's last delivery (between claims, bursts). */
const KEPT_MS = 60_000;

/**
 * Each client's share of one dispatcher's deliveries. A client starts at `base` (what any one
 * receiver, however slow or hanging, can tie up); every fast 2xx raises its limit by one up to
 * `most`, and any other outcome (an error, a timeout, a non-2xx, a slow answer) drops it back to
 * `base`. So a fast receiver's backlog goes out through most of the slots, and a receiver that
 * turns slow costs the others at most `most` slots for one try's timeout. Clients are kept
 * while they hold deliveries, and a raised limit a minute after that.
 */
export class ClientShares {
  readonly #shares = new Map<string, Share>();

  constructor(
    readonly base: number,
    readonly most: number,
  ) {}

  /** How many more each held client may take (JSON, client id to a count); a client not in it: `base`. */
  room(): string {
    const room: Record<string, number> = {};
    const now = performance.now();
    for (const [client, s] of this.#shares) {
      if (s.held === 0 && now - s.lastAt > KEPT_MS) this.#shares.delete(client);
      else room[client] = s.limit - s.held;
    }
    return JSON.stringify(room);
  }

  /** Counts a claim's deliveries (their client ids, one per delivery). */
  took(clients: Iterable<string>): void {
    const touched = new Set<Share>();
    for (const client of clients) {
      let s = this.#shares.get(client);
      if (!s) this.#shares.set(client, (s = { held: 0, limit: this.base, full: false, lastAt: 0 }));
      s.held++;
      touched.add(s);
    }
    for (const s of touched) s.full = s.held >= s.limit;
  }

  /** A delivery of the client was answered (or failed). */
  answered(client: string, ok: boolean, latencyMs: number): void {
    const s = this.#shares.get(client);
    if (!s) return;
    s.limit = ok && latencyMs < FAST_ANSWER_MS ? Math.min(s.limit + 1, this.most) : this.base;
  }

  /**
   * A delivery of the client is done with its slot. True: the client was held back and half its
   * limit is free again, worth a claim now (one claim per half, not one per delivery).
   */
  released(client: string): boolean {
    const s = this.#shares.get(client);
    if (!s) return false;
    s.lastAt = performance.now();
    if (--s.held <= 0 && s.limit === this.base) this.#shares.delete(client);
    if (!s.full || s.held > s.limit / 2) return false;
    s.full = false;
    return true;
  }
}
