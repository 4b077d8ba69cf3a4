import { formatIPv4, parseIPv4, parseIPv6, parseIpAddress } from "./ip-address.ts";

interface Block {
  readonly prefix: bigint;
  readonly length: number;
  /** What the block is, or null for a globally reachable block inside a non-reachable one. */
  readonly name: string | null;
}

function blocks(bits: number, parse: (text: string) => bigint | null, table: Record<string, string | null>): Block[] {
  return Object.entries(table)
    .map(([cidr, name]) => {
      const [address = "", length = ""] = cidr.split("/");
      const prefix = parse(address);
      if (prefix === null) throw new Error(`bad block ${cidr}`);
      return { prefix: prefix >> BigInt(bits - Number(length)), length: Number(length), name };
    })
    .sort((a, b) => b.length - a.length);
}

/**
 * The IANA IPv4 special-purpose registry, its blocks that are not globally reachable, and the
 * multicast range: nothing in them is a public HTTP server.
 */
const IPV4 = blocks(32, parseIPv4, {
  "0.0.0.0/8": "this network",
  "10.0.0.0/8": "private-use",
  "100.64.0.0/10": "shared address space (carrier-grade NAT)",
  "127.0.0.0/8": "loopback",
  "169.254.0.0/16": "link-local (cloud metadata)",
  "172.16.0.0/12": "private-use",
  "192.0.0.0/24": "IETF protocol assignments",
  "192.0.0.9/32": null,
  "192.0.0.10/32": null,
  "192.0.2.0/24": "documentation",
  "192.88.99.0/24": "deprecated 6to4 relay anycast",
  "192.168.0.0/16": "private-use",
  "198.18.0.0/15": "benchmarking",
  "198.51.100.0/24": "documentation",
  "203.0.113.0/24": "documentation",
  "224.0.0.0/4": "multicast",
  "240.0.0.0/4": "reserved",
  "255.255.255.255/32": "limited broadcast",
});

/** The same for IPv6; anything outside global unicast 2000::/3 is refused after these. */
const IPV6 = blocks(128, parseIPv6, {
  "::/128": "unspecified",
  "::1/128": "loopback",
  "::/96": "IPv4-compatible (deprecated)",
  "64:ff9b:1::/48": "local-use IPv4/IPv6 translation",
  "100::/64": "discard-only",
  "100:0:0:1::/64": "dummy prefix",
  "2001::/23": "IETF protocol assignments",
  "2001:1::1/128": null,
  "2001:1::2/128": null,
  "2001:1::3/128": null,
  "2001:2::/48": "benchmarking",
  "2001:3::/32": null,
  "2001:4:112::/48": null,
  "2001:10::/28": "deprecated ORCHID",
  "2001:20::/28": null,
  "2001:30::/28": null,
  "2001:db8::/32": "documentation",
  "3fff::/20": "documentation",
  "5f00::/16": "segment routing",
  "fc00::/7": "unique-local",
  "fe80::/10": "link-local",
  "fec0::/10": "site-local (deprecated)",
  "ff00::/8": "multicast",
});

function blockOf(table: readonly Block[], bits: number, value: bigint): Block | undefined {
  return table.find((block) => value >> BigInt(bits - block.length) === block.prefix);
}

const low32 = (value: bigint) => value & 0xffffffffn;
const LAST_32_BITS = blocks(128, parseIPv6, {
  "::ffff:0:0/96": "IPv4-mapped",
  "::ffff:0:0:0/96": "IPv4-translated",
  "64:ff9b::/96": "NAT64",
});
const SIX_TO_FOUR = blocks(128, parseIPv6, { "2002::/16": "6to4" });
const TEREDO = blocks(128, parseIPv6, { "2001::/32": "Teredo" });

/**
 * The IPv4 addresses an IPv6 address carries, which a host or a translator on the path connects
 * to: mapped, translated and NAT64 in the last 32 bits, 6to4 after the prefix, and both ends of
 * Teredo (the server, and the client obfuscated by inversion).
 */
function embeddedIPv4(value: bigint): { kind: string; addresses: bigint[] } | null {
  const last = blockOf(LAST_32_BITS, 128, value)?.name;
  if (last) return { kind: last, addresses: [low32(value)] };
  if (blockOf(SIX_TO_FOUR, 128, value)) return { kind: "6to4", addresses: [low32(value >> 80n)] };
  if (blockOf(TEREDO, 128, value)) {
    return { kind: "Teredo", addresses: [low32(value >> 64n), low32(value) ^ 0xffffffffn] };
  }
  return null;
}

function ipv4Block(value: bigint): string | null {
  return blockOf(IPV4, 32, value)?.name ?? null;
}

function ipv6Block(value: bigint): string | null {
  const embedded = embeddedIPv4(value);
  if (embedded) {
    for (const v4 of embedded.addresses) {
      const block = ipv4Block(v4);
      if (block) return `${embedded.kind} of ${formatIPv4(v4)}, ${block}`;
    }
    return null;
  }
  const block = blockOf(IPV6, 128, value);
  if (block) return block.name;
  return value >> 125n === 1n ? null : "outside global unicast";
}

/**
 * Why an address is not a public one (the special-purpose block it is in), or null when it is
 * globally reachable. Decided on the address's value, never its spelling; text that is not an
 * address at all is refused.
 */
export function nonPublicBlock(address: string): string | null {
  const parsed = parseIpAddress(address);
  if (!parsed) return "not an IP address";
  return parsed.version === 4 ? ipv4Block(parsed.value) : ipv6Block(parsed.value);
}
