import { afterAll, describe, expect, test } from "bun:test";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadMigrations } from "../../adapters/postgres/migrate.ts";
import { createTestDatabase, hasRealPostgres } from "../support/database.ts";
import { type RunningService, runToExit, startService } from "../support/process.ts";

const MAIN = "adapters/main.ts";
const running: RunningService[] = [];
const dirs: string[] = [];

afterAll(async () => {
  for (const service of running) if (service.proc.exitCode === null) service.proc.kill("SIGKILL");
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

async function start(env: Record<string, string | undefined>) {
  const scratch = await mkdtemp(join(tmpdir(), "mkt-main-"));
  dirs.push(scratch);
  const service = await startService(MAIN, { DATA_DIR: scratch, ...env });
  running.push(service);
  return service;
}

async function post(url: string, body: unknown) {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, any> };
}

describe("composition root", () => {
  test("embedded mode: a registered user still logs in after a restart", async () => {
    const dataDir = await mkdtemp(join(tmpdir(), "mkt-embedded-"));
    dirs.push(dataDir);
    const env = { DATABASE_URL: undefined, DATA_DIR: dataDir };
    const credentials = { email: "restart@example.com", password: "survives restarts" };

    const first = await start(env);
    expect((await fetch(`${first.url}/health`)).status).toBe(200);
    const catalog = (await (await fetch(`${first.url}/api/products`)).json()) as { items: { slug: string }[] };
    expect(catalog.items.map((p) => p.slug)).toContain("tillpoint-pos");
    expect((await post(`${first.url}/api/auth/register`, { ...credentials, name: "Re Start" })).status).toBe(201);
    expect(await first.stop()).toBe(0);

    const second = await start(env);
    const login = await post(`${second.url}/api/auth/login`, credentials);
    expect(login.status).toBe(200);
    expect(login.body.user.email).toBe(credentials.email);
    expect(await second.stop()).toBe(0);
  }, 60_000);

  test.skipIf(!hasRealPostgres)(
    "two instances starting together on one database apply migrations once",
    async () => {
      const db = await createTestDatabase({ migrated: false });
      try {
        const [a, b] = await Promise.all([start({ DATABASE_URL: db.url }), start({ DATABASE_URL: db.url })]);
        for (const instance of [a, b]) expect((await fetch(`${instance.url}/ready`)).status).toBe(200);
        const rows = await db.sql<{ version: number }[]>`select version from schema_migrations order by version`;
        expect(rows.map((r) => r.version)).toEqual((await loadMigrations()).map((m) => m.version));
        const [catalog] = await db.sql<{ n: number }[]>`select count(*)::int as n from products`;
        expect(catalog?.n).toBe(4);
        expect(await a.stop()).toBe(0);
        expect(await b.stop()).toBe(0);
        const logs = (await a.output()) + (await b.output());
        expect(logs).not.toContain('"level":"fatal"');
        expect(logs).not.toContain('"level":"error"');
      } finally {
        await db.drop();
      }
    },
    60_000,
  );

  test("SIGTERM finishes the in-flight request, then exits 0 and stops listening", async () => {
    const db = await createTestDatabase();
    try {
      const service = await start({ DATABASE_URL: db.url });
      // argon2id at production cost takes long enough for the signal to land mid-request.
      const inFlight = post(`${service.url}/api/auth/register`, {
        email: "inflight@example.com",
        password: "finish me please",
        name: "In Flight",
      });
      await Bun.sleep(15);
      service.proc.kill("SIGTERM");
      expect((await inFlight).status).toBe(201);
      expect(await service.proc.exited).toBe(0);
      expect(await service.output()).toContain("shutdown complete");
      await expect(fetch(`${service.url}/health`)).rejects.toThrow();
      const [user] = await db.sql`select email from users where email = 'inflight@example.com'`;
      expect(user).toBeDefined();
    } finally {
      await db.drop();
    }
  }, 60_000);

  test("ADMIN_EMAIL and ADMIN_PASSWORD create the admin, and a restart updates its password", async () => {
    const db = await createTestDatabase();
    try {
      const first = await start({
        DATABASE_URL: db.url,
        ADMIN_EMAIL: "root@example.com",
        ADMIN_PASSWORD: "first admin pw",
      });
      const login = await post(`${first.url}/api/auth/login`, {
        email: "root@example.com",
        password: "first admin pw",
      });
      expect(login.body.user.role).toBe("admin");
      await first.stop();
      const second = await start({
        DATABASE_URL: db.url,
        ADMIN_EMAIL: "root@example.com",
        ADMIN_PASSWORD: "second admin pw",
      });
      expect(
        (await post(`${second.url}/api/auth/login`, { email: "root@example.com", password: "first admin pw" })).status,
      ).toBe(401);
      expect(
        (await post(`${second.url}/api/auth/login`, { email: "root@example.com", password: "second admin pw" })).status,
      ).toBe(200);
      await second.stop();
      const logs = (await first.output()) + (await second.output());
      expect(logs).not.toContain("first admin pw");
      expect(logs).not.toContain("second admin pw");
    } finally {
      await db.drop();
    }
  }, 60_000);

  test.each([
    ["PORT", "abc"],
    ["DATABASE_URL", "mysql://nope"],
    ["JWT_SECRET", "short"],
  ])("%s=%s stops the process with one line naming the variable", async (name, value) => {
    const { code, stdout, stderr } = await runToExit(MAIN, { [name]: value });
    expect(code).not.toBe(0);
    const lines = `${stdout}${stderr}`.trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(name);
  });
});
