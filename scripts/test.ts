/**
 * `npm test`: picks the database backend, runs `bun test` against it and cleans up.
 * Order: DATABASE_URL, else a throwaway cluster from local PostgreSQL binaries, else PGlite.
 * Extra arguments go to `bun test` (e.g. a path filter).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { KNOWN_SECRETS } from "../tests/support/known-secrets.ts";
import { scanLogDirectory } from "./lib/log-scan.ts";
import { findPostgresBin, type PostgresCluster, startPostgresCluster } from "./lib/postgres-cluster.ts";

let cluster: PostgresCluster | undefined;
let backend: string;
let adminUrl: string | undefined = process.env.DATABASE_URL;

if (adminUrl) {
  backend = "PostgreSQL from DATABASE_URL";
} else if (findPostgresBin()) {
  cluster = await startPostgresCluster();
  adminUrl = cluster.url;
  backend = `throwaway PostgreSQL cluster on port ${cluster.port}`;
} else {
  backend = "embedded PGlite (no PostgreSQL binaries found)";
}
console.log(`test database backend: ${backend}`);

const logDir = mkdtempSync(join(tmpdir(), "marketplace-test-logs-"));
const cleanup = async () => {
  await cluster?.remove();
  rmSync(logDir, { recursive: true, force: true });
};
process.on("SIGINT", () => void cleanup().then(() => process.exit(130)));
process.on("SIGTERM", () => void cleanup().then(() => process.exit(143)));

const proc = Bun.spawn(["bun", "test", ...process.argv.slice(2)], {
  stdio: ["inherit", "inherit", "inherit"],
  env: {
    ...process.env,
    NODE_ENV: "test",
    TEST_DATABASE_URL: adminUrl ?? "",
    TEST_DATABASE_BACKEND: adminUrl ? "postgres" : "pglite",
    TEST_LOG_DIR: logDir,
  },
});
let code = await proc.exited;
// Everything the run logged, scanned for secrets: any finding fails the run.
const scan = scanLogDirectory(logDir, KNOWN_SECRETS);
for (const finding of scan.findings.slice(0, 20)) {
  console.error(`log scan: ${finding.file}:${finding.line} holds ${finding.what}`);
}
console.log(`log scan: ${scan.lines} lines in ${scan.files} files, ${scan.findings.length} secrets found`);
if (scan.findings.length > 0 && code === 0) code = 1;
await cleanup();
console.log(`test database backend: ${backend}`);
console.log(
  adminUrl
    ? "skipped: none by backend (every test ran against a real PostgreSQL server)"
    : "skipped: tests marked server-only (LISTEN/NOTIFY across connections, several instances); see the skip count above",
);
process.exit(code);
