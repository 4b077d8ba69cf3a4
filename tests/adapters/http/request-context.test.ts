import { beforeAll, describe, expect, test } from "bun:test";
import { createDownloadTokens } from "../../../adapters/security/download-tokens.ts";
import { createAccessLogger } from "../../../kit/logger.ts";
import { scanLogText } from "../../../scripts/lib/log-scan.ts";
import { createTestMarketplace, TEST_JWT_SECRET } from "../../support/app.ts";
import { tokenFor } from "../../support/auth.ts";
import { useTestDatabase } from "../../support/database.ts";
import { call } from "../../support/http.ts";

const db = useTestDatabase();
const lines: string[] = [];
let app: ReturnType<typeof createTestMarketplace>["app"];

beforeAll(() => {
  const accessLogger = createAccessLogger({
    level: "info",
    destination: { write: (line: string) => void lines.push(line) },
  });
  app = createTestMarketplace(db.current.sql, { accessLogger }).app;
});

/** Access lines are written after the answer has gone out. */
const written = () => new Promise((resolve) => setTimeout(resolve, 20));

describe("the access log hides what grants access", () => {
  test("a signed download token, in a routed path, an unrouted one and a query, never reaches the log", async () => {
    const token = await createDownloadTokens({ secret: TEST_JWT_SECRET, ttlSeconds: 900 }).issue(
      crypto.randomUUID(),
      crypto.randomUUID(),
    );
    const customer = await tokenFor("customer");
    lines.length = 0;
    await call(app, "GET", `/api/downloads/${token}`);
    await call(app, "GET", `/api/downloads/${token}/more`);
    await call(app, "GET", `/api/orders?limit=5&access_token=${token}`, { token: customer });
    await written();
    expect(lines).toHaveLength(3);
    const logged = lines.map((line) => (JSON.parse(line) as { path: string }).path);
    expect(logged).toEqual([
      "/api/downloads/[redacted]",
      "/api/downloads/[redacted]/more",
      "/api/orders?limit=5&access_token=[redacted]",
    ]);
    expect(lines.join("\n")).not.toContain(token.split(".")[1] ?? token);
    expect(scanLogText(lines.join("\n"), [token])).toEqual([]);
  });

  test("ids and ordinary query values stay readable for operations", async () => {
    lines.length = 0;
    await call(app, "GET", "/api/products/some-slug?cursor=abc");
    await written();
    expect((JSON.parse(lines[0] ?? "{}") as { path: string }).path).toBe("/api/products/some-slug?cursor=abc");
  });
});
