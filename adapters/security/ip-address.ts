/** An IP address as a number: 32 bits for version 4, 128 for version 6. */
export interface IpAddress {
  readonly version: 4 | 6;
  readonly value: bigint;
}

function ipv4Part(part: string): bigint | null {
  if (/^0x[0-9a-f]*$/i.test(part)) return part.length === 2 ? 0n : BigInt(part);
  if (/^0[0-7]+$/.test(part)) return BigInt(`0o${part.slice(1)}`);
  if (/^(0|[1-9][0-9]*)$/.test(part)) return BigInt(part);
  return null;
}

/**
 * IPv4 as `inet_aton` and the WHATWG URL parser read it: one to four parts, each decimal, octal
 * (leading 0) or hex (0x), the last filling the remaining bytes, so `127.1`, `0177.0.0.1`,
 * `0x7f.1` and `2130706433` are all 127.0.0.1.
 */
export function parseIPv4(text: string): bigint | null {
  const parts = text.split(".");
  if (parts.length > 1 && parts.at(-1) === "") parts.pop();
  if (parts.length > 4) return null;
  const numbers = parts.map(ipv4Part);
  const last = numbers.pop();
  if (last === null || last === undefined) return null;
  let value = 0n;
  for (const [index, part] of numbers.entries()) {
    if (part === null || part > 255n) return null;
    value += part << BigInt(8 * (3 - index));
  }
  return last < 1n << BigInt(8 * (4 - numbers.length)) ? value + last : null;
}

function dottedQuad(text: string): bigint | null {
  const match = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(text);
  if (!match) return null;
  const bytes = match.slice(1).map(Number);
  return bytes.every((byte) => byte <= 255) ? bytes.reduce((value, byte) => (value << 8n) + BigInt(byte), 0n) : null;
}

/** IPv6 text (RFC 4291: `::`, a trailing dotted quad, brackets, a zone id) as 128 bits. */
export function parseIPv6(text: string): bigint | null {
  // A zone names the interface to leave by, not a different address.
  const body = text.replace(/^\[(.*)\]$/, "$1").replace(/%.*$/, "");
  const halves = body.split("::");
  if (halves.length > 2) return null;
  const words: (bigint | null)[][] = halves.map((half, index) => {
    if (half === "") return [];
    const groups = half.split(":");
    const last = groups.at(-1) ?? "";
    // Only the address's final 32 bits may be written as a dotted quad.
    const quad = index === halves.length - 1 && last.includes(".") ? dottedQuad(last) : undefined;
    const hex = (quad === undefined ? groups : groups.slice(0, -1)).map((group) =>
      /^[0-9a-f]{1,4}$/i.test(group) ? BigInt(`0x${group}`) : null,
    );
    if (quad === undefined) return hex;
    return quad === null ? [null] : [...hex, quad >> 16n, quad & 0xffffn];
  });
  const [head = [], tail = []] = words;
  const count = head.length + tail.length;
  if (halves.length === 1 ? count !== 8 : count > 7) return null;
  const all = [...head, ...Array<bigint>(8 - count).fill(0n), ...tail];
  let value = 0n;
  for (const word of all) {
    if (word === null) return null;
    value = (value << 16n) + word;
  }
  return value;
}

/** An address in any spelling above, or null when the text is not an IP address (a host name). */
export function parseIpAddress(text: string): IpAddress | null {
  const v4 = parseIPv4(text);
  if (v4 !== null) return { version: 4, value: v4 };
  const v6 = text.includes(":") ? parseIPv6(text) : null;
  return v6 === null ? null : { version: 6, value: v6 };
}

export function formatIPv4(value: bigint): string {
  return [24n, 16n, 8n, 0n].map((shift) => String((value >> shift) & 255n)).join(".");
}
