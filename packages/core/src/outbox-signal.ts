/**
 * The in-process wake-up of the outbox dispatchers: an operation that writes an event or a
 * message says so (operation.ts, `outboxWritten`), and once its transaction commits the
 * dispatchers of this process hear it and look at once instead of at their next poll. Other
 * processes still find the rows by polling.
 */
export type OutboxKind = 'webhooks' | 'messages';
type Listener = (kind: OutboxKind) => void;

/** One database's wake-ups (a field of the context): the listeners of commits that wrote an outbox. */
export class OutboxSignal {
  readonly #listeners = new Set<Listener>();

  fire(kind: OutboxKind): void {
    for (const l of this.#listeners) l(kind);
  }

  /** Hears every commit that wrote to an outbox; returns the unsubscribe. */
  listen(listener: Listener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }
}
