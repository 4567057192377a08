import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, it } from 'vitest';
import { loadConfig } from './config.js';
import { guessable, productionRefusals, startupCheck } from './production-checks.js';
import { send } from './testing/http.js';
import { freePort, scriptCommand, startProcess } from './testing/process.js';

/** A production server refuses to start, one line per reason, rather than run unable to serve. */
const root = fileURLToPath(new URL('../../../', import.meta.url));
const dataDir = mkdtempSync(join(tmpdir(), 'remit-prodcheck-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const production = {
  REMIT_ENV: 'production',
  REMIT_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
  REMIT_DATA_DIR: dataDir,
  DATABASE_URL: '',
  REMIT_PROCESSOR: '',
  SMTP_URL: '',
  TWILIO_ACCOUNT_SID: '',
  REMIT_WORKERS: 'off',
};

/** Runs the server to its exit: the code and what it wrote on stderr. */
async function startToExit(env: Record<string, string>): Promise<{ code: number | null; lines: string[] }> {
  const proc = spawn(process.execPath, scriptCommand('apps/server/src/main.ts'), {
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

/**
 * What the server prints before it exits 1: main.ts prints startupCheck's lines and exits when there
 * are any (the first test below runs the process to prove it), so the other cases ask it directly.
 */
function refusedStart(env: Record<string, string>): { code: number | null; lines: string[] } {
  const { lines } = startupCheck({ ...process.env, ...production, PORT: '8080', ...env });
  return { code: lines.length > 0 ? 1 : 0, lines };
}

it('the process itself: a refused start prints every reason on stderr, one line each, and exits 1', {
  timeout: 120_000,
}, async () => {
  const env = { PUBLIC_URL: 'http://localhost:8080', TWILIO_ACCOUNT_SID: 'AC123' };
  const r = await startToExit(env);
  expect(r.code).toBe(1);
  expect(r.lines).toEqual(refusedStart(env).lines);
  expect(r.lines.length).toBeGreaterThanOrEqual(4);
});

it.each([
  [
    'http://localhost:8080',
    [
      'PUBLIC_URL must be https in production (pay links and scripts are served from it), not http://localhost:8080',
      'PUBLIC_URL points at this machine (localhost): set the public address customers open pay links at',
    ],
  ],
  [
    'http://pay.example.com',
    ['PUBLIC_URL must be https in production (pay links and scripts are served from it), not http://pay.example.com'],
  ],
  [
    'https://127.0.0.1',
    ['PUBLIC_URL points at this machine (127.0.0.1): set the public address customers open pay links at'],
  ],
  [
    'https://[::1]:8443',
    ['PUBLIC_URL points at this machine ([::1]): set the public address customers open pay links at'],
  ],
])('PUBLIC_URL=%s: refused with one line per reason, exit 1', { timeout: 120_000 }, async (url, reasons) => {
  const r = await refusedStart({
    PUBLIC_URL: url,
    REMIT_ALLOW_NO_PROCESSOR: 'true',
    REMIT_ALLOW_NO_EMAIL: 'true',
    REMIT_ALLOW_NO_SMS: 'true',
  });
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

it('TWILIO_ACCOUNT_SID without its token: refused with one line naming both, beside the other refusals', {
  timeout: 120_000,
}, async () => {
  const r = await refusedStart({
    PUBLIC_URL: 'https://pay.example.com',
    TWILIO_ACCOUNT_SID: `AC${'a'.repeat(32)}`,
    TWILIO_AUTH_TOKEN: '',
    REMIT_ALLOW_NO_PROCESSOR: 'true',
    REMIT_ALLOW_NO_EMAIL: 'true',
  });
  expect(r.code).toBe(1);
  expect(r.lines).toEqual([
    'remit: configuration: TWILIO_ACCOUNT_SID and TWILIO_AUTH_TOKEN must both be set to send SMS through Twilio',
  ]);
});

it('several settings wrong or missing: one start lists every reason, unreadable settings first, then refusals', {
  timeout: 120_000,
}, async () => {
  const r = await refusedStart({
    REMIT_ENCRYPTION_KEY: '',
    PUBLIC_URL: 'http://pay.example.com',
    REMIT_PROCESSOR: 'stripe',
    STRIPE_SECRET_KEY: '',
    REMIT_ALLOW_PRIVATE_WEBHOOKS: 'true',
    REMIT_WEBHOOK_PORTS: '8443,abc',
    TWILIO_ACCOUNT_SID: `AC${'a'.repeat(32)}`,
    TWILIO_AUTH_TOKEN: '',
    REMIT_TRUST_PROXY: 'true',
  });
  expect(r.code).toBe(1);
  expect(r.lines).toEqual([
    'remit: configuration: REMIT_ENCRYPTION_KEY is required in production',
    'remit: configuration: REMIT_PROCESSOR=stripe needs STRIPE_SECRET_KEY, a Stripe secret key (sk_live_… or sk_test_…)',
    'remit: configuration: REMIT_PROCESSOR=stripe in production needs STRIPE_WEBHOOK_SECRET (whsec_…): ACH results and approvals arrive as Stripe events',
    'remit: configuration: REMIT_PROCESSOR=stripe in production needs STRIPE_PUBLISHABLE_KEY (pk_live_…): card details are entered in Stripe.js on the pay page',
    'remit: configuration: REMIT_ALLOW_PRIVATE_WEBHOOKS applies to the sandbox only: production webhooks reach public hosts alone',
    'remit: configuration: REMIT_WEBHOOK_PORTS must be port numbers separated by commas (like 8443,9443), not 8443,abc',
    'remit: configuration: TWILIO_ACCOUNT_SID and TWILIO_AUTH_TOKEN must both be set to send SMS through Twilio',
    'remit: refusing to start in production: PUBLIC_URL must be https in production (pay links and scripts are served from it), not http://pay.example.com',
    'remit: refusing to start in production: SMTP_URL is not set: payment requests, card requests and receipts by email could not be sent; set SMTP_URL, or REMIT_ALLOW_NO_EMAIL=true to run without email (the API then answers that no email was sent)',
    "remit: refusing to start in production: REMIT_TRUST_PROXY=true believes X-Forwarded-For from anyone, so any client picks the address the per-address limits count; set the proxy's addresses or CIDRs, comma-separated (like REMIT_TRUST_PROXY=10.0.0.2 or 10.0.0.0/24)",
  ]);
});

it('with a public https address, SMTP_URL, Twilio and the explicit no-processor trial, it starts', {
  timeout: 120_000,
}, async () => {
  const server = await startProcess('apps/server/src/main.ts', {
    ...production,
    PUBLIC_URL: 'https://pay.example.com',
    SMTP_URL: 'smtp://127.0.0.1:2525',
    TWILIO_ACCOUNT_SID: `AC${'a'.repeat(32)}`,
    TWILIO_AUTH_TOKEN: randomBytes(16).toString('hex'),
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

/** Everything else in order, so that only the setting under test is refused. */
const otherwiseReady = {
  PUBLIC_URL: 'https://pay.example.com',
  REMIT_ALLOW_NO_PROCESSOR: 'true',
  REMIT_ALLOW_NO_EMAIL: 'true',
  REMIT_ALLOW_NO_SMS: 'true',
};
const refusal = (line: string) => `remit: refusing to start in production: ${line}`;
const thisMachine = (host: string) =>
  `PUBLIC_URL points at this machine (${host}): set the public address customers open pay links at`;
const notPublic = (host: string) =>
  `PUBLIC_URL is not a public address (${host} is private, link-local, unspecified or otherwise special-use): set the public address customers open pay links at`;

it.each([
  ['https://10.0.0.5', notPublic('10.0.0.5')],
  ['https://[::ffff:127.0.0.1]', thisMachine('[::ffff:7f00:1]')],
  ['https://localhost.', thisMachine('localhost.')],
  ['https://127.1', thisMachine('127.0.0.1')],
  ['https://[fe80::1]', notPublic('[fe80::1]')],
])('PUBLIC_URL=%s: not public, refused at start with one line', { timeout: 120_000 }, async (url, line) => {
  const r = await refusedStart({ ...otherwiseReady, PUBLIC_URL: url });
  expect(r.code).toBe(1);
  expect(r.lines).toEqual([refusal(line)]);
});

it('every other spelling of a non-public host is read as the address it is', () => {
  const refusals = (url: string) =>
    productionRefusals(loadConfig({ ...production, ...otherwiseReady, PUBLIC_URL: url }), { ...otherwiseReady });
  const cases: Array<[string, string]> = [
    ['https://0.0.0.0', notPublic('0.0.0.0')],
    ['https://0', notPublic('0.0.0.0')],
    ['https://[::]', notPublic('[::]')],
    ['https://[::127.0.0.1]', notPublic('[::7f00:1]')],
    ['https://[fd12:3456::1]', notPublic('[fd12:3456::1]')],
    ['https://[fc00::1]', notPublic('[fc00::1]')],
    ['https://169.254.169.254', notPublic('169.254.169.254')],
    ['https://100.64.0.1', notPublic('100.64.0.1')],
    ['https://192.168.1.10.', notPublic('192.168.1.10')],
    ['https://0x7f.1', thisMachine('127.0.0.1')],
    ['https://2130706433', thisMachine('127.0.0.1')],
    ['https://0177.0.0.1', thisMachine('127.0.0.1')],
    ['https://[::ffff:10.0.0.5]', notPublic('[::ffff:a00:5]')],
    ['https://LOCALHOST', thisMachine('localhost')],
    ['https://shop.localhost', thisMachine('shop.localhost')],
    ['https://pay.local', notPublic('pay.local')],
  ];
  for (const [url, line] of cases) expect([url, refusals(url)]).toEqual([url, [line]]);
  for (const url of [
    'https://pay.example.com',
    'https://8.8.8.8',
    'https://[2606:4700::1111]',
    'https://pay.example.com.',
  ]) {
    expect([url, refusals(url)]).toEqual([url, []]);
  }
});

it('test-mode Stripe keys, Stripe in clear http, guessable secrets, trust in any proxy and service ports: each refused with one line', {
  timeout: 120_000,
}, async () => {
  const r = await refusedStart({
    ...otherwiseReady,
    REMIT_PROCESSOR: 'stripe',
    STRIPE_SECRET_KEY: `sk_test_${'4eC39HqLyjWDarjtT1zdp7dc'}`,
    STRIPE_PUBLISHABLE_KEY: 'pk_test_TYooMQauvdEDq54NiTphI7jx',
    STRIPE_WEBHOOK_SECRET: 'x',
    REMIT_STRIPE_API_URL: 'http://10.0.0.9:12111',
    REMIT_STRIPE_JS_URL: 'http://js.example.com/v3/',
    REMIT_METRICS_TOKEN: 'x',
    REMIT_TRUST_PROXY: 'true',
    REMIT_WEBHOOK_PORTS: '8443,22,25,6379,5432,3306,11211',
  });
  expect(r.code).toBe(1);
  expect(r.lines).toEqual(
    [
      'STRIPE_SECRET_KEY is a test-mode key (sk_test_…): test cards would "pay" on this live server; set the live secret key (sk_live_…, or a restricted rk_live_…)',
      'STRIPE_PUBLISHABLE_KEY is a test-mode key (pk_test_…): card entry would run in test mode; set the live publishable key (pk_live_…)',
      "REMIT_STRIPE_API_URL is clear http to 10.0.0.9: the secret key would travel unencrypted; use https (or leave it unset for Stripe's own)",
      "REMIT_STRIPE_JS_URL is clear http to js.example.com: the card entry script would travel unencrypted; use https (or leave it unset for Stripe's own)",
      'REMIT_METRICS_TOKEN is too short or too repetitive to keep /metrics private: set 32 or more random characters (for example the output of openssl rand -hex 32), or unset it to turn /metrics off',
      'STRIPE_WEBHOOK_SECRET is not a Stripe signing secret (whsec_ and at least 24 more random characters): a guessable secret lets anyone forge Stripe events; set the signing secret of this endpoint from the Stripe dashboard (Developers, Webhooks)',
      "REMIT_TRUST_PROXY=true believes X-Forwarded-For from anyone, so any client picks the address the per-address limits count; set the proxy's addresses or CIDRs, comma-separated (like REMIT_TRUST_PROXY=10.0.0.2 or 10.0.0.0/24)",
      "REMIT_WEBHOOK_PORTS opens well-known service ports to clients' webhooks: 22 (SSH), 25 (SMTP), 6379 (Redis), 5432 (PostgreSQL), 3306 (MySQL), 11211 (memcached); a webhook could reach those services inside your network; list only the ports your clients' receivers listen on (like 8443)",
    ].map(refusal),
  );
});

it('a restricted test key, a long token of few characters, a short whsec_ and a system port: refused too', {
  timeout: 120_000,
}, async () => {
  const r = await refusedStart({
    ...otherwiseReady,
    REMIT_PROCESSOR: 'stripe',
    STRIPE_SECRET_KEY: 'rk_test_51Hx0000000000000000000000',
    STRIPE_PUBLISHABLE_KEY: 'pk_live_51Hx9Kq2eZvKYlo2C0aBcDeFgHiJkLmNoP',
    STRIPE_WEBHOOK_SECRET: 'whsec_abc',
    REMIT_METRICS_TOKEN: 'abab'.repeat(16),
    REMIT_WEBHOOK_PORTS: '444',
  });
  expect(r.code).toBe(1);
  expect(r.lines.map((l) => l.match(/^remit: refusing to start in production: (\w+) /)?.[1])).toEqual([
    'STRIPE_SECRET_KEY',
    'REMIT_METRICS_TOKEN',
    'STRIPE_WEBHOOK_SECRET',
    'REMIT_WEBHOOK_PORTS',
  ]);
  expect(r.lines[0]).toContain('(rk_test_…)');
  expect(r.lines[3]).toContain(': 444 (a system port);');
});

it('production with live Stripe keys, Stripe on this machine, random secrets, named proxies (a CDN’s public range on purpose) and ports of its own: it starts', {
  timeout: 120_000,
}, async () => {
  const token = 'f3a9c1e07b5d2468ace13579bdf02468';
  const server = await startProcess('apps/server/src/main.ts', {
    ...production,
    PUBLIC_URL: 'https://pay.example.com',
    SMTP_URL: 'smtp://127.0.0.1:2525',
    TWILIO_ACCOUNT_SID: `AC${'a'.repeat(32)}`,
    TWILIO_AUTH_TOKEN: randomBytes(16).toString('hex'),
    TWILIO_FROM: '+15005550006',
    REMIT_PROCESSOR: 'stripe',
    STRIPE_SECRET_KEY: 'sk_live_51Hx9Kq2eZvKYlo2C0aBcDeFgHiJkLmNoP',
    STRIPE_PUBLISHABLE_KEY: 'pk_live_51Hx9Kq2eZvKYlo2CqRsTuVwXyZ',
    STRIPE_WEBHOOK_SECRET: 'whsec_8Qm2cV7pXr4sTn1yWb6zHj3kLd9fGa5e',
    // Clear http to this machine is allowed (a local relay or stripe-mock); the key never leaves it.
    REMIT_STRIPE_API_URL: 'http://127.0.0.1:12111',
    REMIT_STRIPE_JS_URL: 'https://js.stripe.com/v3/',
    REMIT_METRICS_TOKEN: token,
    REMIT_TRUST_PROXY: '10.0.0.2, 10.0.1.0/24, 173.245.48.0/20, 2400:cb00::/32',
    REMIT_TRUST_PUBLIC_PROXY: 'true',
    REMIT_WEBHOOK_PORTS: '8443,9443',
  });
  try {
    expect((await send({ method: 'GET', url: `${server.base}/readyz` })).status).toBe(200);
    expect(
      (await send({ method: 'GET', url: `${server.base}/metrics`, headers: { authorization: `Bearer ${token}` } }))
        .status,
    ).toBe(200);
  } finally {
    await server.stop();
    expect(server.proc.exitCode).toBe(0);
  }
});

const configuration = (line: string) => `remit: configuration: ${line}`;
const tooWide = (ranges: string) =>
  `REMIT_TRUST_PROXY names ranges wider than a /8 of IPv4 or a /32 of IPv6 (${ranges}): any client in them could pick the address the per-address limits count; name the proxies' own addresses or subnet (like 10.0.0.2 or 10.0.0.0/24)`;
const unreadable = (value: string) =>
  `REMIT_TRUST_PROXY must be true, false, or the proxies' addresses or CIDRs, comma-separated (like 10.0.0.2 or 10.0.0.0/24), not ${value}`;

it.each([
  ['0.0.0.0/1,128.0.0.0/1,::/1,8000::/1', tooWide('0.0.0.0/1, 128.0.0.0/1, ::/1, 8000::/1')],
  ['0.0.0.0/0', tooWide('0.0.0.0/0')],
  ['::/0', tooWide('::/0')],
  ['::ffff:0:0/96', tooWide('::ffff:0:0/96')],
  ['TRUE', unreadable('TRUE')],
  ['10.0.0.2, proxy.internal, 10.0.0.0/33', unreadable('proxy.internal, 10.0.0.0/33')],
])(
  'REMIT_TRUST_PROXY=%s: one configuration line, in production and in sandbox, no stack',
  {
    timeout: 120_000,
  },
  async (value, line) => {
    for (const env of ['production', 'sandbox']) {
      const r = await refusedStart({ ...otherwiseReady, REMIT_ENV: env, REMIT_TRUST_PROXY: value });
      expect([env, r.code, r.lines]).toEqual([env, 1, [configuration(line)]]);
    }
  },
);

it('REMIT_TRUST_PROXY naming public addresses: refused in production without REMIT_TRUST_PUBLIC_PROXY=true', {
  timeout: 120_000,
}, async () => {
  const r = await refusedStart({
    ...otherwiseReady,
    REMIT_TRUST_PROXY: '10.0.0.2, 198.41.128.0/17, fd00::1, 2606:4700::/32',
    REMIT_TRUST_PUBLIC_PROXY: 'yes',
  });
  expect(r.code).toBe(1);
  expect(r.lines).toEqual([
    refusal(
      "REMIT_TRUST_PROXY names public addresses (198.41.128.0/17, 2606:4700::/32): whoever sends from them picks the address the per-address limits count; name your proxies' private addresses, or, if a proxy or CDN of yours really sends from these, set REMIT_TRUST_PUBLIC_PROXY=true",
    ),
  ]);
});

it('guessable secrets are refused in production by their content, each naming its setting', {
  timeout: 120_000,
}, async () => {
  const r = await refusedStart({
    ...otherwiseReady,
    REMIT_ENCRYPTION_KEY: 'ab12'.repeat(16),
    REMIT_METRICS_TOKEN: 'f3a9c1e0'.repeat(4),
    STRIPE_WEBHOOK_SECRET: `whsec_${'a'.repeat(24)}`,
    TWILIO_ACCOUNT_SID: `AC${'a'.repeat(32)}`,
    TWILIO_AUTH_TOKEN: `${'0'.repeat(16)}${randomBytes(8).toString('hex')}`,
    TWILIO_FROM: '+15005550006',
  });
  expect(r.code).toBe(1);
  expect(r.lines.map((l) => l.match(/^remit: refusing to start in production: (\w+) is /)?.[1])).toEqual([
    'REMIT_ENCRYPTION_KEY',
    'REMIT_METRICS_TOKEN',
    'STRIPE_WEBHOOK_SECRET',
    'TWILIO_AUTH_TOKEN',
  ]);
  const other = await refusedStart({ ...otherwiseReady, STRIPE_WEBHOOK_SECRET: `whsec_${'ab12'.repeat(8)}` });
  expect(other.lines).toEqual([
    expect.stringMatching(
      /^remit: refusing to start in production: STRIPE_WEBHOOK_SECRET is not a Stripe signing secret/,
    ),
  ]);
});

it('random secrets of the asked lengths pass the content rule: 2,000 of each kind, none refused', () => {
  for (let i = 0; i < 2000; i++) {
    expect(guessable(randomBytes(32), 32)).toBe(false);
    expect(guessable(randomBytes(16).toString('hex'), 32)).toBe(false);
    expect(guessable(randomBytes(18).toString('base64'), 24)).toBe(false);
  }
  for (const weak of ['a'.repeat(32), 'ab12'.repeat(8), 'f3a9c1e0'.repeat(4), `abcdefgh${'x'.repeat(24)}`, 'Zq9'])
    expect([weak, guessable(weak, 24)]).toEqual([weak, true]);
});
