import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../testing/harness.js';
import { newMerchant, type TestMerchant } from '../testing/fixtures.js';

/**
 * A GET's JSON body, read at once when it came with the headers and by the stream's events when it
 * comes later: both give the same answers. Sent on a raw socket, so the packets are ours to split.
 */
let s: TestServer;
let m: TestMerchant;
beforeAll(async () => {
  s = await startTestServer();
  m = await newMerchant(s);
});
afterAll(() => s.close());

/** Sends `head` (the request line and headers), then each part of the body `gapMs` apart; the answer's status and body. */
async function rawGet(body: string[], opts: { gapMs?: number; contentType?: string; chunked?: boolean } = {}) {
  const url = new URL(s.url);
  const auth = Buffer.from(`${m.auth[0]}:${m.auth[1]}`).toString('base64');
  const sock = connect(Number(url.port), url.hostname);
  await new Promise<void>((r) => sock.once('connect', () => r()));
  const total = body.reduce((n, p) => n + Buffer.byteLength(p), 0);
  const framing = opts.chunked ? 'Transfer-Encoding: chunked' : `Content-Length: ${total}`;
  const frame = (p: string) => (opts.chunked ? `${Buffer.byteLength(p).toString(16)}\r\n${p}\r\n` : p);
  const head =
    `GET /api/v1/merchant/transactions HTTP/1.1\r\nHost: ${url.host}\r\nAuthorization: Basic ${auth}\r\n` +
    `Content-Type: ${opts.contentType ?? 'application/json'}\r\n${framing}\r\nConnection: close\r\n\r\n`;
  const received = new Promise<string>((resolve) => {
    let text = '';
    sock.on('data', (d) => (text += d.toString()));
    sock.on('close', () => resolve(text));
  });
  if (opts.gapMs === undefined) sock.write(head + body.map(frame).join('') + (opts.chunked ? '0\r\n\r\n' : ''));
  else {
    sock.write(head);
    for (const part of body) {
      await new Promise((r) => setTimeout(r, opts.gapMs));
      sock.write(frame(part));
    }
    if (opts.chunked) sock.write('0\r\n\r\n');
  }
  const text = await received;
  const status = Number(text.slice(9, 12));
  // The body of a chunked answer sits between its chunk sizes; a request's id is its own.
  const json = text.slice(text.indexOf('{'), text.lastIndexOf('}') + 1);
  const answer = json ? (JSON.parse(json) as Record<string, unknown>) : null;
  if (answer) delete answer.request_id;
  return { status, body: answer };
}

describe('a GET with a JSON body', () => {
  const key = () => JSON.stringify({ merchant_key: m.merchant_key, limit: 1 });

  it('sent with its headers, is read at once: the merchant it names answers', async () => {
    const r = await rawGet([key()]);
    expect(r.status).toBe(200);
    expect(Array.isArray(r.body!.data)).toBe(true);
  });

  it('arriving after its headers, in parts, gives the same answer', async () => {
    const whole = key();
    const r = await rawGet([whole.slice(0, 10), whole.slice(10)], { gapMs: 60 });
    expect(r.status).toBe(200);
    expect(Array.isArray(r.body!.data)).toBe(true);
  });

  it('chunked, at once or in parts, gives the same answer', async () => {
    const whole = key();
    expect((await rawGet([whole], { chunked: true })).status).toBe(200);
    expect((await rawGet([whole.slice(0, 5), whole.slice(5)], { chunked: true, gapMs: 40 })).status).toBe(200);
  });

  it('malformed, at once or late, is the same 400', async () => {
    const now = await rawGet(['{"merchant_key":']);
    const late = await rawGet(['{"merchant_key":'], { gapMs: 40 });
    expect(now.status).toBe(400);
    expect(late).toEqual(now);
    expect(now.body!.code).toBe('malformed_json');
  });

  it('that is JSON but not an object (an array, a number) is a 400 naming the body', async () => {
    for (const body of ['[1]', '7']) {
      const r = await rawGet([body]);
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({
        code: 'invalid_request',
        message: 'Invalid request. body: must be a JSON object',
      });
    }
  });

  it('of a type that is not JSON nor a form, at once or late, is the same 415', async () => {
    const now = await rawGet(['<x/>'], { contentType: 'application/xml' });
    const late = await rawGet(['<x/>'], { contentType: 'application/xml', gapMs: 40 });
    expect(now.status).toBe(415);
    expect(late).toEqual(now);
  });

  it('chunked past 64 KiB, at once or late, is a 413', async () => {
    const big = ' '.repeat(40 * 1024);
    expect((await rawGet([big, big], { chunked: true })).status).toBe(413);
    expect((await rawGet([big, big], { chunked: true, gapMs: 20 })).status).toBe(413);
  });
});
