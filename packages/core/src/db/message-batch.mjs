// Batching of the messages between the server's thread and PGlite's (pglite-thread.ts, pglite-worker.mjs).
// Plain JavaScript so that the worker, which Node runs as it is, imports it too.

/** How long a thread may hold its messages to send them together, in ms of its own work since it last sent. */
export const SEND_WITHIN_MS = 0.2;

/**
 * `queue(item)` for items that `send(batch)` takes together: those of one event-loop turn go in one
 * message (each message costs both threads more than a short statement's answer), but once this
 * thread has worked SEND_WITHIN_MS since it last sent they go at once, so that the other thread is
 * never left idle waiting on a long turn here. A lone item after a pause goes at once.
 */
export function messageBatcher(send) {
  let queued = [];
  let lastSent = performance.now();
  const flush = () => {
    if (!queued.length) return;
    const batch = queued;
    queued = [];
    lastSent = performance.now();
    send(batch);
  };
  return (item) => {
    const n = queued.push(item);
    if (performance.now() - lastSent >= SEND_WITHIN_MS) flush();
    else if (n === 1) setImmediate(flush);
  };
}

/** The message for a batch: its one item as it is, or `{ batch }`. */
export const asMessage = (batch) => (batch.length === 1 ? batch[0] : { batch });

/** The items a message carries (the reverse of asMessage). */
export const itemsOf = (message) => message.batch ?? [message];
