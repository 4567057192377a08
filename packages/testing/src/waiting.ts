/** Waiters for things that arrive later (a webhook, a message), each with a deadline. */
export class Arrivals<T> {
  readonly #items: T[] = [];
  readonly #taken = new Set<T>();
  readonly #waiters = new Set<() => void>();

  push(item: T): void {
    this.#items.push(item);
    for (const w of [...this.#waiters]) w();
  }

  all(): T[] {
    return [...this.#items];
  }

  clear(): void {
    this.#items.length = 0;
    this.#taken.clear();
  }

  /**
   * The first item matching `match` not handed out by an earlier call, waiting up to `timeoutMs`
   * for one; null when none came in time or `signal` aborted first (then nothing is taken).
   */
  take(match: (item: T) => boolean, timeoutMs: number, signal?: AbortSignal): Promise<T | null> {
    return new Promise((resolve) => {
      const look = () => {
        const found = this.#items.find((i) => !this.#taken.has(i) && match(i));
        if (found === undefined) return false;
        this.#taken.add(found);
        done();
        resolve(found);
        return true;
      };
      const giveUp = () => {
        done();
        resolve(null);
      };
      const timer = setTimeout(giveUp, timeoutMs);
      const done = () => {
        clearTimeout(timer);
        this.#waiters.delete(onPush);
        signal?.removeEventListener('abort', giveUp);
      };
      const onPush = () => void look();
      if (signal?.aborted) return giveUp();
      if (look()) return;
      this.#waiters.add(onPush);
      signal?.addEventListener('abort', giveUp);
    });
  }

  /** `take`, rejecting on timeout with what was awaited (`describe`) in its message. */
  async next(match: (item: T) => boolean, timeoutMs: number, describe: () => string): Promise<T> {
    const found = await this.take(match, timeoutMs);
    if (found === null) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${describe()}`);
    return found;
  }
}
