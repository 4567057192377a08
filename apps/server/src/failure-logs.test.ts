import { rmSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { afterAll, expect, it } from 'vitest';
import { openCore, smtpTransport, startWorkers } from '@remit/core';
import { buildApp, loggerOptions } from './app.js';
import { runCli } from './cli.js';
import { coreOptions, loadConfig } from './config.js';
import { validOnboarding } from './testing/fixtures.js';
import { createTestDatabase, startTestServer, testDbKind } from './testing/harness.js';
import { basicAuth, send } from './testing/http.js';
import { logCapture, secretsIn } from './testing/log-scan.js';
import { freePort } from './testing/process.js';
import { emulatedStripe, startStripeEmulator } from './testing/stripe-emulator.js';
import { captureIo } from './testing/cli.js';
import { seededDataDir } from './testing/data-dir.js';

/** Failures name their cause in the log: the processor's, and a message transport's; the CLI lists what failed. */
const cleanups: Array<() => Promise<unknown>> = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

const WARN = 40;

it('Stripe unreachable: 502, and one warn line with the request id, the provider and the cause; the advice follows the Idempotency-Key', async () => {
  const emu = await startStripeEmulator();
  const log = logCapture();
  const s = await startTestServer({ processor: emulatedStripe(emu), logStream: log.stream });
  cleanups.push(
    () => emu.close(),
    () => s.close(),
  );
  const auth = await s.credentials();

  emu.dropAnswers(/^\/v1\/accounts$/, 3);
  const res = await s.http({ method: 'POST', path: '/api/v1/onboarding', auth, json: validOnboarding() });
  expect(res.status).toBe(502);
  expect(res.body).toMatchObject({
    code: 'processor_error',
    message:
      'The payment processor could not complete the request; nothing was changed. Retry the request (with an Idempotency-Key header, a retry is never done twice).',
  });
  const lines = log.entries().filter((e) => e.level === WARN && e.reqId === res.body.request_id);
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatchObject({ provider: 'stripe', route: '/api/v1/onboarding' });
  expect(lines[0]!.cause).toMatch(/^Stripe: StripeConnectionError/);
  expect(lines[0]!.msg).toBe(`processor call failed (stripe): ${lines[0]!.cause}`);

  emu.dropAnswers(/^\/v1\/accounts$/, 3);
  const keyed = await s.http({
    method: 'POST',
    path: '/api/v1/onboarding',
    auth,
    headers: { 'idempotency-key': 'onb-1' },
    json: validOnboarding(),
  });
  expect(keyed.status).toBe(502);
  expect(keyed.body.message).toBe(
    'The payment processor could not complete the request; nothing was changed. Retry with the same Idempotency-Key.',
  );
  expect(secretsIn(log.text(), [emu.secretKey])).toEqual([]);
}, 120_000);

it('an SMTP server that does not resolve: a warn line naming smtp and ENOTFOUND; `messages failed` and `webhooks failed` list them, in production too', async () => {
  const dataDir = await seededDataDir('remit-failures');
  const env: Record<string, string> = { REMIT_DATA_DIR: dataDir, REMIT_ENCRYPTION_KEY: 'd'.repeat(64) };
  const db = testDbKind === 'postgres' ? await createTestDatabase('remit_failures') : null;
  if (db) env.DATABASE_URL = db.url;
  cleanups.push(async () => {
    await db?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const log = logCapture();
  const core = await openCore({ ...coreOptions(loadConfig(env)), publicUrl: 'http://127.0.0.1' });
  const app = await buildApp(core, { logger: loggerOptions('info', log.stream) });
  const base = await app.listen({ port: 0, host: '127.0.0.1' });
  const workers = startWorkers(core.ctx, {
    logger: app.log,
    messages: { pollMs: 10, email: smtpTransport('smtp://mail.remit-test.invalid:587') },
    webhooks: { pollMs: 10 },
  });
  let messageId = '';
  try {
    const creds = (await send({ method: 'POST', url: `${base}/portal/api/credentials` })).body as {
      client_id: string;
      secret_key: string;
    };
    const authorization = basicAuth(creds.client_id, creds.secret_key);
    const closed = `http://127.0.0.1:${await freePort()}/hooks`;
    await send({
      method: 'POST',
      url: `${base}/api/v1/client/update-webhooks-url`,
      headers: { authorization },
      json: { webhook_url: closed },
    });
    const onboarded = (
      await send({
        method: 'POST',
        url: `${base}/api/v1/onboarding`,
        headers: { authorization },
        json: validOnboarding(),
      })
    ).body as { data: { merchant_key: string } };
    const req = await send({
      method: 'POST',
      url: `${base}/api/v1/requests`,
      headers: { authorization },
      json: {
        merchant_key: onboarded.data.merchant_key,
        amount: '12.30',
        order_id: 'smtp-fail-1',
        email: 'jane@example.com',
        name: 'Jane Doe',
      },
    });
    expect(req.status).toBe(200);
    const until = Date.now() + 30_000;
    const failure = () => log.entries().find((e) => e.level === WARN && e.provider === 'smtp');
    while (!failure() && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
    const line = failure()!;
    expect(line).toMatchObject({ channel: 'email', attempts: 1, status: 'retrying' });
    expect(line.cause).toMatch(/ENOTFOUND/);
    expect(line.msg).toBe(`email send failed (smtp), will retry: ${line.cause}`);
    expect(JSON.stringify(line)).not.toContain('jane@example.com');
    messageId = String(line.message_id);
    // The webhook to a closed port has failed once too.
    while (Date.now() < until) {
      const done = (await core.ctx.db.execute(
        sql`select status from webhook_deliveries where status <> 'pending'`,
      )) as unknown as { rows: unknown[] };
      if (done.rows.length > 0) break;
      await new Promise((res) => setTimeout(res, 50));
    }
  } finally {
    await workers.stop();
    await app.close();
    await core.close();
  }

  // The operator's CLI in production on the same database (no sandbox inbox there).
  const production = { ...env, REMIT_ENV: 'production', PUBLIC_URL: 'https://pay.example.com' };
  const io = captureIo();
  expect(await runCli(['messages', 'failed', '--json'], production, io)).toBe(0);
  expect(JSON.parse(io.stdout)).toEqual([
    expect.objectContaining({
      message_id: messageId,
      channel: 'email',
      recipient: 'jane@example.com',
      status: 'retrying',
      attempts: 1,
      last_error: expect.stringMatching(/ENOTFOUND/),
    }),
  ]);
  io.stdout = '';
  expect(await runCli(['webhooks', 'failed'], production, io)).toBe(0);
  expect(io.stdout).toMatch(
    /^dlv_\S+ {2}retrying {2}merchant\.onboarding {2}\S+Z {2}tries 1 {2}cl_\S+ {2}http:\/\/127\.0\.0\.1:\d+\/hooks {2}.*ECONNREFUSED/m,
  );
  expect(io.stderr).toMatch(/webhook deliver(y|ies) failed, disabled or retrying\.\n$/);
}, 120_000);
