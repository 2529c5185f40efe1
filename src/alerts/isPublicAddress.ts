import { BlockList, isIP } from "node:net";

/**
 * IPv4 ranges that are not globally reachable (IANA IPv4 Special-Purpose Address Registry, RFC 6890 and successors):
 * "this network", private, shared CGNAT, loopback, link-local, IETF protocol assignments, documentation, the old
 * 6to4 relay anycast, benchmarking, multicast, reserved and broadcast.
 */
const NON_PUBLIC_V4: readonly [string, number][] = [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.88.99.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
];

/**
 * Inside global unicast (2000::/3), the blocks that are not ordinary public hosts: IETF protocol assignments (Teredo,
 * benchmarking, ORCHID), documentation, 6to4 (it embeds an IPv4 address) and the newer documentation block. Everything
 * outside 2000::/3 is refused anyway: ::, ::1, IPv4-compatible, NAT64 (64:ff9b::/96, 64:ff9b:1::/48), discard-only,
 * unique local fc00::/7, link-local fe80::/10, site-local fec0::/10 and multicast ff00::/8.
 */
const NON_PUBLIC_V6: readonly [string, number][] = [
  ["2001::", 23],
  ["2001:db8::", 32],
  ["2002::", 16],
  ["3fff::", 20],
];

const nonPublic = new BlockList();
for (const [network, prefix] of NON_PUBLIC_V4) nonPublic.addSubnet(network, prefix, "ipv4");
for (const [network, prefix] of NON_PUBLIC_V6) nonPublic.addSubnet(network, prefix, "ipv6");
const globalUnicast = new BlockList();
globalUnicast.addSubnet("2000::", 3, "ipv6");

/**
 * Whether `address` (an IPv4 or IPv6 literal, as DNS returns it or a URL carries it) is a public unicast address that
 * a webhook may be sent to. An IPv4-mapped IPv6 address (`::ffff:a.b.c.d`, in either spelling) is judged as the IPv4
 * address it carries. Anything that is not an IP literal is not public.
 *
 * @example
 * isPublicAddress("93.184.215.14"); // true
 * isPublicAddress("::ffff:127.0.0.1"); // false
 */
export function isPublicAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, "").split("%")[0];
  const family = isIP(bare);
  if (family === 4) return !nonPublic.check(bare, "ipv4");
  if (family !== 6) return false;
  const mapped = ipv4Mapped(bare);
  if (mapped !== null) return isPublicAddress(mapped);
  return globalUnicast.check(bare, "ipv6") && !nonPublic.check(bare, "ipv6");
}

/** The IPv4 address an IPv4-mapped IPv6 address carries (`::ffff:7f00:1` → `127.0.0.1`), else null. */
function ipv4Mapped(address: string): string | null {
  // The WHATWG URL serializer compresses an IPv6 address and writes the IPv4 part in hex: one spelling to match.
  const hostname = new URL(`http://[${address}]/`).hostname;
  const match = /^\[::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})\]$/.exec(hostname);
  if (match === null) return null;
  const high = parseInt(match[1], 16);
  const low = parseInt(match[2], 16);
  return [high >> 8, high & 0xff, low >> 8, low & 0xff].join(".");
}
