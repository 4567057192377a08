import { request } from 'node:http';

export interface Answer<T = any> {
  status: number;
  body: T;
  text: string;
}

/**
 * The kit's own calls to its sandbox: node:http, not the global fetch, so a test that mocks fetch
 * (msw, nock's fetch mode) never intercepts the kit.
 */
export function call<T = any>(
  url: string,
  method: string,
  opts: { auth?: [string, string]; json?: unknown } = {},
): Promise<Answer<T>> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (opts.auth) headers.authorization = `Basic ${Buffer.from(`${opts.auth[0]}:${opts.auth[1]}`).toString('base64')}`;
  const payload = opts.json === undefined ? undefined : Buffer.from(JSON.stringify(opts.json));
  if (payload) {
    headers['content-type'] = 'application/json';
    headers['content-length'] = String(payload.length);
  }
  return new Promise((resolve, reject) => {
    const r = request(url, { method, headers, timeout: 30_000 }, (res) => {
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
        resolve({ status: res.statusCode ?? 0, body: body as T, text });
      });
      res.on('error', reject);
    });
    r.on('timeout', () => r.destroy(new Error(`${method} ${url} timed out`)));
    r.on('error', reject);
    if (payload) r.write(payload);
    r.end();
  });
}

/** Throws with the server's message unless the answer is 2xx. */
export function expectOk<T>(what: string, a: Answer<T>): T {
  if (a.status < 200 || a.status >= 300) throw new Error(`${what} failed: HTTP ${a.status} ${a.text}`);
  return a.body;
}
