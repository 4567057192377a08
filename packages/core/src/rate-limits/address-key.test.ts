import { describe, expect, it } from 'vitest';
import { addressKey } from './address-key.js';

describe('addressKey: the client an address stands for in per-address limits', () => {
  it('an IPv4 address is itself', () => {
    expect(addressKey('203.0.113.7')).toBe('203.0.113.7');
    expect(addressKey('203.0.113.8')).not.toBe(addressKey('203.0.113.7'));
  });

  it('every IPv6 address of one /64 is one client, however it is written', () => {
    const key = addressKey('2001:db8:1:2::1');
    expect(key).toBe('2001:db8:1:2::/64');
    for (const a of [
      '2001:db8:1:2:ffff:ffff:ffff:ffff',
      '2001:0DB8:0001:0002:0:0:0:abcd',
      '2001:db8:1:2:a:b:c:d',
      '2001:db8:1:2::1.2.3.4',
      '2001:db8:1:2::9%eth0',
    ]) {
      expect(addressKey(a)).toBe(key);
    }
  });

  it('addresses of different /64s are counted apart', () => {
    expect(addressKey('2001:db8:1:3::1')).not.toBe(addressKey('2001:db8:1:2::1'));
    expect(addressKey('2001:db9:1:2::1')).not.toBe(addressKey('2001:db8:1:2::1'));
    expect(addressKey('::1')).toBe('0:0:0:0::/64');
  });

  it('an IPv4-mapped IPv6 address is the IPv4 address inside, in either spelling', () => {
    expect(addressKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(addressKey('::FFFF:cb00:7107')).toBe('203.0.113.7');
    expect(addressKey('::ffff:203.0.113.8')).not.toBe(addressKey('::ffff:203.0.113.7'));
  });

  it('what is not an address counts as given', () => {
    expect(addressKey('unknown')).toBe('unknown');
    expect(addressKey('')).toBe('');
  });
});
