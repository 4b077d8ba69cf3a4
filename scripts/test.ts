/**
 * `npm test`: picks the database backend, runs `bun test` against it and cleans up.
 * Order: DATABASE_URL, else a throwaway cluster from local PostgreSQL binaries, else PGlite.
 * Extra arguments go to `bun test` (e.g. a path filter).
 */
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

const cleanup = async () => {
  await cluster?.remove();
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
  },
});
const code = await proc.exited;
await cleanup();
console.log(`test database backend: ${backend}`);
console.log(
  adminUrl
    ? "skipped: none by backend (every test ran against a real PostgreSQL server)"
    : "skipped: tests marked server-only (LISTEN/NOTIFY across connections, several instances); see the skip count above",
);
process.exit(code);
