import { isIPv6 } from "node:net";

/**
 * The client a limit counts against, from its address: an IPv4 address as it is (also when a dual-stack socket shows
 * it as `::ffff:a.b.c.d`); an IPv6 address by its /64 prefix (`2001:db8:1:2::/64`), the block one subscriber holds, so
 * that a client cannot take a fresh bucket for each of its 2^64 addresses. Anything else is kept as it is.
 *
 * @example
 * clientAddressKey("2001:db8:1:2:aaaa::1"); // "2001:db8:1:2::/64"
 * clientAddressKey("::ffff:10.0.0.7"); // "10.0.0.7"
 */
export function clientAddressKey(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped !== null) return mapped[1];
  if (!isIPv6(address)) return address;
  const [head, tail = ""] = address.toLowerCase().split("::");
  const groups = (part: string) => (part === "" ? [] : part.split(":"));
  const left = groups(head);
  const right = address.includes("::") ? groups(tail) : [];
  // An embedded IPv4 tail (`::1.2.3.4`) counts as two groups; it only ever sits in the last 32 bits.
  const rightGroups = right.flatMap((group) => (group.includes(".") ? ["0", "0"] : [group]));
  const missing = 8 - left.length - rightGroups.length;
  const full = address.includes("::") ? [...left, ...Array<string>(missing).fill("0"), ...rightGroups] : left;
  const prefix = full.slice(0, 4).map((group) => Number.parseInt(group, 16).toString(16));
  return `${prefix.join(":")}::/64`;
}
