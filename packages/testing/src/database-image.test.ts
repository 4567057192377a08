import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { connectDatabase, migrationsFolder } from '@remit/core';
import { imageKey, sandboxImage } from './database-image.js';

// The image sandboxes start from (database-image.ts): every migration already in it, on a worker
// thread as on the calling thread, each database its own copy. PGlite either way (one pass is enough).
const journal = JSON.parse(readFileSync(join(migrationsFolder, 'meta/_journal.json'), 'utf8')) as {
  entries: unknown[];
};

describe.skipIf(process.env.REMIT_TEST_DB === 'postgres')('the sandbox database image', () => {
  it('has a key of the migrations it was made from', () => {
    expect(imageKey()).toMatch(/^[0-9a-f]{64}$/);
    expect(imageKey()).toBe(imageKey());
  });

  it.each([true, false])(
    'starts a migrated database, pgliteThread %s, with its settings, sharing nothing',
    async (pgliteThread) => {
      const image = await sandboxImage();
      const open = () => connectDatabase({ image, pgliteThread, pgliteSettings: { shared_buffers: '16MB' } });
      const [a, b] = [await open(), await open()];
      try {
        const applied = (await a.db.execute(
          sql`select count(*)::int as n from drizzle.__drizzle_migrations`,
        )) as unknown as {
          rows: Array<{ n: number }>;
        };
        expect(applied.rows[0]!.n).toBe(journal.entries.length);
        const shown = (await a.db.execute(sql`show shared_buffers`)) as unknown as {
          rows: Array<{ shared_buffers: string }>;
        };
        expect(shown.rows[0]!.shared_buffers).toBe('16MB');
        await a.db.execute(sql`insert into key_fingerprint (fingerprint) values ('a')`);
        const other = (await b.db.execute(sql`select count(*)::int as n from key_fingerprint`)) as unknown as {
          rows: Array<{ n: number }>;
        };
        expect(other.rows[0]!.n).toBe(0);
      } finally {
        await a.close();
        await b.close();
      }
    },
    60_000,
  );
});
