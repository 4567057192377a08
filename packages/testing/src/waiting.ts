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
   * The first item matching `match` not handed out by an earlier `next`, waiting up to
   * `timeoutMs` for one; `describe` names what was awaited in the timeout's message.
   */
  next(match: (item: T) => boolean, timeoutMs: number, describe: () => string): Promise<T> {
    return new Promise((resolve, reject) => {
      const look = () => {
        const found = this.#items.find((i) => !this.#taken.has(i) && match(i));
        if (found === undefined) return false;
        this.#taken.add(found);
        done();
        resolve(found);
        return true;
      };
      const timer = setTimeout(() => {
        done();
        reject(new Error(`Timed out after ${timeoutMs} ms waiting for ${describe()}`));
      }, timeoutMs);
      const done = () => {
        clearTimeout(timer);
        this.#waiters.delete(onPush);
      };
      const onPush = () => void look();
      if (!look()) this.#waiters.add(onPush);
    });
  }
}
