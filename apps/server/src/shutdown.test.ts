import { connect } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startReceiver, type Receiver } from '@remit/core/testing';
import { basicAuth, send } from './testing/http.js';
import { validOnboarding } from './testing/fixtures.js';
import { restartableServer } from './testing/restartable.js';

/**
 * SIGTERM drains a real server process: it stops accepting connections, answers the request it
 * is reading, finishes the webhook delivery in progress, closes the database, logs each step and
 * exits 0.
 */
const server = restartableServer({ REMIT_WORKERS: '', LOG_LEVEL: 'info', REMIT_WEBHOOK_RETRY_SCALE: '0.001' });
let rx: Receiver;
beforeAll(async () => {
  rx = await startReceiver();
});
afterAll(() => rx.close());

/** Sends the head and half the body of a POST, and the rest on `finish()`; `answer` is the raw response. */
function halfSentPost(base: string, path: string, headers: Record<string, string>, json: unknown) {
  const { hostname, port } = new URL(base);
  const body = Buffer.from(JSON.stringify(json));
  const socket = connect(Number(port), hostname);
  const head = [
    `POST ${path} HTTP/1.1`,
    `host: ${hostname}:${port}`,
    'content-type: application/json',
    `content-length: ${body.length}`,
  ]
    .concat(Object.entries(headers).map(([k, v]) => `${k}: ${v}`))
    .join('\r\n');
  let raw = '';
  socket.on('data', (d) => (raw += d.toString()));
  const answer = new Promise<string>((resolve, reject) => {
    socket.on('close', () => resolve(raw));
    socket.on('error', reject);
  });
  const half = Math.floor(body.length / 2);
  const sent = new Promise<void>((resolve) =>
    socket.once('connect', () =>
      socket.write(`${head}\r\n\r\n`, () => socket.write(body.subarray(0, half), () => resolve())),
    ),
  );
  return { sent, answer, finish: () => socket.write(body.subarray(half)) };
}

it('SIGTERM: the request being read is answered, the delivery in progress finishes, one line per step, exit 0', async () => {
  const p = await server.start();
  const cred = await send<{ client_id: string; secret_key: string }>({
    method: 'POST',
    url: `${p.base}/portal/api/credentials`,
  });
  const authorization = basicAuth(cred.body.client_id, cred.body.secret_key);
  await send({
    method: 'POST',
    url: `${p.base}/api/v1/client/update-webhooks-url`,
    headers: { authorization },
    json: { webhook_url: rx.url },
  });

  // The receiver holds the delivery of merchant.onboarding for 1.5 s: the drain must wait for it.
  rx.behave((_r, res) => void setTimeout(() => res.writeHead(200).end('ok'), 1500));
  const first = await send({
    method: 'POST',
    url: `${p.base}/api/v1/onboarding`,
    headers: { authorization },
    json: validOnboarding({ business_name: 'Before' }),
  });
  expect(first.status).toBe(201);
  await rx.waitFor((r) => r.length === 1);

  const inFlight = halfSentPost(
    p.base,
    '/api/v1/onboarding',
    { authorization },
    validOnboarding({ business_name: 'During' }),
  );
  await inFlight.sent;
  const exited = new Promise<number | null>((r) => p.proc.once('exit', (code) => r(code)));
  p.proc.kill('SIGTERM');
  const until = Date.now() + 10_000;
  while (!p.output().includes('shutdown: SIGTERM received') && Date.now() < until)
    await new Promise((r) => setTimeout(r, 20));

  // No new connection is taken; the half-sent request still gets its whole answer.
  await expect(send({ method: 'GET', url: `${p.base}/livez`, timeoutMs: 2000 })).rejects.toThrow(/ECONNREFUSED/);
  inFlight.finish();
  const raw = await inFlight.answer;
  expect(raw).toMatch(/^HTTP\/1\.1 201 /);
  expect(raw.toLowerCase()).toContain('connection: close');
  expect(JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4)).data.businessname).toBe('During');

  expect(await exited).toBe(0);
  const lines = p
    .output()
    .split('\n')
    .filter((l) => l.includes('"shutdown: '))
    .map((l) => (JSON.parse(l) as { msg: string }).msg.replace(/\d+ ms$/, 'N ms'));
  // Requests and deliveries drain side by side: those two lines come in either order.
  expect([lines[0], ...lines.slice(1, 3).sort(), ...lines.slice(3)]).toEqual([
    'shutdown: SIGTERM received; no longer accepting connections, draining',
    'shutdown: requests in flight answered, HTTP server closed',
    'shutdown: workers stopped, deliveries in progress finished',
    'shutdown: database closed',
    'shutdown: done in N ms',
  ]);

  // The delivery in progress was finished and recorded, not left to be sent again.
  rx.behave((_r, res) => res.writeHead(200).end('ok'));
  const again = await server.start();
  try {
    const list = await send<any>({
      method: 'GET',
      url: `${again.base}/api/v1/client/webhook-deliveries?event_type=merchant.onboarding`,
      headers: { authorization },
    });
    const before = list.body.data.deliveries.find((d: { event_id: string }) =>
      rx.received[0]!.body.includes(d.event_id),
    );
    expect(before).toMatchObject({ status: 'delivered' });
    expect(before.attempts).toHaveLength(1);
  } finally {
    await again.stop();
  }
}, 120_000);
