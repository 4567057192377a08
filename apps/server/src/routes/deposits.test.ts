import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, tableCounts, type TestServer } from '../testing/harness.js';
import { newMerchant, type TestMerchant } from '../testing/fixtures.js';
import { eventsOf, linkedRows, rows, txnRow } from '../testing/payments.js';
import { sql } from 'drizzle-orm';

let s: TestServer;
let m: TestMerchant;
let dataDir: string;
beforeAll(async () => {
  s = await startTestServer();
  dataDir = s.core.ctx.filesDir;
  m = await newMerchant(s);
});
afterAll(() => s.close());

const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(200, 7)]);
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(200, 1)]);
const TIFF = Buffer.concat([Buffer.from([0x4d, 0x4d, 0x00, 0x2a]), Buffer.alloc(100, 2)]);

type Parts = Record<string, string | { data: Buffer; filename: string }>;

async function deposit(parts: Parts, as: TestMerchant = m) {
  const fd = new FormData();
  for (const [k, v] of Object.entries(parts)) {
    if (typeof v === 'string') fd.append(k, v);
    else fd.append(k, new Blob([new Uint8Array(v.data)]), v.filename);
  }
  const req = new Request('http://x/', { method: 'POST', body: fd });
  const raw = Buffer.from(await req.arrayBuffer());
  return s.http({
    method: 'POST',
    path: '/api/v1/merchant/remote_deposit_capture',
    auth: as.auth,
    raw,
    headers: { 'content-type': req.headers.get('content-type')! },
  });
}

const full = (over: Parts = {}): Parts => ({
  amount: '125.40',
  merchant_key: m.merchant_key,
  device: 'iOS',
  front_file: { data: JPEG, filename: 'front.jpg' },
  back_file: { data: PNG, filename: 'back.png' },
  ...over,
});

const imagesOf = (id: string) =>
  rows<{ side: string; content_type: string; data: Buffer }>(
    s,
    sql`select side, content_type, data from check_images where transaction_id = ${id} order by side desc`,
  );

describe('POST /merchant/remote_deposit_capture', () => {
  it('creates a pending ACH transaction and keeps the images in the database, none under the data directory', async () => {
    const res = await deposit(full());
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ result: true, data: { amount: '125.40' } });
    expect(Object.keys(res.body.data).sort()).toEqual(['amount', 'transactionId']);
    const id = res.body.data.transactionId;
    expect(id).toMatch(/^txn_/);
    expect(await txnRow(s, id)).toMatchObject({
      type: 'Sale',
      payment_method: 'ach',
      is_status: 0,
      status: 'pending',
      amount: 12540,
    });
    const images = await imagesOf(id);
    expect(images.map((i) => [i.side, i.content_type])).toEqual([
      ['front', 'image/jpeg'],
      ['back', 'image/png'],
    ]);
    expect(Buffer.from(images[0]!.data)).toEqual(JPEG);
    expect(Buffer.from(images[1]!.data)).toEqual(PNG);
    expect(existsSync(join(dataDir, 'deposits'))).toBe(false);
    const [info] = await rows(s, sql`select deposit_info, gateway_ref from transactions where id = ${id}`);
    expect(info!.deposit_info).toEqual({ device: 'iOS' });
    expect(info!.gateway_ref).toMatch(/^gw_/);
  });

  it('the deposit is resolved with /update-ach like any ACH transaction', async () => {
    const res = await deposit(full({ amount: '10' }));
    const id = res.body.data.transactionId;
    expect(res.body.data.amount).toBe('10.00');
    const up = await s.http({
      method: 'POST',
      path: '/api/v1/update-ach',
      auth: m.auth,
      json: { merchant_key: m.merchant_key, transaction_id: id, new_status: 'approved' },
    });
    expect(up.status).toBe(200);
    expect(await txnRow(s, id)).toMatchObject({ is_status: 2, settled: true });
    expect((await eventsOf(s, m.merchant_id, 'ach.update')).map((e) => e.tran_id)).toContain(id);
  });

  it('a deposit declined with /update-ach is returned: a Return record and ach.update Declined', async () => {
    const id = (await deposit(full({ amount: '20' }))).body.data.transactionId;
    const up = await s.http({
      method: 'POST',
      path: '/api/v1/update-ach',
      auth: m.auth,
      json: { merchant_key: m.merchant_key, transaction_id: id, new_status: 'declined' },
    });
    expect(up.status).toBe(200);
    expect(up.body).toMatchObject({ result: true, message: 'ACH transaction declined: Insufficient Funds.' });
    expect(await txnRow(s, id)).toMatchObject({ status: 'returned' });
    const [ret] = await linkedRows(s, id);
    expect(ret).toMatchObject({ type: 'Return', amount: 2000 });
    const [ev] = (await eventsOf(s, m.merchant_id, 'ach.update')).filter((e) => e.tran_id === id);
    expect(ev).toMatchObject({ status: 'Declined', message: 'Insufficient Funds', return_transaction_id: ret!.id });
  });

  it('TIFF (big-endian) is accepted; the type comes from the content, not the file name', async () => {
    const res = await deposit(
      full({ front_file: { data: TIFF, filename: 'scan.jpg' }, back_file: { data: JPEG, filename: 'back.pdf' } }),
    );
    expect(res.status).toBe(200);
    const id = res.body.data.transactionId;
    expect((await imagesOf(id)).map((i) => [i.side, i.content_type])).toEqual([
      ['front', 'image/tiff'],
      ['back', 'image/jpeg'],
    ]);
  });

  it('an image that is not JPEG, PNG or TIFF is refused, whatever its name', async () => {
    const before = await tableCounts(s.core);
    const res = await deposit(
      full({ back_file: { data: Buffer.from('%PDF-1.7 not an image'), filename: 'back.png' } }),
    );
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ result: false, code: 'unsupported_image' });
    expect(res.body.errors[0].path).toBe('back_file');
    expect(await tableCounts(s.core)).toEqual(before);
  });

  it.each(['amount', 'merchant_key', 'device', 'front_file', 'back_file'])(
    'missing %s → 400 naming it',
    async (part) => {
      const parts = full();
      delete parts[part];
      const res = await deposit(parts);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('missing_part');
      expect(res.body.message).toContain(part);
      expect(res.body.errors).toEqual([{ path: part, message: 'is required' }]);
    },
  );

  it('an image above 10 MB → 413 payload_too_large', async () => {
    const big = Buffer.concat([JPEG, Buffer.alloc(10 * 1024 * 1024)]);
    const before = await tableCounts(s.core);
    const res = await deposit(full({ front_file: { data: big, filename: 'front.jpg' } }));
    expect(res.status).toBe(413);
    expect(res.body).toMatchObject({ result: false, code: 'payload_too_large' });
    expect(await tableCounts(s.core)).toEqual(before);
  });

  it('a merchant without ACH provider credentials (not approved) gets the ACH-not-found error', async () => {
    const pending = await newMerchant(s, { auth: m.auth, approve: false });
    const res = await deposit(full({ merchant_key: pending.merchant_key }), pending);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ result: false, code: 'ach_account_not_found' });
    expect(res.body.message).toMatch(/ACH merchant or account detail not found/);
  });

  it('a bad amount names the field; a wrong merchant_key is 401', async () => {
    const r1 = await deposit(full({ amount: 'ten' }));
    expect(r1.status).toBe(400);
    expect(r1.body.errors[0].path).toBe('amount');
    const r2 = await deposit(full({ merchant_key: 'mk_test_nope' }));
    expect(r2.status).toBe(401);
  });

  it('JSON is refused: the endpoint takes multipart only; other routes still refuse multipart', async () => {
    const r1 = await s.http({
      method: 'POST',
      path: '/api/v1/merchant/remote_deposit_capture',
      auth: m.auth,
      json: { amount: '1' },
    });
    expect(r1.status).toBeGreaterThanOrEqual(400);
    expect(r1.status).toBeLessThan(500);
    const fd = new FormData();
    fd.append('merchant_key', m.merchant_key);
    const req = new Request('http://x/', { method: 'POST', body: fd });
    const r2 = await s.http({
      method: 'POST',
      path: '/api/v1/order/sales-void',
      auth: m.auth,
      raw: Buffer.from(await req.arrayBuffer()),
      headers: { 'content-type': req.headers.get('content-type')! },
    });
    expect(r2.status).toBe(415);
  });
});
