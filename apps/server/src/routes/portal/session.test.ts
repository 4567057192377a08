import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../testing/harness.js';
import { portalSignIn } from '../../testing/portal.js';

/** The portal's session, CSRF and sign-in limit, over real HTTP against a real database. */
let s: TestServer;
let offsetMs = 0;
beforeAll(async () => {
  s = await startTestServer({
    now: () => new Date(Date.now() + offsetMs),
    // The shared limiter's rules for failed authentications, as an operator might set them.
    rateLimits: {
      authFailuresPerClientAddress: { name: 'auth_fail_client_address', limit: 5, windowMs: 15 * 60_000 },
      authFailuresPerAddress: { name: 'auth_fail_address', limit: 20, windowMs: 15 * 60_000 },
    },
    trustProxy: true,
  });
});
afterAll(() => s.close());

const signInRaw = (json: unknown, headers: Record<string, string> = {}) =>
  s.http({ method: 'POST', path: '/portal/api/session', json, headers: { origin: s.url, ...headers } });

async function rows(table: string): Promise<Array<Record<string, unknown>>> {
  const r = (await s.core.ctx.db.execute(sql.raw(`select * from ${table}`))) as unknown as {
    rows: Array<Record<string, unknown>>;
  };
  return r.rows;
}

describe('signing in', () => {
  it('answers 201 with the client id, a CSRF token and the expiry, and sets an HttpOnly SameSite=Strict cookie on /portal', async () => {
    const [id, secret] = await s.credentials();
    const res = await signInRaw({ client_id: id, secret_key: secret });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual(['client_id', 'csrf_token', 'expires_at']);
    expect(res.body.client_id).toBe(id);
    expect(res.body.csrf_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const cookie = String([res.headers['set-cookie']].flat()[0]);
    expect(cookie).toMatch(/^remit_portal=[A-Za-z0-9_-]{43}; Path=\/portal; HttpOnly; SameSite=Strict; Max-Age=43200$/);
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('keeps only a digest of the session token, never the token or the secret', async () => {
    const [id, secret] = await s.credentials();
    const res = await signInRaw({ client_id: id, secret_key: secret });
    const token = String([res.headers['set-cookie']].flat()[0]).split(';')[0]!.split('=')[1]!;
    const all = JSON.stringify(await rows('portal_sessions'));
    expect(all).not.toContain(token);
    expect(all).not.toContain(secret);
    const { createHash } = await import('node:crypto');
    expect(all).toContain(createHash('sha256').update(token).digest('hex'));
  });

  it('refuses a wrong secret with 401 and sets no cookie', async () => {
    const [id] = await s.credentials();
    const res = await signInRaw({ client_id: id, secret_key: `sk_test_${'x'.repeat(32)}` });
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ result: false, code: 'unauthorized', message: 'Invalid client credentials.' });
    expect(res.headers['set-cookie']).toBeUndefined();
  });

  it('refuses an unknown client with the same 401', async () => {
    const res = await signInRaw({ client_id: 'cl_nobody', secret_key: `sk_test_${'x'.repeat(32)}` });
    expect(res.status).toBe(401);
    expect(res.body.message).toBe('Invalid client credentials.');
  });

  it('refuses a live key on the sandbox with 401 naming the environment', async () => {
    const [id] = await s.credentials();
    const res = await signInRaw({ client_id: id, secret_key: `sk_live_${'x'.repeat(32)}` });
    expect(res.status).toBe(401);
    expect(res.body.message).toContain('production');
  });

  it('answers 400 with field errors when a field is missing', async () => {
    const res = await signInRaw({ client_id: '' });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('invalid_request');
    expect(res.body.errors.map((e: { path: string }) => e.path).sort()).toEqual(['client_id', 'secret_key']);
  });

  it('refuses a sign-in posted from another origin (login CSRF) with 403', async () => {
    const [id, secret] = await s.credentials();
    const res = await signInRaw({ client_id: id, secret_key: secret }, { origin: 'https://evil.example' });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('csrf_rejected');
  });

  it('refuses a sign-in a browser marks cross-site (Sec-Fetch-Site) when no Origin is sent', async () => {
    const [id, secret] = await s.credentials();
    const res = await s.http({
      method: 'POST',
      path: '/portal/api/session',
      json: { client_id: id, secret_key: secret },
      headers: { 'sec-fetch-site': 'cross-site' },
    });
    expect(res.status).toBe(403);
  });
});

describe('the session', () => {
  it('GET /portal/api/session answers the same session and CSRF token for the cookie', async () => {
    const p = await portalSignIn(s);
    const res = await p.call('GET', '/session');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ client_id: p.clientId, csrf_token: p.csrf });
  });

  it('without a cookie, or with a made-up one, every portal call is 401', async () => {
    for (const cookie of [undefined, 'remit_portal=abc', `remit_portal=${'A'.repeat(43)}`]) {
      const res = await s.http({ method: 'GET', path: '/portal/api/merchants', headers: cookie ? { cookie } : {} });
      expect(res.status, String(cookie)).toBe(401);
      expect(res.body.code).toBe('unauthorized');
    }
  });

  it('two sessions of one client have different CSRF tokens', async () => {
    const [id, secret] = await s.credentials();
    const a = await portalSignIn(s, [id, secret]);
    const b = await portalSignIn(s, [id, secret]);
    expect(a.csrf).not.toBe(b.csrf);
    expect(a.cookie).not.toBe(b.cookie);
  });

  it('ends two hours after its last use', async () => {
    const p = await portalSignIn(s);
    offsetMs = 2 * 60 * 60 * 1000 + 1000;
    try {
      expect((await p.call('GET', '/session')).status).toBe(401);
    } finally {
      offsetMs = 0;
    }
  });

  it('stays alive while used, but not past twelve hours after sign-in', async () => {
    const p = await portalSignIn(s);
    try {
      for (let h = 1.5; h < 12; h += 1.5) {
        offsetMs = h * 3600_000;
        expect((await p.call('GET', '/session')).status, `${h} h`).toBe(200);
      }
      offsetMs = 12 * 3600_000 + 1000;
      expect((await p.call('GET', '/session')).status).toBe(401);
    } finally {
      offsetMs = 0;
    }
  });
});

describe('CSRF', () => {
  it('a change without the CSRF token is refused with 403 and changes nothing', async () => {
    const p = await portalSignIn(s);
    const res = await p.call('PUT', '/webhook', { webhook_url: 'https://hooks.example/x' }, { 'x-csrf-token': '' });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ result: false, code: 'csrf_rejected' });
    expect((await p.call('GET', '/webhook')).body.webhook_url).toBeNull();
  });

  it('a change with another session’s CSRF token is refused', async () => {
    const a = await portalSignIn(s);
    const b = await portalSignIn(s);
    const res = await a.call('POST', '/test-event', undefined, { 'x-csrf-token': b.csrf });
    expect(res.status).toBe(403);
  });

  it('a change from another origin is refused even with the right token', async () => {
    const p = await portalSignIn(s);
    const res = await p.call(
      'PUT',
      '/webhook',
      { webhook_url: 'https://hooks.example/x' },
      { origin: 'https://evil.example' },
    );
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('csrf_rejected');
  });

  it('an Origin that matches a forged Host is refused: a loopback server answers no other name, and origins are compared with PUBLIC_URL and the listening address', async () => {
    // A page of a name rebound to this server's address (DNS rebinding) sends this pair.
    const port = new URL(s.url).port;
    const forged = { host: `rebound.example:${port}`, origin: `http://rebound.example:${port}` };
    const [id, secret] = await s.credentials();
    const signIn = await signInRaw({ client_id: id, secret_key: secret }, forged);
    expect(signIn.status).toBe(421);
    expect(signIn.body.code).toBe('misdirected_request');
    expect(signIn.headers['set-cookie']).toBeUndefined();
    const p = await portalSignIn(s);
    const change = await p.call('PUT', '/webhook', { webhook_url: 'https://hooks.example/x' }, forged);
    expect(change.status).toBe(421);
    // Under the server's own Host, the rebound Origin alone is refused by the origin check.
    const origin = { origin: forged.origin };
    expect((await signInRaw({ client_id: id, secret_key: secret }, origin)).body.code).toBe('csrf_rejected');
    const alone = await p.call('PUT', '/webhook', { webhook_url: 'https://hooks.example/x' }, origin);
    expect(alone.status).toBe(403);
    expect(alone.body.code).toBe('csrf_rejected');
  });

  it('on a loopback address every loopback name of the listening port is the server’s own origin', async () => {
    const p = await portalSignIn(s);
    const port = new URL(s.url).port;
    for (const origin of [`http://localhost:${port}`, `http://127.0.0.1:${port}`]) {
      expect(
        (await p.call('PUT', '/webhook', { webhook_url: 'https://hooks.example/x' }, { origin })).status,
        origin,
      ).toBe(200);
    }
    expect(
      (
        await p.call(
          'PUT',
          '/webhook',
          { webhook_url: 'https://hooks.example/x' },
          { origin: `http://localhost:${Number(port) + 1}` },
        )
      ).status,
    ).toBe(403);
  });

  it('a change with the token from the same origin goes through', async () => {
    const p = await portalSignIn(s);
    const res = await p.call('PUT', '/webhook', { webhook_url: 'https://hooks.example/x' });
    expect(res.status).toBe(200);
    expect(res.body.webhook_url).toBe('https://hooks.example/x');
  });

  it('reads need no token (they change nothing)', async () => {
    const p = await portalSignIn(s);
    const res = await s.http({ method: 'GET', path: '/portal/api/merchants', headers: { cookie: p.cookie } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ merchants: [] });
  });
});

describe('signing out', () => {
  it('needs the CSRF token', async () => {
    const p = await portalSignIn(s);
    const res = await p.call('DELETE', '/session', undefined, { 'x-csrf-token': 'nope' });
    expect(res.status).toBe(403);
    expect((await p.call('GET', '/session')).status).toBe(200);
  });

  it('ends the session on the server: 204, the cookie cleared, and the old cookie signs no one in', async () => {
    const p = await portalSignIn(s);
    const before = (await rows('portal_sessions')).length;
    const res = await p.call('DELETE', '/session');
    expect(res.status).toBe(204);
    expect(String([res.headers['set-cookie']].flat()[0])).toMatch(
      /^remit_portal=; Path=\/portal; HttpOnly; SameSite=Strict; Max-Age=0/,
    );
    expect((await rows('portal_sessions')).length).toBe(before - 1);
    expect((await p.call('GET', '/session')).status).toBe(401);
    expect((await p.call('GET', '/merchants')).status).toBe(401);
  });
});

describe('the sign-in limit (the shared database limiter, counted with failed API authentications)', () => {
  it('after 5 failed sign-ins for a client from one address, even the right secret gets 429 there, with Retry-After', async () => {
    const [id, secret] = await s.credentials();
    for (let i = 0; i < 5; i++) {
      expect(
        (await signInRaw({ client_id: id, secret_key: `sk_test_${'y'.repeat(32)}` }, { 'x-forwarded-for': '10.9.0.1' }))
          .status,
      ).toBe(401);
    }
    const res = await signInRaw({ client_id: id, secret_key: secret }, { 'x-forwarded-for': '10.9.0.1' });
    expect(res.status).toBe(429);
    expect(res.body).toMatchObject({ result: false, code: 'rate_limited' });
    expect(res.body.message).toMatch(/Too many failed sign-ins/);
    const after = Number(res.headers['retry-after']);
    expect(after).toBeGreaterThan(800);
    expect(after).toBeLessThanOrEqual(900);
  });

  it('someone who knows a client id cannot lock the client out: from another address the right secret signs in', async () => {
    const [id, secret] = await s.credentials();
    for (let i = 0; i < 8; i++)
      await signInRaw({ client_id: id, secret_key: `sk_test_${'y'.repeat(32)}` }, { 'x-forwarded-for': '10.9.0.3' });
    expect((await signInRaw({ client_id: id, secret_key: secret }, { 'x-forwarded-for': '10.9.0.4' })).status).toBe(
      201,
    );
  });

  it('another client is not held back by someone else’s failures', async () => {
    const [id] = await s.credentials();
    for (let i = 0; i < 5; i++)
      await signInRaw({ client_id: id, secret_key: `sk_test_${'y'.repeat(32)}` }, { 'x-forwarded-for': '10.9.1.1' });
    const other = await s.credentials();
    expect(
      (await signInRaw({ client_id: other[0], secret_key: other[1] }, { 'x-forwarded-for': '10.9.1.1' })).status,
    ).toBe(201);
  });

  it('counts in the database: the counters are rows of rate_limits, keyed by client id and address', async () => {
    const [id] = await s.credentials();
    await signInRaw({ client_id: id, secret_key: `sk_test_${'q'.repeat(32)}` }, { 'x-forwarded-for': '10.9.3.1' });
    const keys = (await rows('rate_limits')).map((r) => String(r.key));
    expect(keys).toEqual(expect.arrayContaining([expect.stringContaining(id), expect.stringContaining('10.9.3.1')]));
  });

  it('one address guessing at many clients is stopped after 20 failures', async () => {
    for (let i = 0; i < 20; i++) {
      await signInRaw(
        { client_id: `cl_guess${i}`, secret_key: `sk_test_${'z'.repeat(32)}` },
        { 'x-forwarded-for': '10.9.2.1' },
      );
    }
    const [id, secret] = await s.credentials();
    expect((await signInRaw({ client_id: id, secret_key: secret }, { 'x-forwarded-for': '10.9.2.1' })).status).toBe(
      429,
    );
    expect((await signInRaw({ client_id: id, secret_key: secret }, { 'x-forwarded-for': '10.9.2.2' })).status).toBe(
      201,
    );
  });
});
