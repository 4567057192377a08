import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basicAuth } from './testing/http.js';
import { startTestServer, type TestServer } from './testing/harness.js';
import { DEFAULT_TIME_LIMITS, timeLimitsFromEnv } from './time-limits.js';

/**
 * A slow client cannot hold a connection: real sockets against the real server, sending the body
 * or the headers a byte at a time, or idling on a kept-alive connection.
 */
let s: TestServer;
let auth: [string, string];
const limits = { requestMs: 1500, headersMs: 800, keepAliveMs: 400, idleMs: 10_000 };
beforeAll(async () => {
  s = await startTestServer({ timeLimits: limits });
  auth = await s.credentials();
});
afterAll(() => s.close());

interface Outcome {
  closedAfterMs: number;
  response: string;
}

/** Opens a socket, writes `head`, then `drip` every 100 ms until the server closes (or `giveUpMs`). */
function slowClient(head: string, drip: string | null, giveUpMs = 8000): Promise<Outcome> {
  const { port } = new URL(s.url);
  return new Promise((resolve) => {
    const t0 = Date.now();
    const socket: Socket = connect(Number(port), '127.0.0.1');
    let response = '';
    let timer: NodeJS.Timeout | undefined;
    const giveUp = setTimeout(() => socket.destroy(), giveUpMs);
    socket.on('data', (d) => (response += d.toString()));
    socket.on('error', () => {});
    socket.on('close', () => {
      clearInterval(timer);
      clearTimeout(giveUp);
      resolve({ closedAfterMs: Date.now() - t0, response });
    });
    socket.write(head);
    if (drip) timer = setInterval(() => socket.writable && socket.write(drip), 100);
  });
}

const bodyOf = (response: string) => JSON.parse(response.slice(response.indexOf('\r\n\r\n') + 4));

describe('time limits', () => {
  it('a slow body on an authenticated request is answered 408 and closed within the request limit', async () => {
    const head = [
      'POST /api/v1/pay-link HTTP/1.1',
      'Host: 127.0.0.1',
      `Authorization: ${basicAuth(...auth)}`,
      'Content-Type: application/json',
      'Content-Length: 1000',
      '',
      '{"amount":"',
    ].join('\r\n');
    const out = await slowClient(head, '1');
    expect(out.closedAfterMs).toBeGreaterThanOrEqual(limits.requestMs - 100);
    expect(out.closedAfterMs).toBeLessThan(limits.requestMs + 1500);
    expect(out.response).toMatch(/^HTTP\/1\.1 408 /);
    expect(bodyOf(out.response)).toEqual({
      result: false,
      code: 'request_timeout',
      message:
        'Request timed out: the whole request (headers and body) must arrive within 1.5 seconds, its headers within 0.8.',
    });
  });

  it('headers sent a line at a time (slowloris) are cut off at the header limit', async () => {
    const out = await slowClient('GET /api/v1/merchant HTTP/1.1\r\nHost: 127.0.0.1\r\n', 'X-Slow: 1\r\n');
    expect(out.closedAfterMs).toBeLessThan(limits.headersMs + 1500);
    expect(out.response).toMatch(/^HTTP\/1\.1 408 /);
    expect(bodyOf(out.response).code).toBe('request_timeout');
  });

  it('an idle kept-alive connection is closed after the keep-alive limit', async () => {
    const out = await slowClient('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n\r\n', null);
    expect(out.response).toMatch(/^HTTP\/1\.1 200 /);
    expect(out.closedAfterMs).toBeLessThan(limits.keepAliveMs + 1500);
  });

  it('a request that arrives in time is answered as usual', async () => {
    const res = await s.http({ method: 'GET', path: '/api/v1/merchant', auth });
    expect(res.status).toBe(200);
  });
});

describe('configuration', () => {
  it('reads the four variables, defaults otherwise, and refuses nonsense', () => {
    expect(timeLimitsFromEnv({})).toEqual(DEFAULT_TIME_LIMITS);
    expect(
      timeLimitsFromEnv({
        REMIT_REQUEST_TIMEOUT_MS: '20000',
        REMIT_HEADERS_TIMEOUT_MS: '5000',
        REMIT_KEEP_ALIVE_TIMEOUT_MS: '1000',
        REMIT_IDLE_TIMEOUT_MS: '9000',
      }),
    ).toEqual({ requestMs: 20_000, headersMs: 5000, keepAliveMs: 1000, idleMs: 9000 });
    expect(() => timeLimitsFromEnv({ REMIT_REQUEST_TIMEOUT_MS: '10s' })).toThrow(
      /REMIT_REQUEST_TIMEOUT_MS must be a whole number of milliseconds/,
    );
    expect(() => timeLimitsFromEnv({ REMIT_REQUEST_TIMEOUT_MS: '1000', REMIT_HEADERS_TIMEOUT_MS: '2000' })).toThrow(
      /must not exceed/,
    );
  });
});
