import type { Channel } from './messaging.js';

/** What became of the messages an operation queued, as its answer reports them. */
export interface Delivery {
  /** Accepted by the provider, or kept by the sandbox inbox. */
  sent: Channel[];
  /** Not tried yet or to be tried again; `error` is the first try's, if it failed. */
  queued: Array<{ channel: Channel; error: string | null }>;
  /** Refused for good (an invalid number): it will not be sent. */
  failed: Array<{ channel: Channel; error: string }>;
}
