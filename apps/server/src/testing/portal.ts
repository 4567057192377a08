import type { HttpResponse } from './http.js';
import type { TestServer } from './harness.js';

export interface PortalClient {
  /** The `Cookie` header value the browser would send. */
  cookie: string;
  csrf: string;
  clientId: string;
  /** A portal call as the portal page makes it: the cookie, a same-origin `Origin`, the CSRF token on changes. */
  call<T = any>(
    method: string,
    path: string,
    json?: unknown,
    headers?: Record<string, string>,
  ): Promise<HttpResponse<T>>;
}

/** Signs in to the portal over HTTP as the page does (new credentials unless given). */
export async function portalSignIn(s: TestServer, creds?: [string, string]): Promise<PortalClient> {
  const [client_id, secret_key] = creds ?? (await s.credentials());
  const res = await s.http({
    method: 'POST',
    path: '/portal/api/session',
    json: { client_id, secret_key },
    headers: { origin: s.url },
  });
  if (res.status !== 201) throw new Error(`portal sign-in: ${res.status} ${res.text}`);
  const setCookie = String([res.headers['set-cookie']].flat()[0]);
  const cookie = setCookie.split(';')[0]!;
  const csrf = res.body.csrf_token as string;
  return {
    cookie,
    csrf,
    clientId: client_id,
    call: (method, path, json, headers = {}) =>
      s.http({
        method,
        path: `/portal/api${path}`,
        json,
        headers: { cookie, origin: s.url, ...(method === 'GET' ? {} : { 'x-csrf-token': csrf }), ...headers },
      }),
  };
}
