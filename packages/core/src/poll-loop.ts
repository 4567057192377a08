import type { DispatcherLogger } from './events/dispatcher.js';

export interface PollLoopOptions {
  /** How long an idle loop sleeps between passes. */
  pollMs: number;
  /** Logged (as a warning) when a pass throws. */
  failureMessage: string;
  logger?: DispatcherLogger;
}

/**
 * The background loop of the outbox dispatchers: runs `pass` again at once while it reports more
 * work, otherwise sleeps `pollMs` (after a failed pass, a back-off doubling from 100 ms to 5 s)
 * unless `wake()` cuts the sleep short. `stop()` ends it once the pass in progress is done.
 */
export class PollLoop {
  readonly #pass: () => Promise<boolean>;
  readonly #o: PollLoopOptions;
  #stopped = true;
  #loop: Promise<void> | null = null;
  #wake: (() => void) | null = null;

  /** `pass` does one round of work and returns whether there is more to do right away. */
  constructor(pass: () => Promise<boolean>, opts: PollLoopOptions) {
    this.#pass = pass;
    this.#o = opts;
  }

  start(): void {
    if (!this.#stopped) return;
    this.#stopped = false;
    this.#loop = this.#run();
  }

  /** Ends the current sleep, if any, so the next pass runs now. */
  wake(): void {
    this.#wake?.();
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    this.#wake?.();
    await this.#loop;
  }

  async #run(): Promise<void> {
    let errorDelay = 0;
    while (!this.#stopped) {
      let busy = false;
      try {
        busy = await this.#pass();
        errorDelay = 0;
      } catch (err) {
        if (this.#stopped) break;
        errorDelay = Math.min(Math.max(errorDelay * 2, 100), 5_000);
        this.#o.logger?.warn({ err }, this.#o.failureMessage);
      }
      if (!busy) await this.#sleep(errorDelay || this.#o.pollMs);
    }
  }

  #sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const t = setTimeout(done, ms);
      const self = this;
      function done() {
        clearTimeout(t);
        if (self.#wake === done) self.#wake = null;
        resolve();
      }
      this.#wake = done;
    });
  }
}
