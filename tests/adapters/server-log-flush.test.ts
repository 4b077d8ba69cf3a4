import { afterAll, describe, expect, test } from "bun:test";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createTestDatabase } from "../support/database.ts";
import { type RunningService, startService } from "../support/process.ts";

const running: RunningService[] = [];
const dirs: string[] = [];
afterAll(async () => {
  for (const service of running) if (service.proc.exitCode === null) service.proc.kill("SIGKILL");
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

/** The access lines of a process's output for targets under `prefix`. */
const accessLines = (output: string, prefix: string) =>
  output
    .split("\n")
    .filter((line) => line.includes('"msg":"request"'))
    .map((line) => JSON.parse(line) as { req_id: string; path: string; status: number })
    .filter((line) => line.path.startsWith(prefix));

describe("the marketplace process's access log", () => {
  test("SIGTERM right after a burst of requests: exactly one line per request, none lost", async () => {
    const db = await createTestDatabase();
    const dataDir = await mkdtemp(join(tmpdir(), "mkt-log-flush-"));
    dirs.push(dataDir);
    try {
      const service = await startService("adapters/main.ts", {
        DATABASE_URL: db.url,
        DATA_DIR: dataDir,
        LOG_LEVEL: "info",
        SEED_DEMO_CATALOG: "true",
      });
      running.push(service);
      // Cached reads answered before Elysia and reads Elysia answers (a query string), interleaved.
      const targets = ["/api/products", "/api/products/tillpoint-pos", "/api/products?limit=5"];
      const count = 3000;
      let next = 0;
      const lane = async () => {
        while (next < count) {
          const i = next++;
          const response = await fetch(`${service.url}${targets[i % targets.length]}`, {
            headers: { "x-request-id": `burst-${i}` },
          });
          await response.arrayBuffer();
          expect(response.status).toBe(200);
        }
      };
      await Promise.all(Array.from({ length: 16 }, lane));
      expect(await service.stop("SIGTERM")).toBe(0);

      const lines = accessLines(await service.output(), "/api/products");
      expect(lines).toHaveLength(count);
      expect(new Set(lines.map((line) => line.req_id)).size).toBe(count);
      expect(lines.every((line) => line.status === 200)).toBe(true);
    } finally {
      await db.drop();
    }
  }, 60_000);
});
