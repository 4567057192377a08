import { Worker } from 'node:worker_threads';
import { messages, type QueryOptions, type Results, type Transaction } from '@electric-sql/pglite';
import { asMessage, itemsOf, messageBatcher } from './message-batch.mjs';
import { addArrayParsers, ARRAY_TYPES, StatementNames, wireQueries, type RunMessage } from './pglite-wire.js';
import { readAnswer, type Parsers } from './wire-codec.js';
import { textParsers } from './date-types.js';
import type { DatabaseImage } from './database-image.js';

/**
 * Embedded PGlite on a worker thread, behind the part of PGlite's interface Drizzle and connect.ts
 * use (query, exec, transaction, close). The database (wasm, single-threaded) gets a core of its
 * own instead of sharing the server's one JS thread with HTTP, so the two run side by side.
 * Queries are built and their answers read on this side (pglite-wire.ts); the worker runs the bytes.
 *
 * A transaction holds the worker's session from BEGIN until this side says commit or rollback:
 * other queries wait meanwhile, as on an in-process PGlite.
 */
export class PGliteThread {
  readonly #worker: Worker;
  readonly #pending = new Map<number, { resolve(v: unknown): void; reject(e: unknown): void }>();
  #lastId = 0;
  /** Statements are built and answers read here; the worker only runs them (pglite-wire.ts). */
  readonly #wire: ReturnType<typeof wireQueries>;
  readonly #runOutside: RunMessage = (bytes) => this.#call({ op: 'run', bytes });
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
  constructor(opts: {
    dataDir?: string;
    textTypes: readonly number[];
    workerUrl?: URL;
    onLost?: (e: Error) => void;
    /** An image to start from (connect.ts, ConnectOptions.image): the tar is copied to the worker. */
    image?: DatabaseImage;
    /** PGlite's compiled WebAssembly, shared with the worker (else it compiles its own). */
    wasmModule?: WebAssembly.Module;
    /** Server settings (connect.ts, ConnectOptions.pgliteSettings). */
    settings?: Record<string, string>;
  }) {
    const parsers: Parsers = textParsers(opts.textTypes);
    this.#wire = wireQueries(new StatementNames(), parsers);
    this.#worker = new Worker(opts.workerUrl ?? new URL('./pglite-worker.mjs', import.meta.url), {
      workerData: {
        dataDir: opts.dataDir,
        arrayTypesQuery: ARRAY_TYPES,
        image: opts.image?.tar,
        wasmModule: opts.wasmModule,
        settings: opts.settings,
      },
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
        if (m.ready) {
          addArrayParsers(parsers, m.arrayTypes ?? []);
          return ready();
        }
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

  /** A batch of calls to the worker, in one message (each carries bytes only: it always copies). */
  #send(batch: Array<Call & { id: number }>): void {
    if (!this.#stopped) this.#worker.postMessage(asMessage(batch));
  }

  query<T>(text: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>> {
    return this.#wire.query<T>(this.#runOutside, text, params, supported(options));
  }

  exec(text: string, options?: QueryOptions): Promise<Results[]> {
    return this.#wire.exec(this.#runOutside, text, supported(options));
  }

  /** Commits if `run` resolves, rolls back if it throws (or called `rollback`). */
  async transaction<T>(run: (tx: Transaction) => Promise<T>): Promise<T> {
    const id = await this.#call<number>({ op: 'begin' });
    const inside: RunMessage = (bytes) => this.#call({ op: 'run', bytes, tx: id });
    let closed = false;
    const check = () => {
      if (closed) throw new Error('Transaction is closed');
    };
    // The transaction's calls go here, not through `query`/`exec`, which the caller may have wrapped.
    const tx = {
      query: async <R>(text: string, params?: unknown[], options?: QueryOptions) => (
        check(), this.#wire.query<R>(inside, text, params, supported(options))
      ),
      exec: async (text: string, options?: QueryOptions) => (
        check(), this.#wire.exec(inside, text, supported(options))
      ),
      rollback: async () => {
        check();
        await this.#wire.exec(inside, 'ROLLBACK');
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
    const ended = readAnswer(await this.#call<Uint8Array>({ op: 'end', tx: id, commit: true }));
    if (ended.error) throw ended.error;
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
  | { op: 'run'; bytes: Uint8Array; tx?: number }
  | { op: 'begin' | 'close' }
  | { op: 'end'; tx: number; commit: boolean };

interface SentError {
  kind?: string;
  name?: string;
  message: string;
  stack?: string;
  fields: Record<string, unknown>;
}
type Answer = { id: number; result?: unknown; error?: SentError };
type Reply =
  | { ready: boolean; arrayTypes?: Array<{ oid: number; typarray: number }>; error?: SentError }
  | Answer
  | { batch: Answer[] };

/** The options the wire path reads (rowMode, paramTypes, parsers); parameters are sent as text, types left to the database. */
function supported(options: QueryOptions | undefined): QueryOptions | undefined {
  if (options?.serializers || options?.onNotice || options?.blob)
    throw new Error('PGliteThread: serializers, onNotice and blob are not supported');
  return options;
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
