import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Coalescer, openCore, type Core } from '@remit/core';
import { createTestDatabase, testDbKind, type TestDatabase } from '@remit/core/testing';
import { describeRecording, runRecording, SqlRecorder, type Driver, type Recording } from './replay.js';

/**
 * The bench's recorder tells statements sent at once from statements sent one after another by
 * their answers, not by event-loop turns: on PGlite an answer comes back within the same turn, so
 * statements awaited one by one used to be taken as sent at once.
 */

let core: Core;
let tdb: TestDatabase | null = null;
const recorder = new SqlRecorder();
beforeAll(async () => {
  tdb = testDbKind === 'postgres' ? await createTestDatabase() : null;
  core = await openCore({
    env: 'sandbox',
    publicUrl: 'http://127.0.0.1',
    encryptionKey: randomBytes(32),
    databaseUrl: tdb?.url,
    logger: recorder,
    onStatement: recorder.onStatement,
  });
});
afterAll(async () => {
  await core.close();
  await tdb?.drop();
});

it(`one after another, at once, and in a transaction are told apart (${testDbKind})`, async () => {
  const db = core.ctx.db;
  // Two pooled connections open already (on Postgres), as in a server under load.
  await Promise.all([db.execute(sql`select 1`), db.execute(sql`select 2`)]);
  const r = await recorder.record(async () => {
    await db.execute(sql`select ${1}::int`);
    await db.execute(sql`select ${2}::int`);
    await Promise.all([db.execute(sql`select ${3}::int`), db.execute(sql`select ${4}::int`)]);
    await db.transaction(async (tx) => {
      await tx.execute(sql`select ${5}::int`);
      await tx.execute(sql`select ${6}::int`);
    });
    await db.execute(sql`select ${7}::int`);
  });
  expect(describeRecording(r)).toBe('1, 1, 2 at once, BEGIN + 2 + COMMIT, 1');
  expect(r.flatMap((s) => s.statements.map((x) => x.params))).toEqual([[1], [2], [3], [4], [5], [6], [7]]);
});

it(`records the operation's own statements only, not another sent meanwhile from outside it (the PGlite upkeep's timer) (${testDbKind})`, async () => {
  const db = core.ctx.db;
  const later = new Promise((r) => setTimeout(r, 30));
  // Registered outside the recording: runs in the middle of it, as the upkeep's interval can.
  const outside = later.then(() => db.execute(sql`select ${'outside'}::text`));
  const r = await recorder.record(async () => {
    await db.execute(sql`select ${1}::int`);
    await later;
    await outside;
    await db.execute(sql`select ${2}::int`);
  });
  expect(describeRecording(r)).toBe('1, 1');
  expect(r.flatMap((s) => s.statements.map((x) => x.params))).toEqual([[1], [2]]);
});

it("the replay joins the limiter's count as the server does: workers reaching it while one is in flight share the next one; other steps run each time", async () => {
  const sent: string[] = [];
  let release: () => void = () => {};
  const driver: Driver = {
    kind: 'postgres',
    run: async (step) => {
      sent.push(step.statements[0]!.query.slice(0, 15));
      if (/^with clock/.test(step.statements[0]!.query)) await new Promise<void>((r) => (release = r));
      return [[]];
    },
    close: async () => {},
  };
  const recording: Recording = [
    { kind: 'group', statements: [{ query: 'with clock as (select 1)', params: ['api_client:cl_1'] }] },
    { kind: 'group', statements: [{ query: 'select * from transactions', params: [] }] },
  ];
  const joined = new Coalescer<Array<Record<string, unknown>>[]>();
  const runs = Array.from({ length: 5 }, () => runRecording(driver, recording, [['api_client:cl_1'], []], joined));
  await new Promise((r) => setImmediate(r));
  expect(sent).toEqual(['with clock as (']);
  release();
  await new Promise((r) => setImmediate(r));
  release();
  await Promise.all(runs);
  expect(sent.filter((q) => q.startsWith('with clock'))).toHaveLength(2);
  expect(sent.filter((q) => q.startsWith('select'))).toHaveLength(5);
});
