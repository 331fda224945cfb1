import { BlockList, isIP } from 'node:net';

// Addresses a user's website must never resolve to: this machine, private networks, cloud metadata,
// carrier-grade NAT, documentation, benchmarking, multicast and reserved ranges (IANA special-purpose
// registries for IPv4 and IPv6).
const blockedV4 = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  blockedV4.addSubnet(net, prefix, 'ipv4');
}

// IPv6 is allowed only inside global unicast 2000::/3, minus its special blocks; everything else (::1, ::,
// fc00::/7, fe80::/10, fec0::/10, ff00::/8, 64:ff9b::/96 NAT64, 100::/64) is outside 2000::/3 anyway.
const globalV6 = new BlockList();
globalV6.addSubnet('2000::', 3, 'ipv6');
const blockedV6 = new BlockList();
blockedV6.addSubnet('2001::', 23, 'ipv6'); // IETF protocol assignments, Teredo (embeds any IPv4)
blockedV6.addSubnet('2001:db8::', 32, 'ipv6'); // documentation
blockedV6.addSubnet('2002::', 16, 'ipv6'); // 6to4 (embeds any IPv4)
blockedV6.addSubnet('3fff::', 20, 'ipv6'); // documentation (RFC 9637)

/** The IPv4 address inside an IPv4-mapped (::ffff:a.b.c.d) or IPv4-compatible IPv6 address, else null. */
export function embeddedIPv4(address: string): string | null {
  // The URL parser writes IPv6 in one canonical, lower-case, compressed form with hex groups.
  let host: string;
  try {
    host = new URL(`http://[${address}]/`).hostname.slice(1, -1);
  } catch {
    return null;
  }
  const m = /^::(?:ffff:)?([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(host);
  if (!m) return null;
  const hi = parseInt(m[1]!, 16);
  const lo = parseInt(m[2]!, 16);
  return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
}

/** True only for an address on the public internet; anything unparsable is not public. */
export function isPublicAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const family = isIP(bare);
  if (family === 4) return !blockedV4.check(bare, 'ipv4');
  if (family !== 6) return false;
  const v4 = embeddedIPv4(bare);
  if (v4 !== null) return !blockedV4.check(v4, 'ipv4') && isMappedForm(bare);
  return globalV6.check(bare, 'ipv6') && !blockedV6.check(bare, 'ipv6');
}

// Only ::ffff:a.b.c.d reaches an IPv4 host; the deprecated ::a.b.c.d form is reserved space, never public.
function isMappedForm(address: string): boolean {
  return new URL(`http://[${address}]/`).hostname.startsWith('[::ffff:');
}
