import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { connectDatabase } from './connect.js';

// PGlite on a worker thread (the default) and on the calling thread: the same answers, errors and
// statements seen, through Drizzle and connect.ts's hooks. Runs on both test databases (PGlite either way).
describe.each([true, false])('connectDatabase on PGlite, pgliteThread %s', (pgliteThread) => {
  it('migrates, commits, rolls back and reports errors and statements the same way', async () => {
    const seen: string[] = [];
    const database = await connectDatabase({
      pgliteThread,
      onStatement: (text) => void seen.push(text.split(' ')[0]!),
    });
    try {
      const { db } = database;
      await db.execute(sql`create table probe (id int primary key, at timestamptz)`);
      seen.length = 0;
      await db.transaction(async (tx) => {
        await tx.execute(sql`insert into probe values (1, '2026-01-02T03:04:05Z')`);
      });
      await expect(
        db.transaction(async (tx) => {
          await tx.execute(sql`insert into probe values (2, now())`);
          throw new Error('undo');
        }),
      ).rejects.toThrow('undo');
      expect(seen).toEqual(['BEGIN', 'insert', 'COMMIT', 'BEGIN', 'insert', 'ROLLBACK']);
      // Dates stay text (Drizzle maps them itself); the failed statement's cause keeps its code.
      const rows = (await db.execute(sql`select id, at from probe`)) as unknown as { rows: unknown[] };
      expect(rows.rows).toEqual([{ id: 1, at: '2026-01-02 03:04:05+00' }]);
      const failed = await db.execute(sql`insert into probe values (1, null)`).catch((e: Error) => e);
      expect((failed as Error & { cause?: { code?: string; constraint?: string } }).cause).toMatchObject({
        code: '23505',
        constraint: 'probe_pkey',
      });
    } finally {
      await database.close();
    }
  });
});
