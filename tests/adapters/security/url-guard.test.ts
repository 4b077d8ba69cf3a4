import { describe, expect, test } from "bun:test";
import { checkOutboundUrl, type HostResolver, vetOutboundUrl } from "../../../adapters/security/url-guard.ts";

/** A resolver that must not be asked: address literals are checked as they are. */
const noDns: HostResolver = async (host) => {
  throw new Error(`${host} was looked up`);
};
const answering =
  (table: Record<string, readonly string[]>): HostResolver =>
  async (host) =>
    table[host] ?? [];
const guarded = (resolve: HostResolver = noDns) => ({ allowPrivate: false, resolve });

describe("checkOutboundUrl with private addresses refused", () => {
  test.each([
    "http://127.0.0.1:8080/",
    "http://127.1/",
    "http://0177.0.0.1/",
    "http://0x7f.1/",
    "http://2130706433/",
    "http://0.0.0.0/",
    "http://100.64.0.1/",
    "http://169.254.169.254/latest/meta-data/",
    "http://10.0.0.5/",
    "https://192.168.1.1/",
    "http://[::1]:8080/",
    "http://[::]/",
    "http://[::127.0.0.1]/",
    "http://[::ffff:7f00:1]/",
    "http://[::ffff:0:7f00:1]/",
    "http://[64:ff9b::7f00:1]/",
    "http://[2002:7f00:1::1]/",
    "http://[fc00::1]/",
    "http://[fe80::1]/",
    "http://[ff02::1]/",
    "http://localhost:3000/",
    "http://localhost./",
    "http://LOCALHOST/",
    "http://api.localhost/",
  ])("%s is refused without asking DNS", async (url) => {
    const check = await checkOutboundUrl(url, guarded());
    expect(check.ok).toBe(false);
  });

  test("a name is refused when any address it resolves to is not public", async () => {
    const resolve = answering({ "mixed.example": ["93.184.216.34", "10.0.0.7"], "v6.example": ["fd00::5"] });
    expect(await checkOutboundUrl("https://mixed.example/", guarded(resolve))).toEqual({
      ok: false,
      reason: "10.0.0.7 is not a public address (private-use)",
    });
    expect((await checkOutboundUrl("https://v6.example/", guarded(resolve))).ok).toBe(false);
  });

  test("a public literal passes, and a public name passes with its checked addresses", async () => {
    expect(await checkOutboundUrl("https://93.184.216.34/api", guarded())).toEqual({ ok: true });
    const resolve = answering({ "api.example": ["2606:4700::1111", "1.1.1.1"] });
    expect(await vetOutboundUrl(new URL("https://api.example/v1"), guarded(resolve))).toEqual({
      ok: true,
      addresses: ["2606:4700::1111", "1.1.1.1"],
    });
  });

  test("a name that does not resolve is refused, as a refusal that may pass later", async () => {
    expect(await checkOutboundUrl("https://no-such-host.invalid/", { allowPrivate: false })).toEqual({
      ok: false,
      reason: "the host does not resolve",
    });
    expect(await vetOutboundUrl(new URL("https://nothing.example/"), guarded(answering({})))).toEqual({
      ok: false,
      reason: "the host does not resolve",
      transient: true,
    });
  });
});

describe("checkOutboundUrl whatever the address policy", () => {
  test.each(["file:///etc/passwd", "gopher://127.0.0.1:70/", "ftp://93.184.216.34/", "data:text/plain,x"])(
    "scheme of %s is refused even when private addresses are allowed",
    async (url) => {
      const check = await checkOutboundUrl(url, { allowPrivate: true });
      expect(check).toEqual({ ok: false, reason: expect.stringContaining("scheme") });
    },
  );

  test("credentials in the URL are refused", async () => {
    expect((await checkOutboundUrl("https://user:pass@93.184.216.34/", { allowPrivate: true })).ok).toBe(false);
  });

  test("allowing private addresses lets loopback through, by name and without resolving", async () => {
    expect(await checkOutboundUrl("http://127.0.0.1:8080/", { allowPrivate: true, resolve: noDns })).toEqual({
      ok: true,
    });
    expect(await vetOutboundUrl(new URL("http://sim.test/"), { allowPrivate: true, resolve: noDns })).toEqual({
      ok: true,
      addresses: [],
    });
  });
});
