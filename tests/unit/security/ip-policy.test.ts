// isPublicAddress: one case (or more) per refused address class, v4 and v6 incl. mapped/NAT64/6to4/Teredo forms,
// plus public addresses that must pass and malformed input that must fail closed.
import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { isPublicAddress } from "../../../server/security/ip-policy";

const REFUSED: ReadonlyArray<readonly [string, string[]]> = [
  ["v4 'this network' 0.0.0.0/8 incl. unspecified", ["0.0.0.0", "0.1.2.3", "0.255.255.255"]],
  ["v4 private 10/8", ["10.0.0.1", "10.255.255.255"]],
  ["v4 private 172.16/12", ["172.16.0.1", "172.31.255.254"]],
  ["v4 private 192.168/16", ["192.168.0.1", "192.168.255.255"]],
  ["v4 loopback 127/8", ["127.0.0.1", "127.1.2.3", "127.255.255.254"]],
  ["v4 link-local 169.254/16 (cloud metadata)", ["169.254.169.254", "169.254.0.1"]],
  ["v4 CGNAT 100.64/10", ["100.64.0.1", "100.127.255.254"]],
  ["v4 IETF protocol assignments 192.0.0/24", ["192.0.0.1", "192.0.0.170"]],
  ["v4 documentation", ["192.0.2.1", "198.51.100.7", "203.0.113.9"]],
  ["v4 benchmarking 198.18/15", ["198.18.0.1", "198.19.255.254"]],
  ["v4 AS112 / AMT / 6to4 relay anycast", ["192.31.196.1", "192.52.193.1", "192.88.99.1", "192.175.48.1"]],
  ["v4 multicast 224/4", ["224.0.0.1", "239.255.255.250"]],
  ["v4 reserved 240/4", ["240.0.0.1", "250.1.2.3"]],
  ["v4 limited broadcast", ["255.255.255.255"]],
  ["v6 unspecified", ["::", "0:0:0:0:0:0:0:0"]],
  ["v6 loopback", ["::1", "0:0:0:0:0:0:0:1"]],
  ["v6 link-local fe80::/10", ["fe80::1", "febf::1"]],
  ["v6 unique local fc00::/7", ["fc00::1", "fd12:3456:789a::1"]],
  ["v6 site-local (deprecated) fec0::/10", ["fec0::1"]],
  ["v6 multicast ff00::/8", ["ff02::1", "ff05::1:3"]],
  ["v6 documentation", ["2001:db8::1", "3fff::1"]],
  ["v6 benchmarking 2001:2::/48", ["2001:2::1"]],
  ["v6 discard 100::/64", ["100::1"]],
  ["v6 IPv4-compatible (deprecated) ::/96", ["::127.0.0.1", "::8.8.8.8"]],
  ["v6 not global unicast (outside 2000::/3)", ["4000::1", "e000::1", "5f00::1"]],
  [
    "v6 IPv4-mapped of refused v4",
    [
      "::ffff:127.0.0.1",
      "::ffff:7f00:1",
      "::ffff:10.0.0.1",
      "::ffff:169.254.169.254",
      "::ffff:192.168.1.1",
      "::ffff:0.0.0.0",
    ],
  ],
  [
    "v6 NAT64 64:ff9b::/96 of refused v4",
    ["64:ff9b::127.0.0.1", "64:ff9b::a00:1", "64:ff9b::169.254.169.254", "64:ff9b::100.64.0.1"],
  ],
  ["v6 local-use NAT64 64:ff9b:1::/48", ["64:ff9b:1::808:808"]],
  ["v6 SIIT IPv4-translated ::ffff:0:0:0/96", ["::ffff:0:7f00:1", "::ffff:0:808:808"]],
  ["v6 6to4 2002::/16 (any embedded v4)", ["2002:7f00:1::1", "2002:c0a8:101::1", "2002:808:808::1"]],
  ["v6 Teredo 2001::/32", ["2001:0:4136:e378:8000:63bf:3fff:fdd2", "2001::1"]],
  [
    "malformed or non-canonical (fail closed)",
    [
      "",
      "localhost",
      "127.1",
      "0x7f.0.0.1",
      "010.0.0.1",
      "2130706433",
      "1.2.3",
      "1.2.3.4.5",
      "fe80::1%eth0",
      "::ffff:127.0.0.1 ",
      "[::1]",
    ],
  ],
];

const PUBLIC = [
  "8.8.8.8",
  "1.1.1.1",
  "93.184.216.34",
  "172.15.255.255",
  "172.32.0.1",
  "100.63.255.255",
  "100.128.0.1",
  "198.17.255.255",
  "198.20.0.1",
  "223.255.255.254",
  "2606:4700:4700::1111",
  "2001:4860:4860::8888",
  "2a00:1450:4001::200e",
  "::ffff:8.8.8.8",
  "64:ff9b::8.8.8.8",
];

describe("isPublicAddress", () => {
  for (const [name, addresses] of REFUSED) {
    test(`refuses ${name}`, () => {
      for (const ip of addresses) assert.equal(isPublicAddress(ip), false, ip);
    });
  }

  test("allows public unicast v4 and v6 (incl. range edges and mapped/NAT64 of public v4)", () => {
    for (const ip of PUBLIC) assert.equal(isPublicAddress(ip), true, ip);
  });
});
