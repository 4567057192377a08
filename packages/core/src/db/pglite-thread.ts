import { Worker } from 'node:worker_threads';
import { messages, type QueryOptions, type Results, type Transaction } from '@electric-sql/pglite';
import { asMessage, itemsOf, messageBatcher } from './message-batch.mjs';

/**
 * Embedded PGlite on a worker thread, behind the part of PGlite's interface Drizzle and connect.ts
 * use (query, exec, transaction, close). The database (wasm, single-threaded) gets a core of its
 * own instead of sharing the server's one JS thread with HTTP, so the two run side by side.
 *
 * A transaction holds the worker's PGlite (its own mutex) from BEGIN until this side says commit
 * or rollback: other queries wait meanwhile, as on an in-process PGlite.
 */
export class PGliteThread {
  readonly #worker: Worker;
  readonly #pending = new Map<number, { resolve(v: unknown): void; reject(e: unknown): void }>();
  #lastId = 0;
  /** Calls go to the worker batched (message-batch.mjs). */
  readonly #post = messageBatcher<Call & { id: number }>((batch) => this.#send(batch));
  #stopped: Error | undefined;
  /** The database failed to open: nothing to close but the worker. */
  #unopened = false;
  #closing: Promise<void> | undefined;
  /** Settles once the worker's PGlite has opened (or failed to). */
  readonly waitReady: Promise<void>;

  /**
   * `textTypes`: type OIDs whose values stay text (the instance's parsers, set once). `workerUrl`:
   * another worker script (a test's). `onLost`: told when an opened database's worker stops
   * without close() (a crash): every call fails from then on.
   */
  constructor(opts: { dataDir?: string; textTypes: number[]; workerUrl?: URL; onLost?: (e: Error) => void }) {
    this.#worker = new Worker(opts.workerUrl ?? new URL('./pglite-worker.mjs', import.meta.url), {
      workerData: { dataDir: opts.dataDir, textTypes: opts.textTypes },
    });
    let ready!: () => void;
    let failed!: (e: unknown) => void;
    this.waitReady = new Promise<void>((res, rej) => ((ready = res), (failed = rej)));
    this.waitReady.catch(() => {}); // seen by whoever awaits it; never unhandled
    // The worker is held (ref) while it opens and while a call waits for its answer, and let go
    // otherwise: an idle database keeps no process alive, as an in-process PGlite does not.
    this.#worker.on('message', (m: Reply) => {
      if ('ready' in m) {
        if (this.#pending.size === 0) this.#worker.unref();
        if (m.ready) return ready();
        this.#unopened = true;
        return failed(rebuild(m.error!));
      }
      for (const a of itemsOf(m)) {
        const call = this.#pending.get(a.id);
        if (!call) continue;
        this.#pending.delete(a.id);
        if (a.error) call.reject(rebuild(a.error));
        else call.resolve(a.result);
      }
      if (this.#pending.size === 0) this.#worker.unref();
    });
    const stop = (why: string) => {
      if (this.#stopped) return;
      this.#stopped = new Error(`The PGlite worker stopped (${why}); the database is closed.`);
      failed(this.#stopped);
      for (const call of this.#pending.values()) call.reject(this.#stopped);
      this.#pending.clear();
      if (!this.#closing && !this.#unopened) opts.onLost?.(this.#stopped);
    };
    this.#worker.on('error', (e) => stop(e instanceof Error ? e.message : String(e)));
    this.#worker.on('exit', (code) => stop(`exit code ${code}`));
  }

  #call<T>(message: Call): Promise<T> {
    if (this.#stopped) return Promise.reject(this.#stopped);
    const id = ++this.#lastId;
    return new Promise<T>((resolve, reject) => {
      if (this.#pending.size === 0) this.#worker.ref();
      this.#pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      this.#post({ ...message, id });
    });
  }

  /** A batch of calls to the worker, in one message where every parameter can be copied. */
  #send(batch: Array<Call & { id: number }>): void {
    if (this.#stopped) return;
    try {
      this.#worker.postMessage(asMessage(batch));
      return;
    } catch {
      // A parameter that cannot be copied to the worker: each call alone, so only its own fails.
    }
    for (const m of batch) {
      try {
        this.#worker.postMessage(m);
      } catch (e) {
        this.#pending.get(m.id)?.reject(e);
        this.#pending.delete(m.id);
      }
    }
    if (this.#pending.size === 0) this.#worker.unref();
  }

  query<T>(text: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>> {
    return this.#query(text, params, options);
  }

  exec(text: string, options?: QueryOptions): Promise<Results[]> {
    return this.#exec(text, options);
  }

  // The transaction's calls go here, not through `query`/`exec`, which the caller may have wrapped.
  #query<T>(text: string, params?: unknown[], options?: QueryOptions, tx?: number): Promise<Results<T>> {
    return this.#call({ op: 'query', text, params, options: portable(options), tx });
  }

  #exec(text: string, options?: QueryOptions, tx?: number): Promise<Results[]> {
    return this.#call({ op: 'exec', text, options: portable(options), tx });
  }

  /** Commits if `run` resolves, rolls back if it throws (or called `rollback`). */
  async transaction<T>(run: (tx: Transaction) => Promise<T>): Promise<T> {
    const id = await this.#call<number>({ op: 'begin' });
    let closed = false;
    const check = () => {
      if (closed) throw new Error('Transaction is closed');
    };
    const tx = {
      query: async <R>(text: string, params?: unknown[], options?: QueryOptions) => (check(), this.#query<R>(text, params, options, id)),
      exec: async (text: string, options?: QueryOptions) => (check(), this.#exec(text, options, id)),
      rollback: async () => {
        check();
        await this.#call({ op: 'rollback', tx: id });
        closed = true;
      },
      get closed() {
        return closed;
      },
    } as unknown as Transaction;
    let result: T;
    try {
      result = await run(tx);
    } catch (e) {
      closed = true;
      await this.#call({ op: 'end', tx: id, commit: false }).catch(() => {});
      throw e;
    }
    closed = true;
    await this.#call({ op: 'end', tx: id, commit: true });
    return result;
  }

  /** Closes the database, then ends the worker. */
  close(): Promise<void> {
    this.#closing ??= (async () => {
      try {
        if (!this.#stopped && !this.#unopened) await this.#call({ op: 'close' });
      } finally {
        await this.#worker.terminate();
      }
    })();
    return this.#closing;
  }
}

type Call =
  | { op: 'query'; text: string; params?: unknown[]; options?: QueryOptions; tx?: number }
  | { op: 'exec'; text: string; options?: QueryOptions; tx?: number }
  | { op: 'begin' | 'close' }
  | { op: 'end'; tx: number; commit: boolean }
  | { op: 'rollback'; tx: number };

interface SentError {
  kind?: string;
  name?: string;
  message: string;
  stack?: string;
  fields: Record<string, unknown>;
}
type Answer = { id: number; result?: unknown; error?: SentError };
type Reply = { ready: boolean; error?: SentError } | Answer | { batch: Answer[] };

/** Options that can cross to the worker: functions (parsers, serializers, onNotice) cannot. */
function portable(options: QueryOptions | undefined): QueryOptions | undefined {
  if (!options) return undefined;
  const { rowMode, paramTypes, blob } = options;
  if (options.serializers || options.onNotice) throw new Error('PGliteThread: serializers and onNotice are not supported');
  return { rowMode, paramTypes, blob };
}

/** The worker's error again, with its fields (code, constraint, detail, query…) and the worker's stack. */
function rebuild(sent: SentError): Error {
  const e: Error =
    sent.kind === 'DatabaseError' ? new messages.DatabaseError(sent.message, 0, 'error') : new Error(sent.message);
  Object.assign(e, sent.fields);
  if (sent.name) e.name = sent.name;
  if (sent.stack) e.stack = sent.stack;
  return e;
}
