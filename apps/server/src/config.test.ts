import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { coreOptions, defaultPublicUrl, loadConfig } from './config.js';

const key = 'a'.repeat(64);

describe('loadConfig', () => {
  it('REMIT_SETTLEMENT_CUTOFF reaches the core through its options (default midnight)', () => {
    expect(coreOptions(loadConfig({ REMIT_ENCRYPTION_KEY: key })).settlementCutoffMs).toBe(0);
    const c = loadConfig({ REMIT_ENCRYPTION_KEY: key, REMIT_SETTLEMENT_CUTOFF: '06:30' });
    expect(c.settlementCutoffMs).toBe(6.5 * 3_600_000);
    expect(coreOptions(c).settlementCutoffMs).toBe(6.5 * 3_600_000);
  });

  it('a malformed REMIT_SETTLEMENT_CUTOFF stops the start with its name', () => {
    expect(() => loadConfig({ REMIT_ENCRYPTION_KEY: key, REMIT_SETTLEMENT_CUTOFF: 'noon' })).toThrow(
      'REMIT_SETTLEMENT_CUTOFF must be HH or HH:MM (UTC), not noon',
    );
  });

  it('PUBLIC_URL defaults to the address the server listens on (links a browser on this machine opens), a wildcard to 127.0.0.1', () => {
    expect(loadConfig({ REMIT_ENCRYPTION_KEY: key }).publicUrl).toBe('http://127.0.0.1:8080');
    expect(loadConfig({ REMIT_ENCRYPTION_KEY: key, PORT: '18080', PUBLIC_URL: '' }).publicUrl).toBe(
      'http://127.0.0.1:18080',
    );
    expect(loadConfig({ REMIT_ENCRYPTION_KEY: key, HOST: '0.0.0.0' }).publicUrl).toBe('http://127.0.0.1:8080');
    expect(loadConfig({ REMIT_ENCRYPTION_KEY: key, HOST: 'localhost' }).publicUrl).toBe('http://localhost:8080');
    expect(defaultPublicUrl('::', 8080)).toBe('http://127.0.0.1:8080');
    expect(defaultPublicUrl('::1', 8080)).toBe('http://[::1]:8080');
    expect(loadConfig({ REMIT_ENCRYPTION_KEY: key, PUBLIC_URL: 'https://pay.example.com/' }).publicUrl).toBe(
      'https://pay.example.com',
    );
  });
});

describe('REMIT_ENCRYPTION_KEY_PREVIOUS', () => {
  const same =
    'REMIT_ENCRYPTION_KEY_PREVIOUS is the same key as REMIT_ENCRYPTION_KEY: give the new key as REMIT_ENCRYPTION_KEY';

  it('opens what the old key sealed; refused when it is the current key, in either spelling', () => {
    const old = 'b'.repeat(64);
    expect(loadConfig({ REMIT_ENCRYPTION_KEY: key, REMIT_ENCRYPTION_KEY_PREVIOUS: old }).previousEncryptionKey).toEqual(
      Buffer.from(old, 'hex'),
    );
    const base64 = Buffer.from(key, 'hex').toString('base64');
    expect(() => loadConfig({ REMIT_ENCRYPTION_KEY: key, REMIT_ENCRYPTION_KEY_PREVIOUS: base64 })).toThrow(same);
  });

  it('a sandbox without REMIT_ENCRYPTION_KEY: the key file it made counts as the current key', () => {
    const dir = mkdtempSync(join(tmpdir(), 'remit-config-'));
    try {
      const first = loadConfig({ REMIT_DATA_DIR: dir });
      const made = readFileSync(join(dir, 'encryption.key'), 'utf8').trim();
      expect(Buffer.from(made, 'base64')).toEqual(first.encryptionKey);
      expect(() => loadConfig({ REMIT_DATA_DIR: dir, REMIT_ENCRYPTION_KEY_PREVIOUS: made })).toThrow(same);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('rate limits', () => {
  it('the former per-client-id failure limit stops the start, naming what replaced it', () => {
    expect(() => loadConfig({ REMIT_ENCRYPTION_KEY: key, REMIT_RATE_LIMIT_AUTH_FAILURES_PER_CLIENT: '10/5m' })).toThrow(
      /^REMIT_RATE_LIMIT_AUTH_FAILURES_PER_CLIENT was replaced by REMIT_RATE_LIMIT_AUTH_FAILURES_PER_CLIENT_ADDRESS/,
    );
    const c = loadConfig({ REMIT_ENCRYPTION_KEY: key, REMIT_RATE_LIMIT_AUTH_FAILURES_PER_CLIENT_ADDRESS: '5/1m' });
    expect(c.rateLimits.authFailuresPerClientAddress).toEqual({
      name: 'auth_fail_client_address',
      limit: 5,
      windowMs: 60_000,
    });
  });
});

describe('webhook targets', () => {
  const load = (env: NodeJS.ProcessEnv) => loadConfig({ REMIT_ENCRYPTION_KEY: key, ...env });

  it('private webhooks are allowed by default only in a sandbox that listens on and is published at loopback', () => {
    expect(load({}).privateWebhooks).toBe(true);
    expect(load({ HOST: 'localhost', PUBLIC_URL: 'http://127.0.0.1:8080' }).privateWebhooks).toBe(true);
    expect(load({ HOST: '::1' }).privateWebhooks).toBe(true);
    for (const HOST of ['0.0.0.0', '::', '10.0.0.5', '192.168.1.20'])
      expect(load({ HOST }).privateWebhooks, HOST).toBe(false);
    // Behind a proxy that publishes it, a loopback listener is reachable from elsewhere too.
    expect(load({ PUBLIC_URL: 'https://sandbox.example.com' }).privateWebhooks).toBe(false);
    expect(load({ REMIT_ENV: 'production' }).privateWebhooks).toBe(false);
    // Loopback in other spellings is loopback; a private address is another machine.
    expect(load({ HOST: '127.1', PUBLIC_URL: 'http://[::ffff:127.0.0.1]:8080' }).privateWebhooks).toBe(true);
    expect(load({ PUBLIC_URL: 'http://localhost.:8080' }).privateWebhooks).toBe(true);
    expect(load({ PUBLIC_URL: 'http://10.0.0.5:8080' }).privateWebhooks).toBe(false);
  });

  it('REMIT_ALLOW_PRIVATE_WEBHOOKS decides in a sandbox, reaches the core, and is refused in production', () => {
    const c = load({ HOST: '0.0.0.0', REMIT_ALLOW_PRIVATE_WEBHOOKS: 'true' });
    expect(c.privateWebhooks).toBe(true);
    expect(coreOptions(c).privateWebhooks).toBe(true);
    expect(coreOptions(load({ HOST: '0.0.0.0' })).privateWebhooks).toBe(false);
    expect(load({ REMIT_ALLOW_PRIVATE_WEBHOOKS: 'false' }).privateWebhooks).toBe(false);
    expect(() => load({ REMIT_ALLOW_PRIVATE_WEBHOOKS: 'yes' })).toThrow(
      'REMIT_ALLOW_PRIVATE_WEBHOOKS must be true or false, not yes',
    );
    expect(() => load({ REMIT_ENV: 'production', REMIT_ALLOW_PRIVATE_WEBHOOKS: 'true' })).toThrow(
      /applies to the sandbox only/,
    );
  });

  it('REMIT_WEBHOOK_PORTS lists ports besides 443; anything else stops the start', () => {
    expect(load({}).webhookPorts).toEqual([]);
    const c = load({ REMIT_WEBHOOK_PORTS: '8443, 9443' });
    expect(coreOptions(c).webhookPorts).toEqual([8443, 9443]);
    for (const bad of ['8443;9443', '0', '70000', 'https', '84.43']) {
      expect(() => load({ REMIT_WEBHOOK_PORTS: bad }), bad).toThrow(
        /^REMIT_WEBHOOK_PORTS must be port numbers separated by commas/,
      );
    }
  });
});

describe('retention', () => {
  const base = { REMIT_ENCRYPTION_KEY: key };
  it('defaults: events and messages 30 days, sessions and challenges 7, CSP reports 90, purged every hour', () => {
    expect(loadConfig(base).retention).toEqual({
      eventsDays: 30,
      messagesDays: 30,
      sessionsDays: 7,
      cspReportsDays: 90,
      intervalMs: 3_600_000,
    });
  });

  it('each REMIT_RETENTION_* sets its days; off keeps forever', () => {
    const env = {
      ...base,
      REMIT_RETENTION_EVENTS_DAYS: '90',
      REMIT_RETENTION_MESSAGES_DAYS: 'off',
      REMIT_RETENTION_SESSIONS_DAYS: '1',
      REMIT_RETENTION_CSP_REPORTS_DAYS: '400',
      REMIT_RETENTION_PURGE_INTERVAL_MS: '600000',
    };
    expect(loadConfig(env).retention).toEqual({
      eventsDays: 90,
      messagesDays: null,
      sessionsDays: 1,
      cspReportsDays: 400,
      intervalMs: 600_000,
    });
  });

  it('anything else stops the start with the setting named', () => {
    for (const v of ['0', '1.5', '-3', 'never']) {
      expect(() => loadConfig({ ...base, REMIT_RETENTION_EVENTS_DAYS: v })).toThrow(
        `REMIT_RETENTION_EVENTS_DAYS must be a whole number of days (1 or more), or off to keep forever, not ${v}`,
      );
    }
    expect(() => loadConfig({ ...base, REMIT_RETENTION_PURGE_INTERVAL_MS: '0' })).toThrow(
      'REMIT_RETENTION_PURGE_INTERVAL_MS',
    );
  });
});

describe('REMIT_TRUST_PROXY', () => {
  const load = (v: string) => loadConfig({ REMIT_ENCRYPTION_KEY: key, REMIT_TRUST_PROXY: v }).trustProxy;
  it('names the proxies; a count of hops stops the start (Fastify would silently trust nobody with one)', () => {
    expect(load('')).toBe(false);
    expect(load('true')).toBe(true);
    expect(load('10.0.0.2, 10.0.1.0/24')).toEqual(['10.0.0.2', '10.0.1.0/24']);
    expect(() => load('1')).toThrow(
      "REMIT_TRUST_PROXY must name the proxies' addresses or CIDRs (like 10.0.0.2 or 10.0.0.0/24), not a count of hops (1)",
    );
  });
  it('hands Fastify each entry as the address or range it matches; a sandbox may trust public ranges', () => {
    expect(load('10.0.0.5/255.255.255.0, ::ffff:10.0.0.2, ::ffff:10.1.0.0/112, FD00::1:2/48')).toEqual([
      '10.0.0.0/24',
      '10.0.0.2',
      '10.1.0.0/16',
      'fd00::/48',
    ]);
    expect(load('8.8.8.0/24, 2606:4700::/32')).toEqual(['8.8.8.0/24', '2606:4700::/32']);
    expect(() => load('10.0.0.0/7')).toThrow(
      'REMIT_TRUST_PROXY names ranges wider than a /8 of IPv4 or a /32 of IPv6 (10.0.0.0/7)',
    );
    expect(() => load('fe80::1%eth0')).toThrow(/not fe80::1%eth0$/);
  });
});
