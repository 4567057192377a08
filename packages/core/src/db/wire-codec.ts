import { protocol, types, type QueryOptions, type Results } from '@electric-sql/pglite';

/**
 * The Postgres protocol messages the server sends PGlite and the answers it reads, written and read
 * straight on Node Buffers. PGlite's own protocol code (a 256-byte buffer allocated per message, a
 * copy and a TextDecoder per value read, private fields through WeakMaps) took a third of the
 * server's thread once the database ran the bytes alone.
 */

type DatabaseError = InstanceType<typeof protocol.messages.DatabaseError>;
/** Parsers by type OID, over PGlite's own (as an instance's `parsers` option). */
export type Parsers = NonNullable<QueryOptions['parsers']>;

/** One extended-protocol query: [Parse], Bind, Describe (portal), Execute, Sync. `values` as text (null for NULL). */
export function queryMessage(
  text: string,
  values: ReadonlyArray<string | null>,
  statement: { name: string; parse: boolean },
  types: readonly number[] = [],
): Uint8Array {
  const name = statement.name;
  const nameLength = Buffer.byteLength(name);
  // Parse's length field counts itself and its body: the name, the text, the parameter types.
  const parseLength = statement.parse ? 4 + nameLength + 1 + Buffer.byteLength(text) + 1 + 2 + 4 * types.length : 0;
  let size = statement.parse ? 1 + parseLength : 0;
  const valueLengths = values.map((v) => (v === null ? -1 : Buffer.byteLength(v)));
  // Bind: portal "", statement, 0 parameter format codes (all text), the values, 0 result format codes (all text).
  size += 1 + 4 + 1 + nameLength + 1 + 2 + 2 + valueLengths.reduce((n, l) => n + 4 + Math.max(l, 0), 0) + 2;
  size += DESCRIBE_EXECUTE_SYNC.length;
  // Its own memory (not Node's shared pool): a view of a pooled buffer would copy the whole pool to the worker.
  const out = Buffer.allocUnsafeSlow(size);
  let at = 0;
  if (statement.parse) {
    at = out.writeUInt8(0x50, at); // P
    at = out.writeInt32BE(parseLength, at);
    at += out.write(name, at);
    at = out.writeUInt8(0, at);
    at += out.write(text, at);
    at = out.writeUInt8(0, at);
    at = out.writeInt16BE(types.length, at);
    for (const t of types) at = out.writeInt32BE(t, at);
  }
  const bindStart = at;
  at = out.writeUInt8(0x42, at); // B
  at += 4; // length, written below
  at = out.writeUInt8(0, at); // portal ""
  at += out.write(name, at);
  at = out.writeUInt8(0, at);
  at = out.writeInt16BE(0, at);
  at = out.writeInt16BE(values.length, at);
  for (let i = 0; i < values.length; i++) {
    at = out.writeInt32BE(valueLengths[i]!, at);
    if (valueLengths[i]! > 0) at += out.write(values[i]!, at);
  }
  at = out.writeInt16BE(0, at);
  out.writeInt32BE(at - bindStart - 1, bindStart + 1);
  out.set(DESCRIBE_EXECUTE_SYNC, at);
  return out;
}

/** Describe portal "", Execute portal "" (all rows), Sync. */
const DESCRIBE_EXECUTE_SYNC = Buffer.from([
  0x44, 0, 0, 0, 6, 0x50, 0, 0x45, 0, 0, 0, 9, 0, 0, 0, 0, 0, 0x53, 0, 0, 0, 4,
]);

/** One simple-protocol query (any number of statements, no parameters). */
export function execMessage(text: string): Uint8Array {
  const length = Buffer.byteLength(text);
  const out = Buffer.allocUnsafeSlow(1 + 4 + length + 1);
  out.writeUInt8(0x51, 0); // Q
  out.writeInt32BE(4 + length + 1, 1);
  out.write(text, 5);
  out.writeUInt8(0, 5 + length);
  return out;
}

export interface Answer {
  /** The result sets, as PGlite's `parseResults` builds them. */
  results: Results[];
  /** The first error the database answered, if any. */
  error?: DatabaseError;
  /** The Parse was answered (ParseComplete). */
  parsed: boolean;
}

/** An ErrorResponse's field codes and the DatabaseError properties they fill (as pg-protocol's parser). */
const ERROR_FIELDS: Record<string, keyof DatabaseError> = {
  S: 'severity',
  C: 'code',
  D: 'detail',
  H: 'hint',
  P: 'position',
  p: 'internalPosition',
  q: 'internalQuery',
  W: 'where',
  s: 'schema',
  t: 'table',
  c: 'column',
  d: 'dataType',
  n: 'constraint',
  F: 'file',
  L: 'line',
  R: 'routine',
};

const COUNTED = new Set(['INSERT', 'UPDATE', 'DELETE', 'COPY', 'MERGE']);

/** Reads the database's answer to one message into result sets (rows parsed by `parsers`, then PGlite's own). */
export function readAnswer(bytes: Uint8Array, parsers: Parsers = {}, options?: QueryOptions): Answer {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const all = options?.parsers ? { ...parsers, ...options.parsers } : parsers;
  const asArrays = options?.rowMode === 'array';
  const results: Results[] = [];
  let fields: Array<{ name: string; dataTypeID: number }> = [];
  let parse: Array<((x: string, typeId?: number) => unknown) | undefined> = [];
  let rows: unknown[] = [];
  let affectedRows = 0;
  let error: DatabaseError | undefined;
  let parsed = false;
  for (let at = 0; at + 5 <= b.length; ) {
    const code = b[at]!;
    const end = at + 1 + b.readInt32BE(at + 1);
    let p = at + 5;
    switch (code) {
      case 0x31: // ParseComplete
        parsed = true;
        break;
      case 0x54: {
        // RowDescription
        const n = b.readInt16BE(p);
        p += 2;
        fields = new Array(n);
        parse = new Array(n);
        for (let i = 0; i < n; i++) {
          const zero = b.indexOf(0, p);
          const name = b.toString('utf8', p, zero);
          const dataTypeID = b.readInt32BE(zero + 1 + 4 + 2);
          fields[i] = { name, dataTypeID };
          parse[i] = all[dataTypeID] ?? types.parsers[dataTypeID];
          p = zero + 1 + 18;
        }
        break;
      }
      case 0x44: {
        // DataRow
        const n = b.readInt16BE(p);
        p += 2;
        const values: unknown[] = new Array(n);
        for (let i = 0; i < n; i++) {
          const length = b.readInt32BE(p);
          p += 4;
          if (length === -1) values[i] = null;
          else {
            const text = b.toString('utf8', p, p + length);
            p += length;
            const f = parse[i];
            values[i] = f ? f(text, fields[i]!.dataTypeID) : text;
          }
        }
        if (asArrays) rows.push(values);
        else {
          const row: Record<string, unknown> = {};
          for (let i = 0; i < n; i++) row[fields[i]!.name] = values[i];
          rows.push(row);
        }
        break;
      }
      case 0x43: {
        // CommandComplete: "SELECT 2", "INSERT 0 5", "CREATE TABLE"
        const parts = b.toString('utf8', p, end - 1).split(' ');
        const command = parts[0]!;
        const rowCount = parseInt(parts[parts.length - 1]!, 10);
        if (COUNTED.has(command)) affectedRows += rowCount;
        const result: Results = { rows, fields, command, affectedRows } as Results;
        if (!Number.isNaN(rowCount)) (result as { rowCount?: number }).rowCount = rowCount;
        results.push(result);
        rows = [];
        fields = [];
        parse = [];
        break;
      }
      case 0x45: {
        // ErrorResponse: the first one is the answer's error
        if (error) break;
        const values: Record<string, string> = {};
        while (b[p] !== 0 && p < end) {
          const zero = b.indexOf(0, p + 1);
          values[String.fromCharCode(b[p]!)] = b.toString('utf8', p + 1, zero);
          p = zero + 1;
        }
        error = new protocol.messages.DatabaseError(values.M!, end - at - 1, 'error');
        for (const [k, prop] of Object.entries(ERROR_FIELDS))
          (error as unknown as Record<string, unknown>)[prop] = values[k];
        break;
      }
      // Everything else (BindComplete, NoData, ReadyForQuery, notices…) carries nothing a result needs.
    }
    at = end;
  }
  if (results.length === 0) results.push({ affectedRows: 0, rows: [], fields: [] } as Results);
  return { results, error, parsed };
}
