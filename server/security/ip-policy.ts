// Decides whether an IP address is a public unicast address Patchbay may connect to for a remote image (SSRF guard).
// Pure: no DNS, no sockets. Anything it cannot parse strictly is refused (fail closed).
import ipaddr from "ipaddr.js";

/*
 * Rule sources (checked against the registries as of 2025):
 * - IANA IPv4 Special-Purpose Address Registry (RFC 6890, updated by RFC 8190):
 *   https://www.iana.org/assignments/iana-ipv4-special-registry/
 * - IANA IPv4 Address Space Registry (224/4 multicast, 240/4 reserved, RFC 5771 / RFC 1112):
 *   https://www.iana.org/assignments/ipv4-address-space/
 * - IANA IPv6 Special-Purpose Address Registry (RFC 6890, RFC 8190):
 *   https://www.iana.org/assignments/iana-ipv6-special-registry/
 * - IANA IPv6 Address Space Registry (only 2000::/3 is allocated as global unicast, RFC 4291 §2.4):
 *   https://www.iana.org/assignments/ipv6-address-space/
 *
 * IPv4: every block of the special-purpose registry is refused (including the few flagged "globally reachable",
 * e.g. AS112 and anycast relays, which never serve images), plus multicast and the reserved 240/4 block
 * (which contains the limited broadcast 255.255.255.255).
 *
 * IPv6: only global unicast 2000::/3 may pass, minus the special-purpose blocks inside it. Addresses that embed an
 * IPv4 address are judged by it where the embedding is a plain translation: IPv4-mapped ::ffff:0:0/96 (RFC 4291) and
 * the NAT64 well-known prefix 64:ff9b::/96 (RFC 6052). 6to4 2002::/16 (RFC 3056, deprecated by RFC 7526) and
 * Teredo 2001::/32 (RFC 4380) are refused outright: they route through relays we do not control and can embed any
 * IPv4 address (Teredo even obfuscates it), so judging the embedded address is not enough. The local-use NAT64
 * prefix 64:ff9b:1::/48 (RFC 8215) is refused because its mapping is site-defined.
 */

/** Refused IPv4 blocks: [CIDR, why]. */
const REFUSED_V4: ReadonlyArray<readonly [string, string]> = [
  ["0.0.0.0/8", "'this network' incl. unspecified 0.0.0.0, RFC 791 / RFC 1122"],
  ["10.0.0.0/8", "private, RFC 1918"],
  ["100.64.0.0/10", "shared address space (CGNAT), RFC 6598"],
  ["127.0.0.0/8", "loopback, RFC 1122"],
  ["169.254.0.0/16", "link-local (cloud metadata lives here), RFC 3927"],
  ["172.16.0.0/12", "private, RFC 1918"],
  ["192.0.0.0/24", "IETF protocol assignments (DS-Lite, PCP/TURN anycast, NAT64 discovery), RFC 6890"],
  ["192.0.2.0/24", "documentation TEST-NET-1, RFC 5737"],
  ["192.31.196.0/24", "AS112-v4, RFC 7535"],
  ["192.52.193.0/24", "AMT, RFC 7450"],
  ["192.88.99.0/24", "deprecated 6to4 relay anycast, RFC 7526"],
  ["192.168.0.0/16", "private, RFC 1918"],
  ["192.175.48.0/24", "direct delegation AS112 service, RFC 7534"],
  ["198.18.0.0/15", "benchmarking, RFC 2544"],
  ["198.51.100.0/24", "documentation TEST-NET-2, RFC 5737"],
  ["203.0.113.0/24", "documentation TEST-NET-3, RFC 5737"],
  ["224.0.0.0/4", "multicast, RFC 5771"],
  ["240.0.0.0/4", "reserved for future use, RFC 1112 (includes broadcast 255.255.255.255, RFC 919)"],
];

/** Refused IPv6 blocks: [CIDR, why]. Blocks outside 2000::/3 are also refused by the global-unicast rule; they are
 *  listed so this table can be audited against the IANA registry line by line. */
const REFUSED_V6: ReadonlyArray<readonly [string, string]> = [
  ["::/128", "unspecified, RFC 4291"],
  ["::1/128", "loopback, RFC 4291"],
  ["::/96", "deprecated IPv4-compatible addresses, RFC 4291 §2.5.5.1"],
  ["::ffff:0:0:0/96", "IPv4-translated (SIIT), RFC 2765"],
  ["64:ff9b:1::/48", "local-use IPv4/IPv6 translation, RFC 8215"],
  ["100::/64", "discard-only, RFC 6666"],
  ["2001::/23", "IETF protocol assignments (Teredo 2001::/32, benchmarking 2001:2::/48, ORCHID, AMT, AS112), RFC 2928"],
  ["2001:db8::/32", "documentation, RFC 3849"],
  ["2002::/16", "6to4, RFC 3056 (deprecated, RFC 7526)"],
  ["2620:4f:8000::/48", "direct delegation AS112 service, RFC 7534"],
  ["3fff::/20", "documentation, RFC 9637"],
  ["5f00::/16", "segment routing SIDs, RFC 9602"],
  ["fc00::/7", "unique local, RFC 4193"],
  ["fe80::/10", "link-local unicast, RFC 4291"],
  ["fec0::/10", "deprecated site-local, RFC 3879"],
  ["ff00::/8", "multicast, RFC 4291"],
];

const V4_BLOCKS = REFUSED_V4.map(([cidr]) => ipaddr.IPv4.parseCIDR(cidr));
const V6_BLOCKS = REFUSED_V6.map(([cidr]) => ipaddr.IPv6.parseCIDR(cidr));
const V6_GLOBAL_UNICAST = ipaddr.IPv6.parseCIDR("2000::/3");
const V6_MAPPED = ipaddr.IPv6.parseCIDR("::ffff:0:0/96");
const V6_NAT64_WELL_KNOWN = ipaddr.IPv6.parseCIDR("64:ff9b::/96");

/**
 * True when `ip` is a public unicast address Patchbay may fetch a remote image from; false for every private,
 * loopback, link-local, CGNAT, unspecified, broadcast, multicast, reserved, documentation, benchmarking or
 * translation address listed above (IANA special-purpose registries, RFC 6890), for IPv4-mapped or NAT64 forms of
 * any refused IPv4 address, for 6to4/Teredo, and for anything that is not a strict IP literal (dotted-quad IPv4
 * without leading zeros, or IPv6 without a zone id).
 */
export function isPublicAddress(ip: string): boolean {
  if (ipaddr.IPv4.isValidFourPartDecimal(ip)) return isPublicV4(ipaddr.IPv4.parse(ip));
  // Zone ids (fe80::1%eth0) only occur on link-local scopes; refuse them rather than reason about them.
  if (ip.includes("%") || !ip.includes(":")) return false;
  const hex = dottedTailToHex(ip);
  if (hex === null || !ipaddr.IPv6.isValid(hex)) return false;
  return isPublicV6(ipaddr.IPv6.parse(hex));
}

/** `::ffff:127.0.0.1` → `::ffff:7f00:1`. ipaddr.js reads any `::a.b.c.d` as IPv4-mapped (so `::8.8.8.8`, an
 *  IPv4-compatible address, would pass as `::ffff:8.8.8.8`); rewriting the dotted tail as hex first keeps the
 *  prefix the caller actually wrote. Returns null for a malformed dotted tail. */
function dottedTailToHex(ip: string): string | null {
  const m = /^(.*:)([^:]*\.[^:]*)$/.exec(ip);
  if (!m) return ip;
  const [, head = "", tail = ""] = m;
  if (!ipaddr.IPv4.isValidFourPartDecimal(tail)) return null;
  const [a = 0, b = 0, c = 0, d = 0] = ipaddr.IPv4.parse(tail).octets;
  return `${head}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
}

function isPublicV4(addr: ipaddr.IPv4): boolean {
  return !V4_BLOCKS.some((block) => addr.match(block));
}

function isPublicV6(addr: ipaddr.IPv6): boolean {
  if (addr.match(V6_MAPPED) || addr.match(V6_NAT64_WELL_KNOWN)) return isPublicV4(embeddedV4(addr));
  if (!addr.match(V6_GLOBAL_UNICAST)) return false;
  return !V6_BLOCKS.some((block) => addr.match(block));
}

/** The IPv4 address in the last 32 bits of an IPv6 address. */
function embeddedV4(addr: ipaddr.IPv6): ipaddr.IPv4 {
  const hi = addr.parts[6] ?? 0;
  const lo = addr.parts[7] ?? 0;
  return new ipaddr.IPv4([hi >> 8, hi & 0xff, lo >> 8, lo & 0xff]);
}
