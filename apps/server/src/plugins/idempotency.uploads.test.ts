import { connect } from 'node:net';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../testing/harness.js';
import { newMerchant, type TestMerchant } from '../testing/fixtures.js';
import { rows } from '../testing/payments.js';

let s: TestServer;
let m: TestMerchant;
let other: TestMerchant;
beforeAll(async () => {
  s = await startTestServer();
  m = await newMerchant(s);
  other = await newMerchant(s, { auth: m.auth, business_name: 'Other Shop' });
});
afterAll(() => s.close());

const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(200, 7)]);
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(200, 1)]);

/** A deposit's multipart body; each call makes a new boundary, as a retrying client would. */
async function multipart(over: { amount?: string; merchant_key?: string; front?: Buffer } = {}) {
  const fd = new FormData();
  fd.append('amount', over.amount ?? '125.40');
  fd.append('merchant_key', over.merchant_key ?? m.merchant_key);
  fd.append('device', 'iOS');
  fd.append('front_file', new Blob([new Uint8Array(over.front ?? JPEG)]), 'front.jpg');
  fd.append('back_file', new Blob([new Uint8Array(PNG)]), 'back.png');
  const req = new Request('http://x/', { method: 'POST', body: fd });
  return { raw: Buffer.from(await req.arrayBuffer()), type: req.headers.get('content-type')! };
}

async function deposit(key: string, over: Parameters<typeof multipart>[0] = {}) {
  const { raw, type } = await multipart(over);
  return s.http({
    method: 'POST',
    path: '/api/v1/merchant/remote_deposit_capture',
    auth: m.auth,
    raw,
    headers: { 'content-type': type, 'idempotency-key': key },
  });
}

const depositCount = async () =>
  (await rows(s, sql`select count(*)::int as c from transactions where deposit_info is not null`))[0]!.c as number;

describe('Idempotency-Key on multipart deposits hashes what was sent', () => {
  it('the same deposit again (new boundary) replays; another amount, merchant_key or image is 409, nothing written', async () => {
    const first = await deposit('dep-1');
    expect(first.status).toBe(200);
    const again = await deposit('dep-1');
    expect(again.status).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(first.body);
    const count = await depositCount();
    for (const over of [
      { amount: '999.00' },
      { merchant_key: other.merchant_key },
      { front: Buffer.concat([JPEG, Buffer.from([1])]) },
    ]) {
      const res = await deposit('dep-1', over);
      expect(res.status).toBe(409);
      expect(res.body).toMatchObject({ result: false, code: 'idempotency_key_reused' });
    }
    expect(await depositCount()).toBe(count);
  });
});

describe('an upload cut off midway does not hold the key', () => {
  it("the client's honest retry with the same key is a new deposit, not a stored 400 or a 409", async () => {
    const { raw, type } = await multipart({ amount: '42.00' });
    const url = new URL(s.url);
    const auth = Buffer.from(`${m.auth[0]}:${m.auth[1]}`).toString('base64');
    const sock = connect(Number(url.port), url.hostname);
    await new Promise<void>((r) => sock.once('connect', () => r()));
    sock.write(
      `POST /api/v1/merchant/remote_deposit_capture HTTP/1.1\r\nHost: ${url.host}\r\nAuthorization: Basic ${auth}\r\n` +
        `Content-Type: ${type}\r\nContent-Length: ${raw.length}\r\nIdempotency-Key: dep-cut\r\n\r\n`,
    );
    sock.write(raw.subarray(0, Math.floor(raw.length / 2)));
    await new Promise((r) => setTimeout(r, 200));
    sock.destroy();
    await new Promise((r) => setTimeout(r, 300));
    const before = await depositCount();
    const retry = await deposit('dep-cut', { amount: '42.00' });
    expect(retry.status).toBe(200);
    expect(retry.headers['idempotent-replayed']).toBeUndefined();
    expect(retry.body.data.amount).toBe('42.00');
    expect(await depositCount()).toBe(before + 1);
  });
});
