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

/**
 * The one address an `X-Forwarded-For` entry names: an address as `node:net` reads it, or one
 * with a port (`198.51.100.7:443`, `[2001:db8::1]:443`, `[2001:db8::1]`). Null for anything else:
 * forms only some parsers read (`198.051.100.21`, `0xc6.51.100.22`, `3325256727`, `1.2.3`), names, garbage.
 */
export function forwardedAddress(entry: string): string | null {
  const e = entry.trim();
  if (isIP(e)) return e;
  const bracketed = /^\[([^\]]+)\](?::\d{1,5})?$/.exec(e);
  if (bracketed && isIP(bracketed[1]!) === 6) return bracketed[1]!;
  const withPort = /^([^:]+):\d{1,5}$/.exec(e);
  if (withPort && isIP(withPort[1]!) === 4) return withPort[1]!;
  return null;
}

/**
 * An `X-Forwarded-For` list with each entry as its one address, cut at the last (nearest) entry
 * that names none: the trusted hop that passed that on is then the client, one budget for all
 * such requests, instead of each spelling a budget of its own. Empty when the nearest is not one.
 */
export function forwardedChain(header: string): string {
  const entries = header.split(',');
  const kept: string[] = [];
  for (let i = entries.length - 1; i >= 0; i--) {
    const address = forwardedAddress(entries[i]!);
    if (address === null) break;
    kept.unshift(address);
  }
  return kept.join(', ');
}
