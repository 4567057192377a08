import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { send } from '../testing/http.js';
import { createTestDatabase, testDbKind } from '../testing/harness.js';
import { startProcess } from '../testing/process.js';
import { startSmtpSink } from '../testing/smtp-sink.js';
import { startStripeEmulator } from '../testing/stripe-emulator.js';
import { startTwilioEmulator } from '../testing/twilio-emulator.js';

/** docs/deployment.md's example environment file, as an operator copies it: every `KEY=value` line of the block. */
function exampleEnv(): Record<string, string> {
  const doc = readFileSync(new URL('../../../../docs/deployment.md', import.meta.url), 'utf8');
  const block = /```sh\n# \/etc\/remit\/remit\.env[^\n]*\n([\s\S]*?)```/.exec(doc);
  if (!block) throw new Error('docs/deployment.md has no /etc/remit/remit.env block');
  const env: Record<string, string> = {};
  for (const line of block[1]!.split('\n')) {
    if (line.trim() === '' || line.startsWith('#')) continue;
    const m = /^([A-Z][A-Z0-9_]*)=(.*)$/.exec(line);
    if (!m) throw new Error(`not a KEY=value line: ${line}`);
    env[m[1]!] = m[2]!;
  }
  return env;
}

const dataDir = mkdtempSync(join(tmpdir(), 'remit-deploy-env-'));
let db: Awaited<ReturnType<typeof createTestDatabase>> | null = null;
afterAll(async () => {
  await db?.drop();
  rmSync(dataDir, { recursive: true, force: true });
});

it('the example environment file of docs/deployment.md starts a production server as written, its placeholders filled in', {
  timeout: 180_000,
}, async () => {
  const example = exampleEnv();
  const [stripe, twilio, smtp] = await Promise.all([
    startStripeEmulator({ live: true }),
    startTwilioEmulator(),
    startSmtpSink(),
  ]);
  db = testDbKind === 'postgres' ? await createTestDatabase('remit_deploy') : null;
  // What the operator fills in: each `…` of the example, and nothing else.
  const filled: Record<string, string> = {
    DATABASE_URL: db?.url ?? '',
    REMIT_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
    REMIT_METRICS_TOKEN: randomBytes(32).toString('hex'),
    STRIPE_SECRET_KEY: stripe.secretKey,
    STRIPE_PUBLISHABLE_KEY: stripe.publishableKey,
    STRIPE_WEBHOOK_SECRET: stripe.webhookSecret,
    TWILIO_ACCOUNT_SID: twilio.accountSid,
    TWILIO_AUTH_TOKEN: twilio.authToken,
  };
  expect(
    Object.keys(example)
      .filter((k) => example[k]!.includes('…'))
      .sort(),
  ).toEqual(Object.keys(filled).sort());
  // Where this machine's stand-ins are: the services the example names, and a port and folder of the test's own.
  const here = {
    SMTP_URL: smtp.url,
    REMIT_DATA_DIR: dataDir,
    REMIT_STRIPE_API_URL: stripe.url,
    REMIT_STRIPE_JS_URL: stripe.jsUrl,
    REMIT_TWILIO_API_URL: twilio.url,
  };
  const server = await startProcess(
    'apps/server/src/main.ts',
    { ...example, ...filled, ...here, LOG_LEVEL: 'info' },
    { readyPath: '/readyz' },
  );
  try {
    const health = await send({ method: 'GET', url: `${server.base}/healthz` });
    expect([health.status, health.body]).toEqual([200, { status: 'ok' }]);
    const started = server
      .output()
      .split('\n')
      .find((l) => l.includes('listening on'));
    expect(JSON.parse(started!)).toMatchObject({
      env: 'production',
      processor: 'stripe',
      publicUrl: 'https://pay.example.com',
    });
    expect(server.output()).not.toContain('refusing to start');
    // Idle, it drains at once (5–280 ms measured). A SIGTERM during a background loop's first pass,
    // as here under load, once slept out that loop's whole poll: SIGKILLed by stop() after 10 s.
    const stopping = performance.now();
    await server.stop();
    const drainMs = performance.now() - stopping;
    expect([server.proc.signalCode, server.proc.exitCode], server.output()).toEqual([null, 0]);
    expect(server.output()).toMatch(/"msg":"shutdown: done in \d+ ms"/);
    expect(drainMs).toBeLessThan(2_000);
  } finally {
    await server.stop();
    await Promise.all([stripe.close(), twilio.close(), smtp.close()]);
  }
});
