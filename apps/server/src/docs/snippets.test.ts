import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, testDbKind } from '@remit/core/testing';
import { startProcess, type ServerProcess } from '../testing/process.js';
import { bash, runBlocks, shellBlocks, walkBlocks } from './shell-blocks.js';

/**
 * Every shell block of README.md and docs/*.md, run as shown or listed with the reason it is not
 * run here, against one server started as `npm start` starts it, on a free port given as `PORT`.
 *
 * README's "A five-minute walk": its blocks pasted one after the other into one bash at the
 * repository's root, twice, as a reader trying it again would: every value must come from the
 * answers before it. A docs page's curl blocks continue the walk, as the pages say: the walk's
 * blocks, then the page's blocks in order, in one bash, with FILL's placeholders filled in.
 */

/**
 * What a reader types in place of a placeholder of a RUN block (`cl_…` → the walk's `$CLIENT_ID`),
 * and nothing else is changed. Empty today: the pages' curl blocks use the walk's variables.
 */
const FILL: Record<string, string> = {};

/** Each page's blocks that run here, in the page's order, by their first line. */
const RUN: Record<string, string[]> = {
  'docs/embedding.md': [
    'WIDGET_ID=$(curl -s -G -u "$CLIENT_ID:$SECRET_KEY" $API/widgets --data-urlencode "merchant_key=$MERCHANT_KEY" | jq -r \'.data[0].id\')',
    'curl -s -u "$CLIENT_ID:$SECRET_KEY" -X PUT -H \'content-type: application/json\' $API/widgets/$WIDGET_ID -d "{',
    'curl -s -G -u "$CLIENT_ID:$SECRET_KEY" $API/merchant/embed-policy --data-urlencode "merchant_key=$MERCHANT_KEY" | jq .data',
  ],
  'docs/webhooks.md': [
    'SIGNING_SECRET=$(curl -s -u "$CLIENT_ID:$SECRET_KEY" -H \'content-type: application/json\' \\',
    'curl -s -G -u "$CLIENT_ID:$SECRET_KEY" $API/client/webhook-deliveries --data-urlencode status=failed | jq .',
  ],
};

/** Blocks not run here, by page and first line, and why. A new block must be run above or listed here. */
const NOT_RUN: Record<string, string> = {
  'README.md: npm ci && npm start':
    'the server this file runs the walk against is started as `npm start` starts it; npm ci would reinstall the checkout',
  'README.md: npm ci && npm test': 'the whole suite (45+ minutes): CI runs it',
  'docs/operations.md: npm ci && npm start': "as README.md's",
  'docs/operations.md: npm ci && npm test': 'the whole suite: CI runs it',
  'docs/operations.md: npm ci && npm run build && npm prune --omit=dev && npm start':
    'the production path: apps/server/src/production-install.test.ts',
  'docs/operations.md: DATABASE_URL=postgres://postgres@127.0.0.1:5432/remit npm start':
    "the Postgres pass of this file starts the walk's server on a DATABASE_URL of its own",
  'docs/operations.md: npm run remit -- credentials create          # client_id and secret_key, one per line (node apps/server/dist/cli.js)':
    'the CLI: apps/server/src/cli.test.ts runs credentials create (--json) and --help',
  'docs/operations.md: npm run remit -- merchants list [--status pending|approved|suspended] [--json]':
    'a synopsis (brackets, m_… placeholders): apps/server/src/cli.operator.test.ts and cli.rotation.test.ts run each command',
  'docs/benchmarks.md: npm run bench                 # everything: the routes on PGlite and Postgres, webhooks, front-end budgets':
    'benchmarks take minutes each: run by hand',
  'docs/deployment.md: git clone <your remit repository> /opt/remit && cd /opt/remit':
    'the production install: apps/server/src/production-install.test.ts (npm ci --omit=dev in a fresh folder, npm start)',
  'docs/deployment.md: # /etc/remit/remit.env (mode 600, owned by root)':
    'an environment file, not commands: apps/server/src/docs/deployment-env.test.ts starts a production server from it',
  'docs/deployment.md: cd /opt/remit': 'an upgrade on a production host (git pull, systemctl restart)',
  'docs/embedding.md: # in the Remit checkout':
    'packs and installs: packages/wrapper-core/src/tarballs.test.ts checks its npm pack line and installs the tarballs',
  'docs/testing.md: # in the Remit checkout':
    'packs and installs: packages/testing/src/pack.test.ts checks its npm pack line and installs that tarball',
  'docs/going-live-stripe.md: REMIT_ENV=production':
    'environment lines with live Stripe keys: apps/server/src/docs/deployment-env.test.ts starts production on Stripe (its emulator)',
  'docs/going-live-stripe.md: npm run remit -- wallets register-domain            # the host of PUBLIC_URL':
    'registers a domain at Stripe: apps/server/src/cli.refused.test.ts runs both lines against the Stripe emulator',
  'docs/going-live-stripe.md: npm run remit -- payments refused':
    'needs a Stripe that refused a call: apps/server/src/cli.refused.test.ts runs it against the Stripe emulator',
  'docs/operations.md: REMIT_ENCRYPTION_KEY=<new> REMIT_ENCRYPTION_KEY_PREVIOUS=<old> npm run remit -- keys reseal':
    'a runbook step with placeholder keys: apps/server/src/encryption-key.rotation.test.ts runs the rotation as written',
  'docs/testing.md: $ npx remit-sandbox --port 4010 --webhooks-port 4011':
    'a transcript: packages/testing/src/controls.pack.test.ts starts it so from the installed tarball',
  "docs/testing.md: # remit-sandbox's url, credentials and merchant key":
    "the /testing controls exist only in the kit's sandbox, not in this file's npm start: packages/testing/src/controls.pack.test.ts runs the block against npx remit-sandbox",
};

let server: ServerProcess;
let port: string;
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
  port = new URL(server.base).port;
}, 120_000);
afterAll(async () => {
  await server?.stop();
  await db?.drop();
  rmSync(dataDir, { recursive: true, force: true });
});

it('every shell block of README.md and docs/*.md is run here (the walk, RUN) or listed with a reason (NOT_RUN)', () => {
  const walk = walkBlocks();
  const run = Object.entries(RUN).flatMap(([file, firsts]) => firsts.map((f) => `${file}: ${f}`));
  const blocks = shellBlocks().filter((b) => !(b.file === 'README.md' && walk.includes(b.text)));
  expect(walk).toHaveLength(8);
  expect(blocks.map((b) => b.key).sort()).toEqual([...run, ...Object.keys(NOT_RUN)].sort());
});

it('README walk: eight steps, each answer feeding the next; a second run works as well as the first', async () => {
  const blocks = walkBlocks();
  expect(blocks).toHaveLength(8);
  // What the reader can check at the end: the values the walk kept.
  // Step 5 pasted again, as after a lost answer: its Idempotency-Key gives the first charge back, not a second one.
  const replay = `FIRST_CHARGE=$TRANSACTION_ID\n${blocks[4]}\necho "REPLAY $FIRST_CHARGE $TRANSACTION_ID"\n`;
  const script = `${blocks.join('\n')}\n${replay}echo "WALK $CLIENT_ID $MERCHANT_KEY $PUBLIC_KEY $MERCHANT_ID $CUSTOMER_ID $TRANSACTION_ID $PAY_LINK"\n`;
  for (const pass of [1, 2]) {
    const { stdout, stderr } = await bash(script, port);
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

describe("the docs pages' curl blocks, continuing the walk", () => {
  const page = async (file: string, after = '') => {
    const blocks = RUN[file]!.map((first) =>
      Object.entries(FILL).reduce(
        (text, [placeholder, value]) => text.replaceAll(placeholder, value),
        shellBlocks().find((b) => b.key === `${file}: ${first}`)!.text,
      ),
    );
    return await runBlocks(walkBlocks().join('\n'), blocks, port, after);
  };

  it('docs/embedding.md: the widget read, its origins and button text set, then its appearance; other fields kept', async () => {
    const {
      blocks: [origins, appearance],
    } = await page('docs/embedding.md');
    expect(origins!.statuses).toEqual([
      '200 GET /api/v1/widgets',
      expect.stringMatching(/^200 PUT \/api\/v1\/widgets\/wdg_/),
    ]);
    expect(JSON.parse(origins!.stdout)).toMatchObject({
      result: true,
      data: {
        id: expect.stringMatching(/^wdg_/),
        allowed_origins: ['https://shop.example.com'],
        button_text: 'Pay now',
        theme: { primary_color: '#0b5fff' },
        appearance: { theme: 'default', variables: {} },
      },
    });
    expect(appearance!.statuses).toEqual([expect.stringMatching(/^200 PUT \/api\/v1\/widgets\/wdg_/)]);
    expect(JSON.parse(appearance!.stdout)).toMatchObject({
      result: true,
      data: {
        allowed_origins: ['https://shop.example.com'],
        appearance: {
          theme: 'flat',
          variables: { colorPrimary: '#7c3aed', fontFamily: 'Georgia, serif', borderRadius: '4px' },
        },
      },
    });
    for (const b of [origins!, appearance!]) expect(b.stderr).toBe('');
  });

  it('docs/webhooks.md: a URL registered and its whsec_ secret kept in SIGNING_SECRET, then the failed deliveries listed', async () => {
    const {
      blocks: [register, log],
      after,
    } = await page('docs/webhooks.md', 'echo "$SIGNING_SECRET"');
    expect(register!.statuses).toEqual(['200 POST /api/v1/client/update-webhooks-url']);
    expect(after).toMatch(/^whsec_\S+$/);
    expect(log!.statuses).toEqual(['200 GET /api/v1/client/webhook-deliveries']);
    expect(JSON.parse(log!.stdout)).toEqual({
      status: true,
      message: expect.any(String),
      data: { deliveries: [], page: 0, limit: 20, totalCount: 0, totalPage: 0 },
    });
    for (const b of [register!, log!]) expect(b.stderr).toBe('');
  });
});
