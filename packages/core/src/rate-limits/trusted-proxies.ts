import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { isBlockedAddress } from '../webhooks/address-guard.js';

/**
 * One entry of a trusted-proxy list (REMIT_TRUST_PROXY) as Fastify will match it: `cidr` its
 * address or range written plainly (an IPv4-mapped range as the IPv4 range it matches), `tooWide`
 * when it is wider than a /8 of IPv4 or a /32 of IPv6 (whole swathes of the internet), `public`
 * when it holds any address the webhook rule counts as public (isBlockedAddress).
 */
export interface ProxyRange {
  cidr: string;
  tooWide: boolean;
  public: boolean;
}

/** The widest prefix a proxy list may name, per family. */
export const WIDEST_PROXY_PREFIX = { ipv4: 8, ipv6: 32 } as const;

/** Reads an address (`10.0.0.2`) or a range (`10.0.0.0/24`, `10.0.0.0/255.255.255.0`, `fd00::/48`); null for anything else. */
export function proxyRange(entry: string): ProxyRange | null {
  const [address = '', prefix, extra] = entry.trim().split('/');
  if (extra !== undefined || address.includes('%') || !isIP(address)) return null;
  let ip: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    ip = ipaddr.parse(address);
  } catch {
    return null;
  }
  let max = ip.kind() === 'ipv4' ? 32 : 128;
  let bits: number | null = max;
  if (prefix !== undefined) {
    if (/^\d{1,3}$/.test(prefix)) bits = Number(prefix);
    else if (ip.kind() === 'ipv4' && isIP(prefix) === 4) bits = ipaddr.IPv4.parse(prefix).prefixLengthFromSubnetMask();
    else return null;
  }
  if (bits === null || bits > max) return null;
  // Fastify matches an IPv4 client against a mapped range (::ffff:0:0/96 is every IPv4 address).
  if (ip.kind() === 'ipv6' && (ip as ipaddr.IPv6).isIPv4MappedAddress() && bits >= 96) {
    ip = (ip as ipaddr.IPv6).toIPv4Address();
    bits -= 96;
    max = 32;
  }
  const family = ip.kind() === 'ipv4' ? ipaddr.IPv4 : ipaddr.IPv6;
  const first = family.networkAddressFromCIDR(`${ip}/${bits}`);
  const last = family.broadcastAddressFromCIDR(`${ip}/${bits}`);
  // Special-use ranges nest or are apart: first and last in one of them (same kind) is all of it in it.
  const special =
    isBlockedAddress(first.toString()) && isBlockedAddress(last.toString()) && first.range() === last.range();
  return {
    cidr: bits === max ? ip.toString() : `${first}/${bits}`,
    tooWide: bits < WIDEST_PROXY_PREFIX[ip.kind()],
    public: !special,
  };
}
