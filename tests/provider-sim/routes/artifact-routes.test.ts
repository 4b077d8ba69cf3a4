import { describe, expect, test } from "bun:test";
import { generatedBytes } from "../../../provider-sim/artifacts/generated-artifact.ts";
import { expectProblemShape } from "../../support/http.ts";
import { createTestSim } from "../harness.ts";

const get = (path: string) => createTestSim().app.handle(new Request(`http://localhost${path}`));

describe("GET /artifacts/:product/:version", () => {
  test("serves a release archive without auth, as an attachment named after product and version", async () => {
    const response = await get("/artifacts/shelfwise/2.4.1");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/octet-stream");
    expect(response.headers.get("content-disposition")).toBe('attachment; filename="shelfwise-2.4.1.tar.gz"');
    expect(await response.text()).toBe("shelfwise 2.4.1 release archive\n");
  });

  test("any product and version made of [a-z0-9._-] is served", async () => {
    const response = await get("/artifacts/my_tool-x/10.0.0-rc.1");
    expect(response.status).toBe(200);
    expect(await response.text()).toBe("my_tool-x 10.0.0-rc.1 release archive\n");
  });

  test.each([
    ["an upper-case name", "/artifacts/Shelfwise/2.4.1"],
    ["a name with a space", "/artifacts/shelf%20wise/2.4.1"],
    ["a name with a quote", "/artifacts/shelfwise/2.4.1%22"],
    ["a name with an encoded slash", "/artifacts/shelfwise/..%2F..%2Fetc"],
    ["a name over 64 characters", `/artifacts/${"a".repeat(65)}/2.4.1`],
  ])("%s is a 404 problem", async (_label, path) => {
    const response = await get(path);
    const body = await response.json();
    expectProblemShape({ status: response.status, headers: response.headers, body }, 404, "ARTIFACT_NOT_FOUND");
  });

  test("a name of exactly 64 characters is served", async () => {
    expect((await get(`/artifacts/${"a".repeat(64)}/1.0.0`)).status).toBe(200);
  });

  test("without a version there is no artifact", async () => {
    expect((await get("/artifacts/shelfwise")).status).toBe(404);
  });
});

describe("byte ranges and generated archives", () => {
  const sim = createTestSim();
  const fetchSim = (path: string, init: RequestInit = {}) =>
    sim.app.handle(new Request(`http://localhost${path}`, init));
  const MB = 1 << 20;

  test("a generated archive has its size, position-dependent bytes and a stable validator", async () => {
    const response = await fetchSim(`/artifacts/generated/${3 * MB + 7}/1.0.0`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-length")).toBe(String(3 * MB + 7));
    expect(response.headers.get("accept-ranges")).toBe("bytes");
    expect(response.headers.get("etag")).toBe(`"generated-${3 * MB + 7}-1.0.0"`);
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(generatedBytes(0, 3 * MB + 7));
  });

  test("a single range is a 206 with Content-Range and exactly its bytes; HEAD sends the headers only", async () => {
    const path = `/artifacts/generated/${2 * MB}/1.0.0`;
    const middle = await fetchSim(path, { headers: { range: `bytes=${MB - 3}-${MB + 4}` } });
    expect(middle.status).toBe(206);
    expect(middle.headers.get("content-range")).toBe(`bytes ${MB - 3}-${MB + 4}/${2 * MB}`);
    expect(new Uint8Array(await middle.arrayBuffer())).toEqual(generatedBytes(MB - 3, 8));
    const suffix = await fetchSim(path, { headers: { range: "bytes=-5" } });
    expect(new Uint8Array(await suffix.arrayBuffer())).toEqual(generatedBytes(2 * MB - 5, 5));
  });

  test("HEAD over HTTP sends the headers a GET would, without the body", async () => {
    const server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: sim.app.fetch });
    try {
      const url = `http://127.0.0.1:${server.port}/artifacts/generated/${MB}/1.0.0`;
      const whole = await fetch(url, { method: "HEAD" });
      expect([whole.status, whole.headers.get("content-length"), await whole.text()]).toEqual([200, String(MB), ""]);
      const part = await fetch(url, { method: "HEAD", headers: { range: "bytes=10-19" } });
      expect([part.status, part.headers.get("content-length"), part.headers.get("content-range")]).toEqual([
        206,
        "10",
        `bytes 10-19/${MB}`,
      ]);
    } finally {
      server.stop(true);
    }
  });

  test("a range past the end is a 416 naming the size", async () => {
    const response = await fetchSim("/artifacts/shelfwise/2.4.1", { headers: { range: "bytes=500-" } });
    expect(response.status).toBe(416);
    expect(response.headers.get("content-range")).toBe("bytes */32");
  });

  test("If-Range applies the range only while the validator matches", async () => {
    const path = "/artifacts/shelfwise/2.4.1";
    const same = await fetchSim(path, { headers: { range: "bytes=0-8", "if-range": '"shelfwise-2.4.1"' } });
    expect([same.status, await same.text()]).toEqual([206, "shelfwise"]);
    const dated = await fetchSim(path, {
      headers: { range: "bytes=0-8", "if-range": "Thu, 01 Jan 2026 00:00:00 GMT" },
    });
    expect(dated.status).toBe(206);
    for (const stale of ['"other"', 'W/"shelfwise-2.4.1"', "Fri, 02 Jan 2026 00:00:00 GMT"]) {
      const full = await fetchSim(path, { headers: { range: "bytes=0-8", "if-range": stale } });
      expect([stale, full.status, await full.text()]).toEqual([stale, 200, "shelfwise 2.4.1 release archive\n"]);
    }
  });

  test("a size over the cap or not a number is a 404", async () => {
    for (const bytes of [String(2 ** 30 + 1), "12x", "-1"]) {
      expect((await fetchSim(`/artifacts/generated/${bytes}/1.0.0`)).status).toBe(404);
    }
  });
});
