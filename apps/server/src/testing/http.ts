import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';

export interface HttpRequest {
  method: string;
  url: string;
  headers?: Record<string, string>;
  /** Sent as JSON (also on GET: the API reads some GET parameters from a JSON body). */
  json?: unknown;
  /** Sent as application/x-www-form-urlencoded. */
  form?: Record<string, string>;
  /** Sent as is, with the caller's content-type. */
  raw?: string | Buffer;
  timeoutMs?: number;
}

export interface HttpResponse<T = unknown> {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  /** Parsed JSON, or undefined when the body is not JSON. */
  body: T;
}

/**
 * Raw HTTP for the tests: node:http rather than fetch, because the tests send GETs with a JSON
 * body (the spec puts merchant_key in GET bodies) and fetch refuses those. The SDK uses fetch and
 * sends GET parameters in the query string.
 */
export function send<T = unknown>(req: HttpRequest): Promise<HttpResponse<T>> {
  const url = new URL(req.url);
  const headers: Record<string, string> = { accept: 'application/json', ...req.headers };
  let payload: Buffer | undefined;
  if (req.json !== undefined) {
    payload = Buffer.from(JSON.stringify(req.json));
    headers['content-type'] ??= 'application/json';
  } else if (req.form) {
    payload = Buffer.from(new URLSearchParams(req.form).toString());
    headers['content-type'] ??= 'application/x-www-form-urlencoded';
  } else if (req.raw !== undefined) {
    payload = Buffer.isBuffer(req.raw) ? req.raw : Buffer.from(req.raw);
  }
  if (payload) headers['content-length'] = String(payload.length);
  const doRequest = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const r = doRequest(url, { method: req.method, headers, timeout: req.timeoutMs ?? 30_000 }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let body: unknown;
        try {
          body = text ? JSON.parse(text) : undefined;
        } catch {
          body = undefined;
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, body: body as T });
      });
      res.on('error', reject);
    });
    r.on('timeout', () => r.destroy(new Error(`request timed out after ${req.timeoutMs ?? 30_000} ms`)));
    r.on('error', reject);
    if (payload) r.write(payload);
    r.end();
  });
}

export const basicAuth = (clientId: string, secretKey: string) =>
  `Basic ${Buffer.from(`${clientId}:${secretKey}`).toString('base64')}`;

/** A request to a path of the server at `base`, with `auth` as [client_id, secret_key]. */
export type PathRequest = Omit<HttpRequest, 'url'> & { path: string; auth?: [string, string] };

/** `send` to paths of the server at `base` (a TestServer's `http`; a server process's too). */
export function sendTo(base: string) {
  // As TestServer['http']: the caller names the body's type.
  return <T = any>({ path, auth, headers, ...rest }: PathRequest): Promise<HttpResponse<T>> =>
    send<T>({
      ...rest,
      url: `${base}${path}`,
      headers: { ...(auth ? { authorization: basicAuth(auth[0], auth[1]) } : {}), ...headers },
    });
}

/** Fresh sandbox credentials from the server `http` sends to. */
export async function sandboxCredentials(http: ReturnType<typeof sendTo>): Promise<[string, string]> {
  const res = await http<{ client_id: string; secret_key: string }>({
    method: 'POST',
    path: '/portal/api/credentials',
  });
  return [res.body.client_id, res.body.secret_key];
}
