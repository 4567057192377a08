import { afterEach, describe, expect, it, vi } from 'vitest';
import { request } from './request.js';

/** Stubs fetch with one answer and returns the mock, to read what was sent. */
function answer(make: () => Response | Promise<Response>) {
  const fetch = vi.fn(async (_url: string, _init: RequestInit) => make());
  vi.stubGlobal('fetch', fetch);
  return fetch;
}
const json = (status: number, body: unknown) => () =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

describe('request', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('sends JSON with the given headers, uncached, and gives the data back', async () => {
    const fetch = answer(json(200, { status: 'paid' }));
    const r = await request<{ status: string }>(
      'POST',
      '/pay/api/links/pl_1/pay',
      { method: 'card' },
      { 'idempotency-key': 'k1' },
    );
    expect(r).toEqual({ ok: true, data: { status: 'paid' } });
    const [url, init] = fetch.mock.calls[0]!;
    expect(url).toBe('/pay/api/links/pl_1/pay');
    expect(init).toMatchObject({ method: 'POST', body: '{"method":"card"}', cache: 'no-store' });
    expect(init.headers).toEqual({
      accept: 'application/json',
      'content-type': 'application/json',
      'idempotency-key': 'k1',
    });
  });

  it('sends no body and no content type on a GET', async () => {
    const fetch = answer(json(200, {}));
    await request('GET', '/portal/api/session');
    const [, init] = fetch.mock.calls[0]!;
    expect(init.body).toBeUndefined();
    expect(init.headers).toEqual({ accept: 'application/json' });
  });

  it("gives an error envelope's code, message and field errors", async () => {
    const errors = [{ path: 'webhook_url', message: 'must be an https URL' }];
    answer(json(400, { code: 'validation_failed', message: 'The request is not valid.', errors }));
    expect(await request('PUT', '/portal/api/webhook', { webhook_url: 'x' })).toEqual({
      ok: false,
      status: 400,
      code: 'validation_failed',
      message: 'The request is not valid.',
      errors,
    });
  });

  it('reads a body that is not JSON as code "error" with the status text', async () => {
    answer(() => new Response('<html>Bad gateway</html>', { status: 502, statusText: 'Bad Gateway' }));
    expect(await request('GET', '/x')).toEqual({ ok: false, status: 502, code: 'error', message: 'Bad Gateway' });
  });

  it('answers 204 with null data', async () => {
    answer(() => new Response(null, { status: 204 }));
    expect(await request('DELETE', '/portal/api/session')).toEqual({ ok: true, data: null });
  });

  it('turns a network failure into status 0, never a throw', async () => {
    answer(() => Promise.reject(new TypeError('Failed to fetch')));
    expect(await request('GET', '/x')).toEqual({ ok: false, status: 0, code: 'network_error', message: '' });
  });
});
