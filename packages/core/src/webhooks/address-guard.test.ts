import { describe, expect, it } from 'vitest';
import { canonicalHost, guardedLookup, isBlockedAddress, isBlockedHostName, isLoopbackHost } from './address-guard.js';
import { retryDelayMs } from './deliveries.js';

describe('address guard', () => {
  it.each([
    '127.0.0.1',
    '127.1.2.3',
    '10.0.0.1',
    '172.16.5.4',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '100.100.100.200',
    '0.0.0.0',
    '224.0.0.1',
    '255.255.255.255',
    '::1',
    '::',
    'fe80::1',
    'fc00::1',
    'fd00:ec2::254',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:a9fe:a9fe',
    '[::1]',
    // IPv6 forms that embed an IPv4 address, and other special-use ranges.
    '::127.0.0.1',
    '::7f00:1',
    '::ffff:0:7f00:1',
    '2002:7f00:1::1',
    '2002::',
    '64:ff9b::7f00:1',
    '64:ff9b:1::1',
    '100::1',
    '2001::1',
    '2001:db8::1',
    'fec0::1',
    '5f00::1',
    '4000::1',
    '198.18.0.1',
    '192.88.99.1',
    'not an address',
  ])('refuses %s', (a) => expect(isBlockedAddress(a)).toBe(true));

  it.each(['93.184.216.34', '8.8.8.8', '172.32.0.1', '2606:4700::1111', '::ffff:8.8.8.8'])('allows %s', (a) =>
    expect(isBlockedAddress(a)).toBe(false),
  );

  it('refuses names that always mean this machine or a metadata service', () => {
    for (const h of ['localhost', 'LOCALHOST.', 'app.localhost', 'metadata.google.internal', '127.0.0.1']) {
      expect(isBlockedHostName(h)).toBe(true);
    }
    expect(isBlockedHostName('hooks.example.com')).toBe(false);
  });

  it('reads every spelling of an address as the address: short, decimal, hex, octal, trailing dot, brackets', () => {
    for (const h of [
      '127.1',
      '0x7f.1',
      '2130706433',
      '0177.0.0.1',
      '127.0.0.1.',
      '[::1]',
      '0',
      '10.1',
      '0xa.0.0.5',
      '169.254.169.254.',
    ]) {
      expect([h, isBlockedHostName(h)]).toEqual([h, true]);
    }
    expect(canonicalHost('0x7f.1')).toBe('127.0.0.1');
    expect(canonicalHost('[::FFFF:127.0.0.1]')).toBe('::ffff:7f00:1');
    expect(canonicalHost('::127.0.0.1')).toBe('::7f00:1');
    expect(canonicalHost('a@8.8.8.8')).toBe('a@8.8.8.8');
    for (const h of ['printer.local', 'nas.home.arpa', 'localhost.localdomain', 'ip6-localhost'])
      expect(isBlockedHostName(h)).toBe(true);
    expect(isBlockedHostName('8.8.8.8.')).toBe(false);
    expect(isBlockedHostName('pay.example.com.')).toBe(false);
  });

  it('tells this machine from other machines, private ones included', () => {
    for (const h of [
      'localhost',
      'localhost.',
      'api.localhost',
      '127.0.0.1',
      '127.1',
      '0x7f000001',
      '::1',
      '[::1]',
      '::ffff:127.0.0.1',
      '[::ffff:7f00:1]',
    ]) {
      expect([h, isLoopbackHost(h)]).toEqual([h, true]);
    }
    for (const h of [
      '10.0.0.5',
      '192.168.1.1',
      '::127.0.0.1',
      '0.0.0.0',
      '::',
      'api.stripe.com',
      'localhost.example.com',
      'not a host',
    ]) {
      expect([h, isLoopbackHost(h)]).toEqual([h, false]);
    }
  });

  it('the agent lookup fails for a name that resolves to loopback', async () => {
    const err = await new Promise<Error | null>((resolve) => guardedLookup('localhost', {}, (e) => resolve(e)));
    expect(err?.message).toBe(
      'refused to connect to localhost: it is or resolves to a loopback, private, link-local, metadata or other special-use address',
    );
  });
});

describe('retry schedule', () => {
  it('follows 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h, then gives up', () => {
    const mid = () => 0.5; // no jitter
    expect([1, 2, 3, 4, 5, 6, 7, 8].map((n) => retryDelayMs(n, 1, mid))).toEqual([
      5_000,
      300_000,
      1_800_000,
      7_200_000,
      18_000_000,
      36_000_000,
      36_000_000,
      null,
    ]);
  });
  it('jitters by ±20% and scales', () => {
    expect(retryDelayMs(1, 1, () => 0)).toBe(4_000);
    expect(retryDelayMs(1, 1, () => 1)).toBe(6_000);
    expect(retryDelayMs(2, 0.001, () => 0.5)).toBe(300);
  });
});
