/** A 2xx in less than this counts as a fast answer: the client's share grows. */
export const FAST_ANSWER_MS = 1_000;

interface Share {
  /** Deliveries of the client this process holds: claimed, not yet sent and answered. */
  held: number;
  /** Of those, the ones being sent (in slots). */
  sending: number;
  /** The most it may send at once now. */
  limit: number;
  /** The last claim filled the client's room (`cap`): more of its deliveries may be due. */
  full: boolean;
  /** The most it could hold by that claim. */
  cap: number;
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
 *
 * A claim made ahead (a batch that waits for slots while the last is sent) may take a client as
 * much again as its limit, waiting: the limit bounds what it sends at once (`maySend`), and its
 * next batch is claimed while this one is sent, not after.
 */
export class ClientShares {
  readonly #shares = new Map<string, Share>();

  constructor(
    readonly base: number,
    readonly most: number,
  ) {}

  /** What a claim may take of a client whose limit is `limit`: twice it when made ahead. */
  #cap(limit: number, ahead: boolean): number {
    return ahead ? 2 * limit : limit;
  }

  /**
   * How many more each held client may take (client id to a count); a client not in it:
   * `fresh(ahead)`.
   */
  room(ahead: boolean): Record<string, number> {
    const room: Record<string, number> = {};
    const now = performance.now();
    for (const [client, s] of this.#shares) {
      if (s.held === 0 && now - s.lastAt > KEPT_MS) this.#shares.delete(client);
      else room[client] = this.#cap(s.limit, ahead) - s.held;
    }
    return room;
  }

  /** What a claim may take of a client that holds nothing. */
  fresh(ahead: boolean): number {
    return this.#cap(this.base, ahead);
  }

  /**
   * Counts a claim's deliveries (their client ids, one per delivery). `room`: what the claim
   * offered each client (`room(ahead)`; `fresh(ahead)` for one not in it). A client that took all
   * of its room may have more due: `released` asks for a claim once half its cap is free.
   */
  took(clients: Iterable<string>, ahead: boolean, room: Record<string, number> = {}): void {
    const taken = new Map<string, number>();
    for (const client of clients) taken.set(client, (taken.get(client) ?? 0) + 1);
    for (const [client, n] of taken) {
      let s = this.#shares.get(client);
      if (!s) this.#shares.set(client, (s = { held: 0, sending: 0, limit: this.base, full: false, cap: 0, lastAt: 0 }));
      s.held += n;
      s.cap = this.#cap(s.limit, ahead);
      // Not only `held >= cap`: deliveries answered while the claim ran leave held short of the
      // cap though the client's room was filled, and its backlog would wait for the next poll.
      s.full = s.held >= s.cap || n >= (room[client] ?? this.fresh(ahead));
    }
  }

  /** Whether a delivery of the client may be sent now (it sends fewer than its limit). */
  maySend(client: string): boolean {
    const s = this.#shares.get(client);
    return !s || s.sending < s.limit;
  }

  /** Whether any delivery of the client is being sent by this process. */
  busy(client: string): boolean {
    return (this.#shares.get(client)?.sending ?? 0) > 0;
  }

  /** A delivery of the client is being sent. */
  sending(client: string): void {
    const s = this.#shares.get(client);
    if (s) s.sending++;
  }

  /** A delivery of the client was answered (or failed). */
  answered(client: string, ok: boolean, latencyMs: number): void {
    const s = this.#shares.get(client);
    if (!s) return;
    s.limit = ok && latencyMs < FAST_ANSWER_MS ? Math.min(s.limit + 1, this.most) : this.base;
  }

  /**
   * A delivery of the client is done with its slot. True: the client was held back and half of
   * what its last claim could take is free again, worth a claim now (one claim per half, not one
   * per delivery; made ahead, when its waiting batch has gone into slots).
   */
  released(client: string): boolean {
    const s = this.#shares.get(client);
    if (!s) return false;
    s.lastAt = performance.now();
    s.sending--;
    if (--s.held <= 0 && s.limit === this.base) this.#shares.delete(client);
    if (!s.full || s.held > s.cap / 2) return false;
    s.full = false;
    return true;
  }
}
