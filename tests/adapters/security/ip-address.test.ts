import { describe, expect, test } from "bun:test";
import { formatIPv4, parseIPv4, parseIPv6, parseIpAddress } from "../../../adapters/security/ip-address.ts";

const LOOPBACK_V4 = 0x7f000001n;

describe("parseIPv4 reads every spelling inet_aton and URL parsers accept", () => {
  test.each([
    "127.0.0.1",
    "127.0.0.1.",
    "127.1",
    "127.0.1",
    "0177.0.0.1",
    "0177.1",
    "0x7f.1",
    "0x7F.0x0.0x0.0x1",
    "0x7f000001",
    "2130706433",
    "017700000001",
  ])("%s is 127.0.0.1", (text) => {
    expect(parseIPv4(text)).toBe(LOOPBACK_V4);
  });

  test.each(["", "1.2.3.4.5", "256.0.0.1", "1.2.3.256", "1.2.65536", "4294967296", "08.0.0.1", "1..2", "example.com"])(
    "%s is not an IPv4 address",
    (text) => {
      expect(parseIPv4(text)).toBeNull();
    },
  );
});

describe("parseIPv6", () => {
  test.each([
    ["::1", 1n],
    ["[::1]", 1n],
    ["0:0:0:0:0:0:0:1", 1n],
    ["::", 0n],
    ["::ffff:127.0.0.1", 0xffff7f000001n],
    ["::ffff:7f00:1", 0xffff7f000001n],
    ["fe80::1%eth0", (0xfe80n << 112n) + 1n],
    ["1:2:3:4:5:6:7:8", 0x00010002000300040005000600070008n],
  ])("%s", (text, value) => {
    expect(parseIPv6(text)).toBe(value);
  });

  test.each(["1:2:3:4:5:6:7", "1::2::3", "1:2:3:4:5:6:7:8:9", "::12345", "1.2.3.4::", "::1.2.3", "::g"])(
    "%s is not an IPv6 address",
    (text) => {
      expect(parseIPv6(text)).toBeNull();
    },
  );
});

test("parseIpAddress tells versions and names apart", () => {
  expect(parseIpAddress("0x7f.1")).toEqual({ version: 4, value: LOOPBACK_V4 });
  expect(parseIpAddress("::1")).toEqual({ version: 6, value: 1n });
  expect(parseIpAddress("api.stripe.com")).toBeNull();
  expect(parseIpAddress("localhost.")).toBeNull();
});

test("formatIPv4 writes dotted decimal", () => {
  expect(formatIPv4(LOOPBACK_V4)).toBe("127.0.0.1");
  expect(formatIPv4(0xa9fea9fen)).toBe("169.254.169.254");
});
