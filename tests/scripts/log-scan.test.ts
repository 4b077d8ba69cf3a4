import { describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createLogger } from "../../kit/logger.ts";
import { scanLogDirectory, scanLogText } from "../../scripts/lib/log-scan.ts";

const SECRET = "very-secret-value-0123456789";

describe("log scan", () => {
  test("finds a known secret value, wherever it sits in a line", () => {
    const findings = scanLogText(`{"msg":"ok"}\n{"msg":"calling","detail":"key=${SECRET}"}\n`, [SECRET]);
    expect(findings).toEqual([{ line: 2, what: expect.stringContaining("secret value") }]);
  });

  test.each([
    ['{"headers":{"authorization":"Bearer abcdefghijkl"}}', "a bearer token"],
    ['{"jwt":"eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.sig"}', "a JSON Web Token"],
    ['{"password":"hunter2hunter2"}', "a password field"],
    ['{"key":"sk_test_abcdef123456"}', "a Stripe secret key"],
    ['{"secret":"whsec_abcdef123456"}', "a webhook signing secret"],
    // Assembled, so the repository never holds a line shaped like key material.
    [["-----BEGIN", "PRIVATE", "KEY-----"].join(" "), "a private key"],
    ['{"path":"/api/downloads/eyJlIjoiMSJ9.abc123"}', "a signed download token"],
    ['{"path":"/api/orders?limit=5&access_token=abc123"}', "a credential in a query string"],
    ['{"path":"/x?Signature=abc123&limit=2"}', "a credential in a query string"],
    ['{"path":"/orders/o-1?access=9f3ea1&checkout=success"}', "a signed link's access"],
  ])("recognizes %s as %s", (line, what) => {
    expect(scanLogText(line, [])).toEqual([{ line: 1, what }]);
  });

  test("the production logger's redaction passes the scan", () => {
    const lines: string[] = [];
    const logger = createLogger({ level: "info", destination: { write: (line: string) => void lines.push(line) } });
    logger.info({ password: SECRET, headers: { authorization: `Bearer ${SECRET}` }, api_key: SECRET }, "sign in");
    expect(lines).toHaveLength(1);
    expect(scanLogText(lines.join(""), [SECRET])).toEqual([]);
  });

  test("redacted targets pass the scan", () => {
    const lines = ['{"path":"/api/downloads/[redacted]"}', '{"path":"/api/orders?limit=5&access_token=[redacted]"}'];
    expect(scanLogText(lines.join("\n"), [])).toEqual([]);
  });

  test("scans every file of a directory and counts its lines", () => {
    const directory = mkdtempSync(join(tmpdir(), "log-scan-"));
    try {
      writeFileSync(join(directory, "a.log"), '{"msg":"one"}\n{"msg":"two"}\n');
      writeFileSync(join(directory, "b.log"), `{"msg":"${SECRET}"}\n`);
      const scan = scanLogDirectory(directory, [SECRET]);
      expect(scan).toEqual({ files: 2, lines: 3, findings: [expect.objectContaining({ file: "b.log", line: 1 })] });
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });
});
