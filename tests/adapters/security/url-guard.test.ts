import { describe, expect, test } from "bun:test";
import { checkOutboundUrl, isBlockedAddress } from "../../../adapters/security/url-guard.ts";

describe("isBlockedAddress", () => {
  test.each([
    "127.0.0.1",
    "127.255.0.9",
    "0.0.0.0",
    "10.1.2.3",
    "172.16.0.1",
    "172.31.255.255",
    "192.168.0.10",
    "169.254.169.254",
    "100.64.0.1",
    "224.0.0.1",
    "::1",
    "::",
    "fe80::1",
    "fd00::1",
    "::ffff:127.0.0.1",
    "::ffff:169.254.169.254",
    "::ffff:a9fe:a9fe",
  ])("%s is refused", (address) => {
    expect(isBlockedAddress(address)).toBe(true);
  });

  test.each(["93.184.216.34", "8.8.8.8", "172.32.0.1", "100.128.0.1", "2606:4700::1111"])("%s is public", (address) => {
    expect(isBlockedAddress(address)).toBe(false);
  });
});

describe("checkOutboundUrl", () => {
  test.each([
    "http://127.0.0.1:8080/",
    "http://[::1]:8080/",
    "http://169.254.169.254/latest/meta-data/",
    "http://10.0.0.5/",
    "https://192.168.1.1/",
    "http://localhost:3000/",
    "http://[::ffff:7f00:1]/",
    "http://2130706433/",
  ])("%s is refused before any connection", async (url) => {
    const check = await checkOutboundUrl(url, false);
    expect(check.ok).toBe(false);
  });

  test.each(["file:///etc/passwd", "gopher://127.0.0.1:70/", "ftp://93.184.216.34/", "data:text/plain,x"])(
    "scheme of %s is refused even when private addresses are allowed",
    async (url) => {
      const check = await checkOutboundUrl(url, true);
      expect(check).toEqual({ ok: false, reason: expect.stringContaining("scheme") });
    },
  );

  test("credentials in the URL are refused", async () => {
    expect((await checkOutboundUrl("https://user:pass@93.184.216.34/", true)).ok).toBe(false);
  });

  test("a public address literal passes", async () => {
    expect(await checkOutboundUrl("https://93.184.216.34/api", false)).toEqual({ ok: true });
  });

  test("a name that does not resolve is refused", async () => {
    const check = await checkOutboundUrl("https://no-such-host.invalid/", false);
    expect(check).toEqual({ ok: false, reason: "the host does not resolve" });
  });

  test("allowing private addresses lets loopback through", async () => {
    expect(await checkOutboundUrl("http://127.0.0.1:8080/", true)).toEqual({ ok: true });
  });
});
