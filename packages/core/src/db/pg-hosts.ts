/**
 * libpq's multi-host URLs (`postgres://u@h1:5432,h2:5433/db?target_session_attrs=read-write`),
 * which node-postgres does not take: split into one URL per host, tried in turn (pg-pool.ts).
 */
export interface PgHosts {
  /** One connection string per host, in the order given. */
  urls: string[];
  /** `read-write` (the default here: the primary's pool writes) or `any`. */
  targetSessionAttrs: 'read-write' | 'any';
}

const URL_PARTS = /^(postgres(?:ql)?:\/\/)([^@/?]*@)?([^/?]*)(.*)$/;

export function parsePgHosts(url: string): PgHosts {
  const m = URL_PARTS.exec(url);
  const hosts = m ? m[3]!.split(',') : [];
  const rest = m?.[4] ?? '';
  const query = rest.includes('?') ? new URLSearchParams(rest.slice(rest.indexOf('?') + 1)) : null;
  const attrs = query?.get('target_session_attrs');
  if (attrs && attrs !== 'read-write' && attrs !== 'any')
    throw new Error(`target_session_attrs=${attrs}: Remit takes read-write (the default) or any`);
  if (query) query.delete('target_session_attrs');
  const tail = rest.includes('?')
    ? `${rest.slice(0, rest.indexOf('?'))}${query!.size ? `?${query!.toString()}` : ''}`
    : rest;
  const urls =
    m && hosts.length > 1
      ? hosts.map((h) => `${m[1]}${m[2] ?? ''}${h}${tail}`)
      : [m ? `${m[1]}${m[2] ?? ''}${m[3]}${tail}` : url];
  return { urls, targetSessionAttrs: attrs === 'any' ? 'any' : 'read-write' };
}

/** SQLSTATEs and driver errors that say the database (not the statement) failed: the request may be retried. */
const UNAVAILABLE_STATES = new Set([
  '25006', // read_only_sql_transaction: a standby (still in recovery) took the write
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now (starting up, in recovery)
  '53300', // too_many_connections
  '08000',
  '08003',
  '08006',
  '08001',
  '08004',
]);
const UNAVAILABLE_MESSAGES = [
  'Connection terminated',
  'connection timeout',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error',
  'Cannot use a pool after calling end',
  'the database is read-only',
  'server closed the connection',
  'query_wait_timeout',
  'no more connections allowed',
  'pgbouncer cannot connect to server',
];
const UNAVAILABLE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTFOUND']);

/** The failure (or one of its causes) is the database being away or read-only, not the statement. */
export function isDatabaseUnavailable(err: unknown): boolean {
  for (let e = err, depth = 0; e && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && (UNAVAILABLE_STATES.has(code) || UNAVAILABLE_CODES.has(code))) return true;
    const message = e instanceof Error ? e.message : '';
    if (UNAVAILABLE_MESSAGES.some((m) => message.includes(m))) return true;
    if (e instanceof AggregateError && e.errors.some(isDatabaseUnavailable)) return true;
  }
  return false;
}
