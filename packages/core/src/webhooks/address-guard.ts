import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { lookup as dnsLookupAll } from 'node:dns/promises';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Where a production webhook may connect: only addresses ipaddr.js classifies as plain `unicast`
 * (its tables follow the IANA special-purpose registries of both families), so loopback,
 * private, link-local (cloud metadata), carrier-grade NAT, documentation, benchmarking, reserved,
 * multicast and the rest are refused without a hand-kept list. IPv6 must also be global unicast
 * (2000::/3): that rules out the IPv4-compatible `::a.b.c.d` (`[::127.0.0.1]` is `[::7f00:1]`),
 * which no table lists. An IPv4-mapped address is judged as the IPv4 address inside; the
 * translation and tunnel prefixes that embed one (`::ffff:0:0/96`, NAT64 `64:ff9b::/96`, 6to4
 * `2002::/16`, Teredo) and discard-only `100::/64` are special ranges, so refused.
 */
export function isBlockedAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '');
  if (!isIP(bare)) return true; // not an address at all: refuse rather than guess
  let ip: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    ip = ipaddr.parse(bare);
  } catch {
    return true;
  }
  if (ip.kind() === 'ipv6') {
    const v6 = ip as ipaddr.IPv6;
    if (v6.isIPv4MappedAddress()) return isBlockedAddress(v6.toIPv4Address().toString());
    if (!v6.match(GLOBAL_UNICAST)) return true;
  }
  return ip.range() !== 'unicast';
}

const GLOBAL_UNICAST = ipaddr.parseCIDR('2000::/3') as [ipaddr.IPv6, number];

/** The port a webhook URL connects to: the one it names, else its scheme's. */
export const webhookPort = (url: URL) => Number(url.port || (url.protocol === 'https:' ? 443 : 80));

/** The delivery log's error for a target on a port the operator does not allow (REMIT_WEBHOOK_PORTS). */
export const portRefused = (port: number, allowed: readonly number[]) =>
  `refused: port ${port} is not open to production webhooks (allowed: ${allowed.join(', ')})`;

/**
 * A host as a URL holds it: lower case, without brackets, and an IPv4 address in any of the forms
 * a URL accepts (`127.1`, `0x7f.1`, `2130706433`, `0177.0.0.1`, a trailing dot) as dotted decimal,
 * so that no spelling slips past the checks below. A host a URL refuses is returned as given.
 */
export function canonicalHost(host: string): string {
  const bare = host.trim().replace(/^\[|\]$/g, '');
  const v6 = isIP(bare) === 6;
  // Only a host's own characters go through the URL parser (`a@127.0.0.1` would come out 127.0.0.1).
  if (!v6 && !/^[a-z0-9._-]+$/i.test(bare)) return bare.toLowerCase();
  try {
    // IPv6 too: the URL spells `::127.0.0.1` as `::7f00:1`, which ipaddr.js would misread as mapped.
    return new URL(`http://${v6 ? `[${bare}]` : bare}`).hostname.replace(/^\[|\]$/g, '');
  } catch {
    return bare.toLowerCase();
  }
}

/** Names that always mean this machine, whatever DNS says. */
const LOOPBACK_NAMES = /^(localhost|.*\.localhost|localhost\.localdomain|ip6-localhost|ip6-loopback)\.?$/i;

/** Names that mean this machine, its local network (mDNS `.local`, `home.arpa`) or a metadata service. */
const BLOCKED_NAMES =
  /^(metadata|metadata\.google\.internal|instance-data|.*\.internal|.*\.local|home\.arpa|.*\.home\.arpa)\.?$/i;

/**
 * Whether `host` (a name or an IP literal in any spelling, bracketed or not) is not a public
 * place: a blocked address, or a name that means this machine, the local network or a metadata
 * service. The one rule for webhook targets and the production server's own PUBLIC_URL.
 */
export function isBlockedHostName(host: string): boolean {
  const h = canonicalHost(host);
  if (isIP(h)) return isBlockedAddress(h);
  return LOOPBACK_NAMES.test(h) || BLOCKED_NAMES.test(h);
}

/**
 * Whether `host` is this machine: `localhost` and its kind, 127.0.0.0/8 in any spelling, `::1`,
 * and an IPv4-mapped loopback. Anything else, private networks included, is another machine.
 */
export function isLoopbackHost(host: string): boolean {
  const h = canonicalHost(host);
  if (!isIP(h)) return LOOPBACK_NAMES.test(h);
  try {
    let ip = ipaddr.parse(h);
    if (ip.kind() === 'ipv6' && (ip as ipaddr.IPv6).isIPv4MappedAddress()) ip = (ip as ipaddr.IPv6).toIPv4Address();
    return ip.range() === 'loopback';
  } catch {
    return false;
  }
}

/**
 * A refused connection. The message names the host as the client wrote it, never the address a
 * name resolved to: the delivery log is shown to the client, and the answer would map the network.
 */
export class BlockedAddressError extends Error {
  readonly code = 'EBLOCKEDADDRESS';
  constructor(host: string) {
    super(
      `refused to connect to ${host}: it is or resolves to a loopback, private, link-local, metadata or other special-use address`,
    );
  }
}

/**
 * Whether `host` (a name or an IP literal) is refused for a production webhook: a blocked literal,
 * a name that always means this machine, or a name any of whose DNS answers is blocked. A name that
 * does not resolve answers `unresolved`.
 */
export async function checkHost(host: string): Promise<'ok' | 'blocked' | 'unresolved'> {
  const bare = canonicalHost(host);
  if (isBlockedHostName(bare)) return 'blocked';
  if (isIP(bare)) return 'ok';
  let answers: LookupAddress[];
  try {
    answers = await dnsLookupAll(bare, { all: true, verbatim: true });
  } catch {
    return 'unresolved';
  }
  if (!answers.length) return 'unresolved';
  return answers.some((a) => isBlockedAddress(a.address)) ? 'blocked' : 'ok';
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for an http(s) Agent that resolves the host and fails when any answer is blocked.
 * The socket connects to the address checked here, so DNS rebinding between check and connect
 * is not possible.
 */
export function guardedLookup(hostname: string, options: LookupOptions, callback: LookupCallback): void {
  dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, '');
    const list = addresses as LookupAddress[];
    const bad = list.find((a) => isBlockedAddress(a.address));
    if (bad) return callback(new BlockedAddressError(hostname), '');
    if (options.all) return callback(null, list);
    const first = list[0];
    if (!first) return callback(Object.assign(new Error(`no address for ${hostname}`), { code: 'ENOTFOUND' }), '');
    callback(null, first.address, first.family);
  });
}
