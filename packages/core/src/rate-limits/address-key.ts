import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * The client one address stands for, as every per-address limit counts it: an IPv4 address
 * itself; an IPv6 address by its /64, the smallest block a provider gives one subscriber (a
 * single machine can use billions of its addresses); an IPv4-mapped IPv6 address
 * (`::ffff:a.b.c.d`) as the IPv4 address inside. Anything that is not an address counts as given.
 */
export function addressKey(address: string): string {
  const family = isIP(address);
  if (family === 4) return address;
  if (family !== 6) return address;
  let v6: ipaddr.IPv6;
  try {
    v6 = ipaddr.IPv6.parse(address);
  } catch {
    return address;
  }
  if (v6.isIPv4MappedAddress()) return v6.toIPv4Address().toString();
  return `${v6.parts
    .slice(0, 4)
    .map((part) => part.toString(16))
    .join(':')}::/64`;
}
