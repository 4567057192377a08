import { toBase64 } from './hmac.js';

/** The `fetch` this SDK calls; any WHATWG fetch (Node 20+, Deno, Bun, workers, browsers). */
export type Fetch = (input: string, init: RequestInit) => Promise<Response>;

export interface Call {
  method: string;
  url: string;
  headers: Record<string, string>;
  /** GET: sent as the query string. Other methods: sent as a JSON body. */
  params?: unknown;
  /** A multipart body (remote deposit capture). */
  form?: FormData;
  timeoutMs: number;
}

export interface Answer {
  status: number;
  text: string;
  /** Parsed JSON, or undefined when the body is not JSON. */
  body: unknown;
}

/** GET parameters as a query string: fetch sends no GET body, and every Remit GET reads its query. */
export function queryString(params: unknown): string {
  if (params == null || typeof params !== 'object') return '';
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params as Record<string, unknown>)) {
    if (v === undefined || v === null) continue;
    q.append(k, String(v));
  }
  const s = q.toString();
  return s ? `?${s}` : '';
}

export async function call(fetchImpl: Fetch, c: Call): Promise<Answer> {
  const headers: Record<string, string> = { accept: 'application/json', ...c.headers };
  let url = c.url;
  let body: string | FormData | undefined;
  if (c.form) body = c.form;
  else if (c.method === 'GET') url += queryString(c.params);
  else if (c.params !== undefined) {
    body = JSON.stringify(c.params);
    headers['content-type'] ??= 'application/json';
  }
  const res = await fetchImpl(url, { method: c.method, headers, body, signal: AbortSignal.timeout(c.timeoutMs) });
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  return { status: res.status, text, body: parsed };
}

/** HTTP Basic: client_id as the user name, secret_key as the password (UTF-8). */
export const basicAuth = (clientId: string, secretKey: string) =>
  `Basic ${toBase64(new TextEncoder().encode(`${clientId}:${secretKey}`))}`;
