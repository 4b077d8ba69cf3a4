import { describe, expect, test } from "bun:test";
import { nonPublicBlock } from "../../../adapters/security/special-addresses.ts";

/** Every spelling of a private address an attacker tried, and the rest of the IANA special-purpose registries: [address, block]. */
const REFUSED: readonly (readonly [string, string])[] = [
  // IPv4 loopback in every spelling
  ["127.0.0.1", "loopback"],
  ["127.255.0.9", "loopback"],
  ["127.1", "loopback"],
  ["0177.0.0.1", "loopback"],
  ["0x7f.1", "loopback"],
  ["0x7f000001", "loopback"],
  ["2130706433", "loopback"],
  ["127.0.0.1.", "loopback"],
  // "this network", private, shared, link-local
  ["0.0.0.0", "this network"],
  ["0", "this network"],
  ["0.1.2.3", "this network"],
  ["10.1.2.3", "private-use"],
  ["012.1.2.3", "private-use"],
  ["172.16.0.1", "private-use"],
  ["172.31.255.255", "private-use"],
  ["192.168.0.10", "private-use"],
  ["100.64.0.1", "carrier-grade NAT"],
  ["100.127.255.255", "carrier-grade NAT"],
  ["169.254.169.254", "link-local"],
  ["0xa9.0xfe.0xa9.0xfe", "link-local"],
  // IETF assignments, documentation, benchmarking, reserved, broadcast, multicast
  ["192.0.0.8", "IETF protocol assignments"],
  ["192.0.0.170", "IETF protocol assignments"],
  ["192.0.2.1", "documentation"],
  ["198.51.100.7", "documentation"],
  ["203.0.113.9", "documentation"],
  ["198.18.0.1", "benchmarking"],
  ["198.19.255.255", "benchmarking"],
  ["192.88.99.1", "6to4 relay anycast"],
  ["224.0.0.1", "multicast"],
  ["239.255.255.250", "multicast"],
  ["240.0.0.1", "reserved"],
  ["255.255.255.255", "limited broadcast"],
  // IPv6 loopback, unspecified, IPv4-compatible
  ["::1", "loopback"],
  ["[::1]", "loopback"],
  ["0:0:0:0:0:0:0:1", "loopback"],
  ["::", "unspecified"],
  ["::127.0.0.1", "IPv4-compatible"],
  ["::7f00:1", "IPv4-compatible"],
  ["::8.8.8.8", "IPv4-compatible"],
  // IPv4 carried inside IPv6
  ["::ffff:127.0.0.1", "IPv4-mapped of 127.0.0.1, loopback"],
  ["::ffff:7f00:1", "IPv4-mapped of 127.0.0.1, loopback"],
  ["::ffff:169.254.169.254", "IPv4-mapped of 169.254.169.254, link-local"],
  ["::ffff:a9fe:a9fe", "IPv4-mapped of 169.254.169.254, link-local"],
  ["::ffff:0:7f00:1", "IPv4-translated of 127.0.0.1, loopback"],
  ["::ffff:0:10.0.0.1", "IPv4-translated of 10.0.0.1, private-use"],
  ["64:ff9b::7f00:1", "NAT64 of 127.0.0.1, loopback"],
  ["64:ff9b::192.168.1.1", "NAT64 of 192.168.1.1, private-use"],
  ["64:ff9b:1::a00:1", "local-use IPv4/IPv6 translation"],
  ["2002:7f00:1::1", "6to4 of 127.0.0.1, loopback"],
  ["2002:a9fe:a9fe::", "6to4 of 169.254.169.254, link-local"],
  ["2001:0:4136:e378:8000:63bf:80ff:fffe", "Teredo of 127.0.0.1, loopback"],
  ["2001:0:a00:1::1", "Teredo of 10.0.0.1, private-use"],
  // IPv6 special-purpose blocks
  ["fc00::1", "unique-local"],
  ["fd12:3456::1", "unique-local"],
  ["fe80::1", "link-local"],
  ["fe80::1%eth0", "link-local"],
  ["febf::1", "link-local"],
  ["fec0::1", "site-local"],
  ["ff02::1", "multicast"],
  ["ff05::1:3", "multicast"],
  ["100::1", "discard-only"],
  ["2001:db8::1", "documentation"],
  ["3fff::1", "documentation"],
  ["2001:2::1", "benchmarking"],
  ["2001:10::1", "ORCHID"],
  ["2001:100::1", "IETF protocol assignments"],
  ["5f00::1", "segment routing"],
  ["4000::1", "outside global unicast"],
  ["1::1", "outside global unicast"],
  // not an address at all
  ["localhost", "not an IP address"],
  ["example.com", "not an IP address"],
];

const PUBLIC = [
  "8.8.8.8",
  "1.1.1.1",
  "93.184.216.34",
  "172.32.0.1",
  "100.128.0.1",
  "192.0.0.9",
  "2606:4700::1111",
  "2a00:1450:4001:80b::200e",
  "::ffff:8.8.8.8",
  "::ffff:0:808:808",
  "64:ff9b::808:808",
  "2002:808:808::1",
  "2001:1::1",
  "2001:4:112::1",
  "2001:20::1",
];

describe("nonPublicBlock decides by what an address is, not how it is spelled", () => {
  test.each(REFUSED)("%s is refused (%s)", (address, block) => {
    expect(nonPublicBlock(address)).toContain(block);
  });

  test.each(PUBLIC)("%s is public", (address) => {
    expect(nonPublicBlock(address)).toBeNull();
  });
});
