/**
 * Calls that would send the same statement but for a count, joined: per key at most one statement
 * is in flight, and the calls made while it runs go together as the next one. A lone call is sent
 * at once (no added wait); under load a key costs one round trip per batch instead of one per call.
 *
 * @example
 *   const hits = new Coalescer<Decision>();
 *   const d = await hits.call('api_client:cl_1', (n) => countHits(n)); // countHits answers n decisions, in call order
 */
export class Coalescer<R> {
  readonly #lanes = new Map<string, Lane<R>>();

  /**
   * Joins the calls of `key` that come while one is in flight. `send(n)` runs the statement for n
   * calls and answers one result per call, in the order the calls came; a failure fails them all.
   * The calls of one key must mean the same statement: the first call's `send` serves the batch.
   */
  call(key: string, send: (n: number) => Promise<readonly R[]>): Promise<R> {
    let lane = this.#lanes.get(key);
    if (!lane) this.#lanes.set(key, (lane = { send, waiting: [], running: false }));
    const joined = lane;
    return new Promise<R>((resolve, reject) => {
      joined.waiting.push({ resolve, reject });
      if (!joined.running) this.#flush(key, joined);
    });
  }

  /** Keys with a statement in flight (a lane is dropped once it has nothing to send). */
  get inFlight(): number {
    return this.#lanes.size;
  }

  #flush(key: string, lane: Lane<R>): void {
    const batch = lane.waiting;
    lane.waiting = [];
    lane.running = true;
    const settle = () => {
      if (lane.waiting.length) return this.#flush(key, lane);
      lane.running = false;
      this.#lanes.delete(key);
    };
    let sent: Promise<readonly R[]>;
    try {
      sent = lane.send(batch.length);
    } catch (e) {
      sent = Promise.reject(e);
    }
    sent.then(
      (results) => {
        settle();
        for (let i = 0; i < batch.length; i++) batch[i]!.resolve(results[i]!);
      },
      (err: unknown) => {
        settle();
        for (const w of batch) w.reject(err);
      },
    );
  }
}

interface Lane<R> {
  send: (n: number) => Promise<readonly R[]>;
  waiting: Array<{ resolve(r: R): void; reject(e: unknown): void }>;
  running: boolean;
}
