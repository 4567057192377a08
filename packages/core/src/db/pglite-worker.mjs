// The embedded database on a thread of its own (see pglite-thread.ts, its stand-in on the main
// thread). Plain JavaScript so that Node, tsx and vitest all run it as it is.
//
// This thread only runs protocol messages: the main thread builds them and reads the answers
// (pglite-wire.ts), so the one thread the database has spends itself on the database's work.
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite, protocol } from '@electric-sql/pglite';
import { asMessage, itemsOf, messageBatcher } from './message-batch.mjs';
import { rawRunner } from './raw-protocol.mjs';

// An image (ConnectOptions.image) skips initdb; a module compiled on the main thread skips compiling it here.
const db = new PGlite({
  dataDir: workerData.dataDir,
  loadDataDir: workerData.image ? new Blob([workerData.image]) : undefined,
  pgliteWasmModule: workerData.wasmModule,
  startParams: workerData.settings
    ? [...PGlite.defaultStartParams, ...Object.entries(workerData.settings).flatMap(([k, v]) => ['-c', `${k}=${v}`])]
    : undefined,
});

/** The open transaction's id: it holds the session from BEGIN to its end; other calls wait meanwhile. */
let holder;
let lastTx = 0;
/** Calls waiting for the session, in the order they came. */
const waiting = [];
const simple = (text) => protocol.serialize.query(text);
const BEGIN = simple('BEGIN');
const COMMIT = simple('COMMIT');
const ROLLBACK = simple('ROLLBACK');

/** Runs one message and answers with a copy of the database's bytes (raw-protocol.mjs). */
const runMessage = rawRunner(db);

/** The first error in an answer (BEGIN's), as the main thread would read it. */
function errorIn(bytes) {
  let error;
  new protocol.Parser().parse(bytes, (m) => {
    if (m instanceof protocol.messages.DatabaseError) error ??= m;
  });
  return error;
}

/** An error as plain data: structured clone would keep only name, message and stack. */
function describe(e) {
  if (!(e instanceof Error)) return { message: String(e), fields: {} };
  const fields = {};
  for (const [k, v] of Object.entries(e)) {
    if (v === undefined || typeof v === 'function') continue;
    fields[k] = v;
  }
  return {
    kind: e instanceof protocol.messages.DatabaseError ? 'DatabaseError' : undefined,
    name: e.name,
    message: e.message,
    stack: e.stack,
    fields,
  };
}

function inTransaction(tx) {
  if (tx !== holder) throw new Error('Transaction is closed');
}

/** Runs a call now, or queues it while a transaction holds the session; answers it when run. */
function handle(call) {
  const waits = holder !== undefined && (call.op === 'begin' || (call.op === 'run' && call.tx === undefined));
  if (waits) return void waiting.push(call);
  try {
    answer({ id: call.id, result: run(call) });
  } catch (e) {
    answer({ id: call.id, error: describe(e) });
  }
  // Queued calls run once a transaction ends, until one of them (a BEGIN) takes the session again.
  if (call.op === 'end') while (holder === undefined && waiting.length) handle(waiting.shift());
}

function run(m) {
  switch (m.op) {
    case 'run':
      if (m.tx !== undefined) inTransaction(m.tx);
      return runMessage(m.bytes);
    case 'begin': {
      const error = errorIn(runMessage(BEGIN));
      if (error) throw error;
      holder = ++lastTx;
      return holder;
    }
    case 'end': {
      inTransaction(m.tx);
      holder = undefined;
      return runMessage(m.commit ? COMMIT : ROLLBACK);
    }
    default:
      throw new Error(`Unknown operation ${m.op}`);
  }
}

/** Answers go back batched, as the calls came (message-batch.mjs). */
const answer = messageBatcher((batch) => parentPort.postMessage(asMessage(batch)));

/** Calls that came before the database had opened (the main thread need not wait for it). */
let unopened = [];

/** A call, or a batch of calls sent in one message (pglite-thread.ts), run in the order sent. */
parentPort.on('message', (m) => {
  if (openError) refuse(m);
  else if (unopened) unopened.push(m);
  else take(m);
});

/** Why the database did not open: every call is answered with it. */
let openError;
const refuse = (m) => {
  for (const call of itemsOf(m)) answer({ id: call.id, error: openError });
};

function take(m) {
  for (const call of itemsOf(m)) {
    if (call.op === 'close') {
      db.close().then(
        () => answer({ id: call.id, result: undefined }),
        (e) => answer({ id: call.id, error: describe(e) }),
      );
    } else handle(call);
  }
}

db.waitReady.then(
  async () => {
    // The array types, for the main thread's parsers (PGlite's query reads them when it opens).
    const arrayTypes = (await db.query(workerData.arrayTypesQuery)).rows.map((r) => ({
      oid: Number(r.oid),
      typarray: Number(r.typarray),
    }));
    parentPort.postMessage({ ready: true, arrayTypes });
    const early = unopened;
    unopened = undefined;
    early.forEach(take);
  },
  (e) => {
    openError = describe(e);
    parentPort.postMessage({ ready: false, error: openError });
    unopened.forEach(refuse);
    unopened = undefined;
  },
);
