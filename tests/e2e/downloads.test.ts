import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createDownloadTokens } from "../../adapters/security/download-tokens.ts";
import { generatedBytes } from "../../provider-sim/artifacts/generated-artifact.ts";
import { aLicenseProduct } from "../support/builders/products.ts";
import { TEST_JWT_SECRET } from "../support/credentials.ts";
import { useTestDatabase } from "../support/database.ts";
import { buyAndPay, createProduct, eventually, http, registerCustomer, useE2e } from "../support/e2e.ts";

const db = useTestDatabase();
const e2e = useE2e(db);

const SIZE = 3 * 1024 * 1024 + 11;
const FILE = generatedBytes(0, SIZE);

/** An archive server that promises 1 MB, sends 100 KB and hangs up. */
const cutting = Bun.listen({
  hostname: "127.0.0.1",
  port: 0,
  socket: {
    data(socket) {
      socket.write("HTTP/1.1 200 OK\r\ncontent-length: 1048576\r\n\r\n");
      socket.write(new Uint8Array(100_000));
      setTimeout(() => socket.end(), 50);
    },
  },
});
afterAll(() => cutting.stop(true));

/** Download link tokens, by what their product's archive is. */
const links: Record<"generated" | "cut" | "missing", string> = { generated: "", cut: "", missing: "" };
/** Everything that says where the archives live: none of it may reach the customer. */
let addresses: string[] = [];

beforeAll(async () => {
  const customer = await registerCustomer(e2e);
  const sources = {
    generated: `${e2e.sim.url}/artifacts/generated/${SIZE}`,
    cut: `http://127.0.0.1:${cutting.port}/releases`,
    missing: `${e2e.sim.url}/artifacts/NOT-A-NAME`,
  };
  addresses = [e2e.sim.url, `127.0.0.1:${cutting.port}`, "/artifacts/", "/releases"];
  const products: Record<string, keyof typeof links> = {};
  for (const [kind, source] of Object.entries(sources) as [keyof typeof links, string][]) {
    const product = await createProduct(
      e2e,
      aLicenseProduct({
        default_release_version: "1.0.0",
        fulfillment_config: { license_type: "commercial", artifact_source: source, max_activations: 1 },
      }),
    );
    products[product.id] = kind;
  }
  await buyAndPay(
    e2e,
    customer,
    Object.keys(products).map((product_id) => ({ product_id, variant: "regular" })),
    "gateway_a",
  );
  const items = await eventually(
    async () => {
      const listed = (await http(e2e.url, "GET", "/api/licenses", { token: customer.token })).body.items as {
        product_id: string;
        download_url: string;
      }[];
      return listed.length === 3 && listed.every((item) => item.download_url) ? listed : undefined;
    },
    10_000,
    "three licenses with download links",
  );
  for (const item of items) {
    const kind = products[item.product_id];
    if (kind) links[kind] = item.download_url.split("/api/downloads/")[1] ?? "";
  }
}, 30_000);

const download = (token: string, headers: Record<string, string> = {}, method = "GET") =>
  fetch(`${e2e.url}/api/downloads/${token}`, { method, headers, redirect: "manual" });

/** Fails when any header or the body of an answer names where an archive lives. */
async function expectNoAddress(response: Response) {
  const text = [...response.headers].map(([name, value]) => `${name}: ${value}`).join("\n");
  const body = response.headers.get("content-type")?.includes("json") ? await response.text() : "";
  for (const address of addresses) {
    expect(`${text}\n${body}`).not.toContain(address);
  }
  return body;
}

describe("downloading through the marketplace", () => {
  test("the whole archive arrives byte for byte from the marketplace's own address", async () => {
    const response = await download(links.generated);
    expect(response.status).toBe(200);
    expect(response.headers.get("accept-ranges")).toBe("bytes");
    expect(response.headers.get("cache-control")).toBe("private, no-store");
    await expectNoAddress(response);
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(FILE);
  });

  test("ranges: one range is a 206 of exactly its bytes, past the end a 416, several the whole file", async () => {
    for (const [range, start, end] of [
      ["bytes=0-99", 0, 99],
      [`bytes=${SIZE - 1000}-`, SIZE - 1000, SIZE - 1],
      ["bytes=-4096", SIZE - 4096, SIZE - 1],
      ["bytes=1048570-2097160", 1048570, 2097160],
    ] as const) {
      const response = await download(links.generated, { range });
      expect([range, response.status, response.headers.get("content-range")]).toEqual([
        range,
        206,
        `bytes ${start}-${end}/${SIZE}`,
      ]);
      expect(new Uint8Array(await response.arrayBuffer())).toEqual(FILE.slice(start, end + 1));
    }
    const past = await download(links.generated, { range: `bytes=${SIZE}-` });
    expect([past.status, past.headers.get("content-range")]).toEqual([416, `bytes */${SIZE}`]);
    expect(await past.json()).toMatchObject({ code: "RANGE_NOT_SATISFIABLE" });
    const several = await download(links.generated, { range: "bytes=0-1,10-11" });
    expect(several.status).toBe(200);
    expect((await several.arrayBuffer()).byteLength).toBe(SIZE);
  });

  test("If-Range resumes only the same archive", async () => {
    const etag = (await download(links.generated, {}, "HEAD")).headers.get("etag") ?? "";
    const same = await download(links.generated, { range: "bytes=10-19", "if-range": etag });
    expect([same.status, (await same.arrayBuffer()).byteLength]).toEqual([206, 10]);
    const other = await download(links.generated, { range: "bytes=10-19", "if-range": '"another-build"' });
    expect([other.status, (await other.arrayBuffer()).byteLength]).toEqual([200, SIZE]);
  });

  test("HEAD gives the size and validators a download would get, without a body", async () => {
    const whole = await download(links.generated, {}, "HEAD");
    expect([whole.status, whole.headers.get("content-length"), whole.headers.get("etag")]).toEqual([
      200,
      String(SIZE),
      `"generated-${SIZE}-1.0.0"`,
    ]);
    const part = await download(links.generated, { range: "bytes=5-9" }, "HEAD");
    expect([part.status, part.headers.get("content-length"), part.headers.get("content-range")]).toEqual([
      206,
      "5",
      `bytes 5-9/${SIZE}`,
    ]);
    await expectNoAddress(part);
  });
});

describe("a link that is no longer good stops at once", () => {
  const claimsOf = (token: string) =>
    JSON.parse(Buffer.from(token.split(".")[0] ?? "", "base64url").toString("utf8")) as { e: string; c: string };

  test("revoked between two ranges of one download: the next range is a 410", async () => {
    const first = await download(links.generated, { range: "bytes=0-1048575" });
    expect(first.status).toBe(206);
    expect(new Uint8Array(await first.arrayBuffer())).toEqual(FILE.slice(0, 1048576));
    const { e: entitlement } = claimsOf(links.generated);
    await db.current.sql`update download_entitlements set revoked_at = now() where id = ${entitlement}`;
    try {
      for (const method of ["GET", "HEAD"]) {
        const next = await download(links.generated, { range: "bytes=1048576-" }, method);
        expect([method, next.status]).toEqual([method, 410]);
        if (method === "GET") expect(await expectNoAddress(next)).toContain("DOWNLOAD_REVOKED");
      }
    } finally {
      await db.current.sql`update download_entitlements set revoked_at = null where id = ${entitlement}`;
    }
  });

  test("expired between two ranges of one download: the next range is a 410", async () => {
    const { e, c } = claimsOf(links.generated);
    const token = await createDownloadTokens({ secret: TEST_JWT_SECRET, ttlSeconds: 1 }).issue(e, c);
    expect((await download(token, { range: "bytes=0-9" })).status).toBe(206);
    await Bun.sleep(1100);
    const next = await download(token, { range: "bytes=10-19" });
    expect(next.status).toBe(410);
    expect(await next.json()).toMatchObject({ code: "DOWNLOAD_LINK_EXPIRED" });
  });
});

describe("when the archive's server fails", () => {
  test("an archive its server does not have is a 502 problem that does not say where it was looked for", async () => {
    const response = await download(links.missing);
    expect([response.status, response.headers.get("content-type")]).toEqual([502, "application/problem+json"]);
    expect(await expectNoAddress(response)).toContain("DOWNLOAD_SOURCE_FAILED");
  });

  test("a server that hangs up half-way makes the customer's download fail, not end short", async () => {
    const response = await download(links.cut);
    expect(response.status).toBe(200);
    const outcome = await response.arrayBuffer().then(
      (body) => `complete with ${body.byteLength} bytes`,
      () => "failed",
    );
    expect(outcome).toBe("failed");
  });
});
