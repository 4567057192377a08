import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCheckDepositSimulator, RemitError, type CheckDepositProvider } from '@remit/core';
import { checkImageStoreFromEnv } from '../check-images.js';
import { startTestServer, tableCounts, type TestServer } from '../testing/harness.js';
import { newMerchant, type TestMerchant } from '../testing/fixtures.js';
import { rows, txnRow } from '../testing/payments.js';
import { startS3Emulator, type S3Emulator } from '../testing/s3-emulator.js';

/**
 * Check images in an S3-compatible bucket (REMIT_CHECK_IMAGES_S3_*): the real server, configured
 * from the environment as an operator would, against the S3 emulator through the AWS SDK.
 */

const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(200, 7)]);
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(200, 1)]);

const bucketEnv = (emu: S3Emulator, over: Record<string, string> = {}) => ({
  REMIT_CHECK_IMAGES_S3_BUCKET: 'remit-checks',
  REMIT_CHECK_IMAGES_S3_ENDPOINT: emu.url,
  REMIT_CHECK_IMAGES_S3_PREFIX: 'checks/',
  AWS_ACCESS_KEY_ID: emu.accessKeyId,
  AWS_SECRET_ACCESS_KEY: emu.secretAccessKey,
  ...over,
});

/** The sandbox simulator, refusing deposits while `refuse` is set (a provider that says no after the upload). */
function refusableSimulator(): { provider: CheckDepositProvider; refuse: boolean } {
  const sim = createCheckDepositSimulator();
  const ctl: { provider: CheckDepositProvider; refuse: boolean } = {
    refuse: false,
    provider: {
      ...sim,
      submit: (d, o) =>
        ctl.refuse
          ? Promise.reject(new RemitError('unavailable', 'The check-deposit provider is down.'))
          : sim.submit(d, o),
    },
  };
  return ctl;
}

let emu: S3Emulator;
let other: S3Emulator;
let s: TestServer;
let elsewhere: TestServer;
let m: TestMerchant;
let m2: TestMerchant;
const sim = refusableSimulator();
beforeAll(async () => {
  [emu, other] = await Promise.all([startS3Emulator(), startS3Emulator({ accessKeyId: 'AKIAOTHERACCOUNT0001' })]);
  [s, elsewhere] = await Promise.all([
    startTestServer({
      checkImageStore: checkImageStoreFromEnv(bucketEnv(emu), 'sandbox'),
      checkDeposits: sim.provider,
    }),
    // Signs with emu's key at `other`, which expects another: refused; later `other` goes down.
    startTestServer({
      checkImageStore: checkImageStoreFromEnv(bucketEnv(emu, { REMIT_CHECK_IMAGES_S3_ENDPOINT: other.url }), 'sandbox'),
    }),
  ]);
  [m, m2] = await Promise.all([newMerchant(s), newMerchant(elsewhere)]);
}, 120_000);
afterAll(async () => {
  await Promise.all([s?.close(), elsewhere?.close()]);
  await Promise.all([emu?.close(), other?.close()]);
});

async function deposit(server: TestServer, as: TestMerchant, amount = '125.40') {
  const fd = new FormData();
  fd.append('amount', amount);
  fd.append('merchant_key', as.merchant_key);
  fd.append('device', 'iOS');
  fd.append('front_file', new Blob([new Uint8Array(JPEG)]), 'front.jpg');
  fd.append('back_file', new Blob([new Uint8Array(PNG)]), 'back.png');
  const req = new Request('http://x/', { method: 'POST', body: fd });
  return server.http({
    method: 'POST',
    path: '/api/v1/merchant/remote_deposit_capture',
    auth: as.auth,
    raw: Buffer.from(await req.arrayBuffer()),
    headers: { 'content-type': req.headers.get('content-type')! },
  });
}

const bucket = () => emu.buckets.get('remit-checks')!;
const rowsIn = async (server: TestServer, id: string) =>
  (await rows<{ n: number }>(server, sql`select count(*)::int as n from check_images where transaction_id = ${id}`))[0]!
    .n;

describe('check images in an S3-compatible bucket', () => {
  it("a deposit's two images land in the bucket under the prefix, none in check_images, and read back", async () => {
    const res = await deposit(s, m);
    expect(res.status, res.text).toBe(200);
    const id = res.body.data.transactionId as string;
    expect(await txnRow(s, id)).toMatchObject({ payment_method: 'ach', status: 'pending', amount: 12540 });
    expect([...bucket().keys()].filter((k) => k.includes(id))).toEqual([`checks/${id}/front`, `checks/${id}/back`]);
    expect(bucket().get(`checks/${id}/front`)).toMatchObject({ body: JPEG, contentType: 'image/jpeg' });
    expect(bucket().get(`checks/${id}/back`)).toMatchObject({ body: PNG, contentType: 'image/png' });
    expect(await rowsIn(s, id)).toBe(0);
    // Path-style PUTs, signed (the emulator refuses any without the access key id).
    expect(emu.requests).toContain(`PUT /remit-checks/checks/${id}/front`);

    const back = await s.core.ctx.checkImages.read(s.core.ctx.db, id);
    expect(back.map((i) => [i.side, i.contentType, i.data])).toEqual([
      ['front', 'image/jpeg', JPEG],
      ['back', 'image/png', PNG],
    ]);
    expect(await s.core.ctx.checkImages.read(s.core.ctx.db, 'txn_unknown')).toEqual([]);
  });

  it('a bucket that answers 500: the deposit is refused with 503 check_images_unavailable, nothing written', async () => {
    const before = await tableCounts(s.core);
    const objects = bucket().size;
    emu.failing = true;
    try {
      const res = await deposit(s, m, '10.00');
      expect(res.status).toBe(503);
      expect(res.body).toMatchObject({ result: false, code: 'check_images_unavailable' });
      expect(res.body.message).toBe(
        'The check images could not be stored (the image bucket did not answer); the deposit was not recorded. Retry it.',
      );
    } finally {
      emu.failing = false;
    }
    expect(await tableCounts(s.core)).toEqual(before);
    expect(bucket().size).toBe(objects);
    // The bucket back, deposits go through again.
    expect((await deposit(s, m, '11.00')).status).toBe(200);
  });

  it('a provider that refuses after the upload: its images are removed from the bucket, nothing recorded', async () => {
    const before = await tableCounts(s.core);
    const objects = bucket().size;
    const seen = emu.requests.length;
    sim.refuse = true;
    try {
      const res = await deposit(s, m, '12.00');
      expect(res.status).toBe(503);
      expect(res.body.code).toBe('unavailable');
    } finally {
      sim.refuse = false;
    }
    expect(await tableCounts(s.core)).toEqual(before);
    expect(bucket().size).toBe(objects);
    const sent = emu.requests.slice(seen).map((r) => r.replace(/txn_\w+/, 'txn'));
    expect(sent.slice(0, 2).sort()).toEqual([
      'PUT /remit-checks/checks/txn/back',
      'PUT /remit-checks/checks/txn/front',
    ]);
    expect(sent.slice(2).sort()).toEqual([
      'DELETE /remit-checks/checks/txn/back',
      'DELETE /remit-checks/checks/txn/front',
    ]);
  });

  it('images recorded in check_images before the bucket was set (or moved there from files) are still read', async () => {
    const id = (
      await rows<{ id: string }>(s, sql`select id from transactions where payment_method = 'ach' order by id limit 1`)
    )[0]!.id;
    // As a deposit recorded while images went to the database: rows, no objects.
    bucket().delete(`checks/${id}/front`);
    bucket().delete(`checks/${id}/back`);
    await rows(
      s,
      sql`insert into check_images (transaction_id, side, content_type, data) values (${id}, 'front', 'image/png', ${PNG}), (${id}, 'back', 'image/jpeg', ${JPEG})`,
    );
    const read = await s.core.ctx.checkImages.read(s.core.ctx.db, id);
    expect(read.map((i) => [i.side, i.contentType, i.data])).toEqual([
      ['front', 'image/png', PNG],
      ['back', 'image/jpeg', JPEG],
    ]);
  });

  it('a bucket that refuses the access key, or is down: 503, nothing written on either', async () => {
    const before = await tableCounts(elsewhere.core);
    const refused = await deposit(elsewhere, m2);
    expect(refused.status).toBe(503);
    expect(refused.body.code).toBe('check_images_unavailable');
    expect(other.requests.some((r) => r.startsWith('PUT '))).toBe(true);
    expect(other.buckets.get('remit-checks')!.size).toBe(0);

    await other.close();
    const down = await deposit(elsewhere, m2);
    expect(down.status).toBe(503);
    expect(down.body.code).toBe('check_images_unavailable');
    expect(await tableCounts(elsewhere.core)).toEqual(before);
  });
});
