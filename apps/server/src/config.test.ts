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
