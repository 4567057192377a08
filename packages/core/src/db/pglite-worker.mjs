// The embedded database on a thread of its own (see pglite-thread.ts, its stand-in on the main
// thread). Plain JavaScript so that Node, tsx and vitest all run it as it is.
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite, messages } from '@electric-sql/pglite';
import { asMessage, itemsOf, messageBatcher } from './message-batch.mjs';

const asText = (value) => value;
const db = new PGlite({
  dataDir: workerData.dataDir,
  parsers: Object.fromEntries(workerData.textTypes.map((t) => [t, asText])),
});

/** Open transactions by id: the PGlite transaction and how to end it. */
const open = new Map();
let lastTx = 0;
/** Thrown into a transaction the main thread rolls back. */
const ROLLBACK = Symbol('rollback');

/** An error as plain data: structured clone would keep only name, message and stack. */
function describe(e) {
  if (!(e instanceof Error)) return { message: String(e), fields: {} };
  const fields = {};
  for (const [k, v] of Object.entries(e)) {
    if (v === undefined || typeof v === 'function' || k === 'queryOptions') continue;
    fields[k] = v;
  }
  return { kind: e instanceof messages.DatabaseError ? 'DatabaseError' : undefined, name: e.name, message: e.message, stack: e.stack, fields };
}

function handleOf(tx) {
  if (tx === undefined) return db;
  const t = open.get(tx);
  if (!t || t.tx.closed) throw new Error('Transaction is closed');
  return t.tx;
}

/** Opens a transaction; answers its id once BEGIN ran. Its queries come with that id until `end`. */
function begin() {
  return new Promise((begun, failed) => {
    let id;
    const done = db.transaction(async (tx) => {
      id = ++lastTx;
      // `done` is set by now: the callback runs after BEGIN, turns after the call returned.
      const ended = new Promise((resolve) => open.set(id, { tx, end: resolve, done }));
      begun(id);
      if (!(await ended)) throw ROLLBACK;
    });
    done.catch((e) => {
      if (id === undefined) failed(e); // BEGIN itself failed
    });
  });
}

async function end(id, commit) {
  const t = open.get(id);
  if (!t) throw new Error('Transaction is closed');
  t.end(commit);
  try {
    await t.done;
  } catch (e) {
    if (e !== ROLLBACK) throw e;
  } finally {
    open.delete(id);
  }
}

async function run(m) {
  switch (m.op) {
    case 'query':
      return handleOf(m.tx).query(m.text, m.params, m.options);
    case 'exec':
      return handleOf(m.tx).exec(m.text, m.options);
    case 'begin':
      return begin();
    case 'end':
      return end(m.tx, m.commit);
    case 'rollback':
      return handleOf(m.tx).rollback();
    case 'close':
      await db.close();
      return undefined;
    default:
      throw new Error(`Unknown operation ${m.op}`);
  }
}

/** Answers go back batched, as the calls came (message-batch.mjs). */
const answer = messageBatcher((batch) => parentPort.postMessage(asMessage(batch)));

/** A call, or a batch of calls sent in one message (pglite-thread.ts), run in the order sent. */
parentPort.on('message', (m) => {
  for (const call of itemsOf(m)) {
    run(call).then(
      (result) => answer({ id: call.id, result }),
      (e) => answer({ id: call.id, error: describe(e) }),
    );
  }
});

db.waitReady.then(
  () => parentPort.postMessage({ ready: true }),
  (e) => parentPort.postMessage({ ready: false, error: describe(e) }),
);
