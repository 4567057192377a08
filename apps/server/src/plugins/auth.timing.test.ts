import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../testing/harness.js';
import { basicAuth } from '../testing/http.js';
import { request, Agent } from 'node:http';

let s: TestServer;
let clientId: string;
beforeAll(async () => {
  s = await startTestServer();
  [clientId] = await s.credentials();
});
afterAll(() => s.close());

const agent = new Agent({ keepAlive: true, maxSockets: 1 });

/** One 401 over a kept-alive connection, timed from send to the last byte, in milliseconds. */
function timed(authorization: string): Promise<number> {
  const url = new URL(`${s.api}/merchant`);
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    const r = request(url, { method: 'GET', agent, headers: { authorization } }, (res) => {
      res.resume();
      res.on('end', () => {
        if (res.statusCode !== 401) reject(new Error(`expected 401, got ${res.statusCode}`));
        resolve(Number(process.hrtime.bigint() - t0) / 1e6);
      });
    });
    r.on('error', reject);
    r.end();
  });
}

const median = (xs: number[]) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
};

/**
 * An unknown client_id must not answer measurably faster or slower than a known one with a wrong
 * secret: else the 401s tell which client ids exist. The two kinds alternate, so load on the machine
 * falls on both alike, and medians over many tries are compared with a generous tolerance (before the
 * fix the unknown id cost twice as much: one database lookup against a cache hit).
 */
it('an unknown client_id costs what a wrong secret costs', async () => {
  const unknown = () =>
    basicAuth(
      `cl_${Math.random().toString(36).slice(2, 14)}${Math.random().toString(36).slice(2, 14)}`,
      'sk_test_wrongwrongwrongwrongwrongwrong',
    );
  const wrong = () => basicAuth(clientId, `sk_test_${Math.random().toString(36).slice(2)}wrongwrongwrong`);
  for (let i = 0; i < 30; i++) await timed(i % 2 ? unknown() : wrong()); // warm up
  const a: number[] = [];
  const b: number[] = [];
  for (let i = 0; i < 300; i++) {
    a.push(await timed(unknown()));
    b.push(await timed(wrong()));
  }
  const ma = median(a);
  const mb = median(b);
  console.log(`median 401: unknown client_id ${ma.toFixed(3)} ms, wrong secret ${mb.toFixed(3)} ms`);
  expect(Math.max(ma, mb) / Math.min(ma, mb)).toBeLessThan(1.4);
}, 120_000);
