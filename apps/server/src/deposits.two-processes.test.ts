import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCore, type Core } from '@remit/core';
import { createTestDatabase } from './testing/harness.js';
import { validOnboarding } from './testing/fixtures.js';
import { basicAuth, send } from './testing/http.js';
import { startProcess, type ServerProcess } from './testing/process.js';

/**
 * Two real server processes on one Postgres (always the local Postgres), each with a data directory
 * of its own: a check deposit made through either keeps its images in the database, so the other
 * server sees them and `pg_dump` holds them. Then both restart together on one directory that holds
 * images an earlier version wrote as files: they move into the database once.
 */
const run = promisify(execFile);
let db: Awaited<ReturnType<typeof createTestDatabase>>;
let operator: Core;
let a: ServerProcess;
let b: ServerProcess;
const dirs: string[] = [];
const encryptionKey = randomBytes(32);
const baseEnv = () => ({
  DATABASE_URL: db.url,
  REMIT_ENCRYPTION_KEY: encryptionKey.toString('hex'),
  REMIT_WORKERS: 'off',
});
const newDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'remit-two-'));
  dirs.push(d);
  return d;
};

beforeAll(async () => {
  db = await createTestDatabase();
  operator = await openCore({
    env: 'sandbox',
    publicUrl: 'http://127.0.0.1',
    encryptionKey,
    databaseUrl: db.url,
    filesDir: newDir(),
  });
  [a, b] = await Promise.all([
    startProcess('apps/server/src/main.ts', { ...baseEnv(), REMIT_DATA_DIR: newDir() }),
    startProcess('apps/server/src/main.ts', { ...baseEnv(), REMIT_DATA_DIR: newDir() }),
  ]);
}, 180_000);
afterAll(async () => {
  await Promise.all([a?.stop('SIGKILL'), b?.stop('SIGKILL')]);
  await operator?.close();
  await db?.drop();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

async function rows<T>(query: ReturnType<typeof sql>): Promise<T[]> {
  return ((await operator.ctx.db.execute(query)) as unknown as { rows: T[] }).rows;
}

const call = (p: ServerProcess, auth: string, path: string, json: object) =>
  send<any>({ method: 'POST', url: `${p.base}${path}`, headers: { authorization: auth }, json });

async function deposit(p: ServerProcess, auth: string, merchant_key: string, front: Buffer, back: Buffer) {
  const fd = new FormData();
  fd.append('amount', '12.34');
  fd.append('merchant_key', merchant_key);
  fd.append('device', 'iOS');
  fd.append('front_file', new Blob([new Uint8Array(front)]), 'front.jpg');
  fd.append('back_file', new Blob([new Uint8Array(back)]), 'back.png');
  const req = new Request('http://x/', { method: 'POST', body: fd });
  return send<any>({
    method: 'POST',
    url: `${p.base}/api/v1/merchant/remote_deposit_capture`,
    headers: { authorization: auth, 'content-type': req.headers.get('content-type')! },
    raw: Buffer.from(await req.arrayBuffer()),
  });
}

const jpeg = () => Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), randomBytes(256)]);
const png = () => Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47]), randomBytes(256)]);

describe('check images on two servers sharing one Postgres', () => {
  let auth: string;
  let merchantKey: string;
  let merchantId: string;
  const made: Array<{ id: string; front: Buffer; back: Buffer }> = [];

  it('a deposit through either server is in pg_dump, and the other server resolves it', async () => {
    const creds = await send<any>({ method: 'POST', url: `${a.base}/portal/api/credentials` });
    auth = basicAuth(creds.body.client_id, creds.body.secret_key);
    const onboarded = await call(a, auth, '/api/v1/onboarding', validOnboarding({}));
    expect(onboarded.status, onboarded.text).toBe(201);
    merchantKey = onboarded.body.data.merchant_key;
    merchantId = (
      await rows<{ id: string }>(sql`select id from merchants where client_id = ${creds.body.client_id}`)
    )[0]!.id;
    expect((await call(b, auth, '/api/v1/approve-merchant', { merchant_id: merchantId })).status).toBe(200);

    for (const p of [a, b]) {
      const front = jpeg();
      const back = png();
      const res = await deposit(p, auth, merchantKey, front, back);
      expect(res.status, res.text).toBe(200);
      made.push({ id: res.body.data.transactionId, front, back });
    }
    // No server keeps them as files.
    for (const d of dirs) expect(existsSync(join(d, 'deposits'))).toBe(false);

    const { stdout } = await run('pg_dump', ['--data-only', '--table=check_images', '--table=transactions', db.url], {
      maxBuffer: 64 * 1024 * 1024,
    });
    for (const m of made) {
      expect(stdout).toContain(m.id);
      expect(stdout).toContain(`\\\\x${m.front.toString('hex')}`);
      expect(stdout).toContain(`\\\\x${m.back.toString('hex')}`);
    }

    // A's deposit resolved through B: one set of records, whichever server is asked.
    const up = await call(b, auth, '/api/v1/update-ach', {
      merchant_key: merchantKey,
      transaction_id: made[0]!.id,
      new_status: 'approved',
    });
    expect(up.status, up.text).toBe(200);
    expect(
      (await rows<{ status: string }>(sql`select status from transactions where id = ${made[0]!.id}`))[0]!.status,
    ).toBe('completed');
  }, 60_000);

  it('restarted together on one directory with files of an earlier version: the images move once', async () => {
    await Promise.all([a.stop(), b.stop()]);
    // As the earlier version left them: the images as files, their rows not yet in the database.
    const shared = newDir();
    const dir = join(shared, 'deposits', merchantId);
    mkdirSync(dir, { recursive: true });
    for (const m of made) {
      await rows(sql`delete from check_images where transaction_id = ${m.id}`);
      writeFileSync(join(dir, `${m.id}-front.jpg`), m.front);
      writeFileSync(join(dir, `${m.id}-back.png`), m.back);
    }
    const env = { ...baseEnv(), REMIT_DATA_DIR: shared, LOG_LEVEL: 'info' };
    [a, b] = await Promise.all([
      startProcess('apps/server/src/main.ts', env),
      startProcess('apps/server/src/main.ts', env),
    ]);
    const moves = [a, b].map((p) => /Moved (\d+) check images/.exec(p.output())?.[1] ?? '0').sort();
    expect(moves).toEqual(['0', '4']);
    const stored = await rows<{ transaction_id: string; side: string; data: Uint8Array }>(
      sql`select transaction_id, side, data from check_images`,
    );
    expect(stored).toHaveLength(4);
    for (const m of made) {
      expect(Buffer.from(stored.find((r) => r.transaction_id === m.id && r.side === 'front')!.data)).toEqual(m.front);
      expect(Buffer.from(stored.find((r) => r.transaction_id === m.id && r.side === 'back')!.data)).toEqual(m.back);
    }
    expect(existsSync(dir) ? readdirSync(dir) : []).toEqual([]);
  }, 180_000);
});
