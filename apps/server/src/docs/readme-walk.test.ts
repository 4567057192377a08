import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestDatabase, testDbKind } from '@remit/core/testing';
import { startProcess, type ServerProcess } from '../testing/process.js';

/**
 * README's "A five-minute walk", run as written: its ```sh blocks pasted one after the other into
 * one bash (as a reader pastes them into one shell) at the repository's root, against a server
 * started as `npm start` starts it, on a free port given as `PORT`. Twice, as a reader trying it
 * again would: every value must come from the answers before it, nothing hard-coded.
 */
const root = fileURLToPath(new URL('../../../../', import.meta.url));
const run = promisify(execFile);

/** The ```sh blocks of the README section that starts with `## A five-minute walk`. */
export function walkBlocks(readme: string): string[] {
  const start = readme.indexOf('\n## A five-minute walk');
  if (start < 0) throw new Error('README has no "## A five-minute walk" section');
  const end = readme.indexOf('\n## ', start + 1);
  const section = readme.slice(start, end < 0 ? undefined : end);
  return [...section.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((m) => m[1]!);
}

let server: ServerProcess;
let db: { url: string; drop(): Promise<void> } | null = null;
const dataDir = mkdtempSync(join(tmpdir(), 'remit-walk-'));

beforeAll(async () => {
  db = testDbKind === 'postgres' ? await createTestDatabase() : null;
  server = await startProcess('apps/server/src/main.ts', {
    PUBLIC_URL: '',
    REMIT_ENCRYPTION_KEY: '',
    REMIT_DATA_DIR: dataDir,
    DATABASE_URL: db?.url ?? '',
  });
}, 120_000);
afterAll(async () => {
  await server?.stop();
  await db?.drop();
  rmSync(dataDir, { recursive: true, force: true });
});

it('README walk: eight steps, each answer feeding the next; a second run works as well as the first', async () => {
  const blocks = walkBlocks(readFileSync(join(root, 'README.md'), 'utf8'));
  expect(blocks).toHaveLength(8);
  const port = new URL(server.base).port;
  // What the reader can check at the end: the values the walk kept.
  // Step 5 pasted again, as after a lost answer: its Idempotency-Key gives the first charge back, not a second one.
  const replay = `FIRST_CHARGE=$TRANSACTION_ID\n${blocks[4]}\necho "REPLAY $FIRST_CHARGE $TRANSACTION_ID"\n`;
  const script = `${blocks.join('\n')}\n${replay}echo "WALK $CLIENT_ID $MERCHANT_KEY $PUBLIC_KEY $MERCHANT_ID $CUSTOMER_ID $TRANSACTION_ID $PAY_LINK"\n`;
  for (const pass of [1, 2]) {
    const { stdout, stderr } = await run('bash', ['-o', 'pipefail', '-c', script], {
      cwd: root,
      env: { ...process.env, PORT: port },
      timeout: 60_000,
    });
    expect(stderr, `pass ${pass}`).toBe('');
    const [, clientId, mk, pk, merchantId, customerId, txn, link] = stdout.trim().split('\n').at(-1)!.split(' ');
    expect({ clientId, mk, pk, merchantId, customerId, txn }, `pass ${pass}`).toEqual({
      clientId: expect.stringMatching(/^cl_/),
      mk: expect.stringMatching(/^mk_test_/),
      pk: expect.stringMatching(/^pk_test_/),
      merchantId: expect.stringMatching(/^m_/),
      customerId: expect.stringMatching(/^[1-9]\d*$/),
      txn: expect.stringMatching(/^txn_/),
    });
    const [, first, again] = /^REPLAY (\S+) (\S+)$/m.exec(stdout)!;
    expect(again, `pass ${pass}: step 5 again`).toBe(first);
    expect(blocks[4]).toContain('Idempotency-Key: ');
    // The pay link opens on the address the server answers on (PUBLIC_URL's default).
    expect(link).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${port}/pay/ord_`));
    expect((await fetch(link!)).status).toBe(200);
    // Step 3 approved, step 6 refunded 2.50, step 7 lists the sale (9.41 net after the fee) and the refund.
    expect(stdout).toContain('"message": "Merchant approved successfully."');
    expect(stdout).toContain('"message": "Refund processed successfully."');
    expect(stdout).toMatch(/"type": "Sale",\s+"amount": "10.00",\s+"net_amount": 9.41,\s+"is_status": 2/);
    expect(stdout).toMatch(/"type": "Refund",\s+"amount": "2.50"/);
  }
}, 180_000);
