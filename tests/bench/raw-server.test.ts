import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startRaw } from "../../bench/catalog.ts";

const dir = mkdtempSync(join(tmpdir(), "raw-server-"));
const BODY = '{"items":[]}';
const HEADERS = {
  "content-type": "application/json;charset=utf-8",
  etag: '"abc"',
  "cache-control": "no-cache",
  "x-request-id": "captured-id",
};

let raw: Awaited<ReturnType<typeof startRaw>>;
let contract: Awaited<ReturnType<typeof startRaw>>;
beforeAll(async () => {
  writeFileSync(join(dir, "body"), BODY);
  writeFileSync(join(dir, "headers.json"), JSON.stringify(HEADERS));
  raw = await startRaw([join(dir, "body"), "0", join(dir, "headers.json")]);
  contract = await startRaw([join(dir, "body"), "0", join(dir, "headers.json"), "--contract"]);
});
afterAll(async () => {
  for (const server of [raw, contract]) server?.proc.kill();
  rmSync(dir, { recursive: true, force: true });
});

describe("the catalog's floors (bench/raw-server.ts)", () => {
  test("the raw server answers the captured bytes and headers, whatever is asked", async () => {
    const response = await fetch(`${raw.url}/api/products?limit=5`, { headers: { "if-none-match": '"abc"' } });
    expect(response.status).toBe(200);
    expect(await response.text()).toBe(BODY);
    expect(response.headers.get("x-request-id")).toBe("captured-id");
  });

  test("the contract's floor gives every answer a fresh request id, and keeps a caller's sane one", async () => {
    const ids = await Promise.all(
      [1, 2, 3].map(async () => {
        const response = await fetch(`${contract.url}/api/products`);
        expect(response.status).toBe(200);
        expect(await response.text()).toBe(BODY);
        expect(response.headers.get("etag")).toBe('"abc"');
        return response.headers.get("x-request-id");
      }),
    );
    expect(new Set(ids).size).toBe(3);
    expect(ids).not.toContain("captured-id");
    const own = await fetch(`${contract.url}/api/products`, { headers: { "x-request-id": "mine-1" } });
    expect(own.headers.get("x-request-id")).toBe("mine-1");
    const insane = await fetch(`${contract.url}/api/products`, { headers: { "x-request-id": "not sane!" } });
    expect(insane.headers.get("x-request-id")).not.toBe("not sane!");
  });

  test("the contract's floor revalidates with a 304 and does not serve a query string the first page", async () => {
    const fresh = await fetch(`${contract.url}/api/products`, { headers: { "if-none-match": '"abc"' } });
    expect(fresh.status).toBe(304);
    expect(fresh.headers.get("etag")).toBe('"abc"');
    expect(fresh.headers.get("cache-control")).toBe("no-cache");
    expect((await fetch(`${contract.url}/api/products?limit=5`)).status).toBe(404);
  });
});
