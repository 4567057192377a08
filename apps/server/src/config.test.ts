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
    expect(loadConfig({ REMIT_ENCRYPTION_KEY: key, PORT: '18080', PUBLIC_URL: '' }).publicUrl).toBe('http://127.0.0.1:18080');
    expect(loadConfig({ REMIT_ENCRYPTION_KEY: key, HOST: '0.0.0.0' }).publicUrl).toBe('http://127.0.0.1:8080');
    expect(loadConfig({ REMIT_ENCRYPTION_KEY: key, HOST: 'localhost' }).publicUrl).toBe('http://localhost:8080');
    expect(defaultPublicUrl('::', 8080)).toBe('http://127.0.0.1:8080');
    expect(defaultPublicUrl('::1', 8080)).toBe('http://[::1]:8080');
    expect(loadConfig({ REMIT_ENCRYPTION_KEY: key, PUBLIC_URL: 'https://pay.example.com/' }).publicUrl).toBe('https://pay.example.com');
  });
});
