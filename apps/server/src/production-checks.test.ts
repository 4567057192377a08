import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, it } from 'vitest';
import { send } from './testing/http.js';
import { freePort, startProcess } from './testing/process.js';

/** A production server refuses to start, one line per reason, rather than run unable to serve. */
const root = fileURLToPath(new URL('../../../', import.meta.url));
const dataDir = mkdtempSync(join(tmpdir(), 'remit-prodcheck-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const production = {
  REMIT_ENV: 'production',
  REMIT_ENCRYPTION_KEY: 'c'.repeat(64),
  REMIT_DATA_DIR: dataDir,
  DATABASE_URL: '',
  REMIT_PROCESSOR: '',
  SMTP_URL: '',
  TWILIO_ACCOUNT_SID: '',
  REMIT_WORKERS: 'off',
};

/** Runs the server to its exit: the code and what it wrote on stderr. */
async function refusedStart(env: Record<string, string>): Promise<{ code: number | null; lines: string[] }> {
  const proc = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: root,
    env: { ...process.env, ...production, PORT: String(await freePort()), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  proc.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const killer = setTimeout(() => proc.kill('SIGKILL'), 60_000);
  const code = await new Promise<number | null>((r) => proc.once('exit', r));
  clearTimeout(killer);
  return { code, lines: stderr.trim().split('\n') };
}

it.each([
  ['http://localhost:8080', ['PUBLIC_URL must be https in production (pay links and scripts are served from it), not http://localhost:8080', 'PUBLIC_URL points at this machine (localhost): set the public address customers open pay links at']],
  ['http://pay.example.com', ['PUBLIC_URL must be https in production (pay links and scripts are served from it), not http://pay.example.com']],
  ['https://127.0.0.1', ['PUBLIC_URL points at this machine (127.0.0.1): set the public address customers open pay links at']],
  ['https://[::1]:8443', ['PUBLIC_URL points at this machine ([::1]): set the public address customers open pay links at']],
])('PUBLIC_URL=%s: refused with one line per reason, exit 1', { timeout: 120_000 }, async (url, reasons) => {
  const r = await refusedStart({ PUBLIC_URL: url, REMIT_ALLOW_NO_PROCESSOR: 'true', REMIT_ALLOW_NO_EMAIL: 'true', REMIT_ALLOW_NO_SMS: 'true' });
  expect(r.code).toBe(1);
  expect(r.lines).toEqual(reasons.map((l) => `remit: refusing to start in production: ${l}`));
});

it('no processor, no SMTP_URL and no Twilio: refused, each named with its way out', { timeout: 120_000 }, async () => {
  const r = await refusedStart({ PUBLIC_URL: 'https://pay.example.com' });
  expect(r.code).toBe(1);
  expect(r.lines).toEqual([
    'remit: refusing to start in production: no payment processor is configured (REMIT_PROCESSOR): every payment would be refused; configure one, or set REMIT_ALLOW_NO_PROCESSOR=true for a trial without payments',
    'remit: refusing to start in production: SMTP_URL is not set: payment requests, card requests and receipts by email could not be sent; set SMTP_URL, or REMIT_ALLOW_NO_EMAIL=true to run without email (the API then answers that no email was sent)',
    "remit: refusing to start in production: TWILIO_ACCOUNT_SID is not set: payment requests and card requests by SMS and the widget's SMS payment requests could not be sent; configure Twilio (TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN, TWILIO_FROM), or REMIT_ALLOW_NO_SMS=true to run without SMS (the API then answers that no SMS was sent)",
  ]);
});

it('TWILIO_ACCOUNT_SID without its token: refused with one line naming both', { timeout: 120_000 }, async () => {
  const r = await refusedStart({ PUBLIC_URL: 'https://pay.example.com', TWILIO_ACCOUNT_SID: `AC${'a'.repeat(32)}`, TWILIO_AUTH_TOKEN: '' });
  expect(r.code).toBe(1);
  expect(r.lines).toEqual(['remit: configuration: TWILIO_ACCOUNT_SID and TWILIO_AUTH_TOKEN must both be set to send SMS through Twilio']);
});

it('with a public https address, SMTP_URL, Twilio and the explicit no-processor trial, it starts', { timeout: 120_000 }, async () => {
  const server = await startProcess('apps/server/src/main.ts', {
    ...production,
    PUBLIC_URL: 'https://pay.example.com',
    SMTP_URL: 'smtp://127.0.0.1:2525',
    TWILIO_ACCOUNT_SID: `AC${'a'.repeat(32)}`,
    TWILIO_AUTH_TOKEN: 'token',
    TWILIO_FROM: '+15005550006',
    REMIT_ALLOW_NO_PROCESSOR: 'true',
  });
  try {
    expect((await send({ method: 'GET', url: `${server.base}/readyz` })).status).toBe(200);
  } finally {
    await server.stop();
    expect(server.proc.exitCode).toBe(0);
  }
});
