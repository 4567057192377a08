import { describe, expect, it } from 'vitest';
import { coreOptions, loadConfig } from './config.js';

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
});

describe('rate limits', () => {
  it('the former per-client-id failure limit stops the start, naming what replaced it', () => {
    expect(() => loadConfig({ REMIT_ENCRYPTION_KEY: key, REMIT_RATE_LIMIT_AUTH_FAILURES_PER_CLIENT: '10/5m' })).toThrow(
      /^REMIT_RATE_LIMIT_AUTH_FAILURES_PER_CLIENT was replaced by REMIT_RATE_LIMIT_AUTH_FAILURES_PER_CLIENT_ADDRESS/,
    );
    const c = loadConfig({ REMIT_ENCRYPTION_KEY: key, REMIT_RATE_LIMIT_AUTH_FAILURES_PER_CLIENT_ADDRESS: '5/1m' });
    expect(c.rateLimits.authFailuresPerClientAddress).toEqual({ name: 'auth_fail_client_address', limit: 5, windowMs: 60_000 });
  });
});
