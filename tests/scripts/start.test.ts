import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import nodemailer from "nodemailer";
import { DEMO_ADMIN_EMAIL, DEMO_ADMIN_PASSWORD } from "../../scripts/lib/demo-admin.ts";
import { freePort } from "../../scripts/lib/postgres-cluster.ts";
import { runToExit } from "../support/process.ts";

const BANNER_TIMEOUT_MS = 60_000;
const TEST_TIMEOUT_MS = BANNER_TIMEOUT_MS + 30_000;
const dataDirs: string[] = [];
afterAll(() => {
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
});

/** Collects a stream into a string as it arrives, so the pipe never fills while the test waits. */
function collect(stream: ReadableStream<Uint8Array>) {
  const decoder = new TextDecoder();
  let text = "";
  const done = stream.pipeTo(
    new WritableStream({
      write(chunk) {
        text += decoder.decode(chunk, { stream: true });
      },
    }),
  );
  return { text: () => text, done };
}

/** `bun scripts/start.ts` on free ports and an empty embedded database, with the banner awaited. */
async function startAll(env: Record<string, string> = {}) {
  const [port, simPort, smtpPort] = [await freePort(), await freePort(), await freePort()];
  const dataDir = mkdtempSync(join(tmpdir(), "start-test-"));
  dataDirs.push(dataDir);
  // Nothing from the test run's environment may point the marketplace elsewhere or name an admin.
  const { DATABASE_URL, ADMIN_EMAIL, ADMIN_PASSWORD, PUBLIC_BASE_URL, SMTP_URL, MAIL_FROM, OPS_EMAIL, ...inherited } =
    process.env;
  const proc = Bun.spawn(["bun", "scripts/start.ts"], {
    env: {
      ...inherited,
      NODE_ENV: "test",
      LOG_LEVEL: "warn",
      PORT: String(port),
      PROVIDER_SIM_PORT: String(simPort),
      PROVIDER_SIM_SMTP_PORT: String(smtpPort),
      DATA_DIR: dataDir,
      ...env,
    },
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  const stdout = collect(proc.stdout);
  const stderr = collect(proc.stderr);
  const running = {
    proc,
    marketplace: `http://127.0.0.1:${port}`,
    sim: `http://127.0.0.1:${simPort}`,
    smtpUrl: `smtp://127.0.0.1:${smtpPort}`,
    stdout: stdout.text,
    /** Stops it if a test left it running; SIGKILL only when SIGTERM did not work. */
    async cleanup() {
      if (proc.exitCode === null) {
        proc.kill("SIGTERM");
        await Promise.race([proc.exited, Bun.sleep(15_000)]);
        if (proc.exitCode === null) proc.kill("SIGKILL");
      }
      await Promise.all([stdout.done, stderr.done]);
    },
  };
  const deadline = Date.now() + BANNER_TIMEOUT_MS;
  while (!stdout.text().includes("npm run demo")) {
    if (proc.exitCode !== null || Date.now() > deadline) {
      await running.cleanup();
      throw new Error(`no banner (exit ${proc.exitCode}):\n${stdout.text()}\n${stderr.text()}`);
    }
    await Bun.sleep(100);
  }
  return running;
}

const statusOf = (url: string) =>
  fetch(url, { signal: AbortSignal.timeout(2_000) }).then(
    (response) => response.status,
    () => null,
  );

/** The subjects in the simulator's mail sandbox, newest first. */
async function mailboxSubjects(simUrl: string): Promise<string[]> {
  const response = await fetch(`${simUrl}/__sim/mail?format=json`);
  return ((await response.json()) as { items: { subject: string }[] }).items.map((mail) => mail.subject);
}

async function postJson(url: string, body: unknown, token?: string) {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  return (await response.json()) as any;
}

const login = (baseUrl: string, email: string, password: string) =>
  fetch(`${baseUrl}/api/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, password }),
  });

describe("npm start (scripts/start.ts)", () => {
  test(
    "prints a banner with both URLs and the demo admin once both are up; SIGTERM stops both and exits 0",
    async () => {
      const running = await startAll();
      try {
        const banner = running.stdout();
        expect(banner).toContain(`marketplace         ${running.marketplace}`);
        expect(banner).toContain(`${running.marketplace}/openapi`);
        expect(banner).toContain(`admin console       ${running.marketplace}/admin`);
        expect(banner).toContain(`customer account    ${running.marketplace}/account`);
        expect(banner).toContain(`provider simulator  ${running.sim}`);
        expect(banner).toContain(`mailbox             ${running.sim}/__sim/mail`);
        expect(banner).toContain(`${DEMO_ADMIN_EMAIL} / ${DEMO_ADMIN_PASSWORD}`);
        expect(banner).toContain("/api/products/tillpoint-pos");
        expect(banner).toContain("/api/checkout/create");

        expect(await statusOf(`${running.marketplace}/health`)).toBe(200);
        expect(await statusOf(`${running.sim}/health`)).toBe(200);
        // The consoles are served with no build step of their own: the page and what it loads.
        const consolePage = await (await fetch(`${running.marketplace}/admin`)).text();
        const script = consolePage.match(/src="(\/assets\/admin-[^"]+\.js)"/)?.[1];
        expect(script).toBeString();
        expect(await statusOf(`${running.marketplace}${script}`)).toBe(200);
        expect(await statusOf(`${running.marketplace}/account/licenses`)).toBe(200);
        // The banner's admin is the one the marketplace was given.
        const session = await login(running.marketplace, DEMO_ADMIN_EMAIL, DEMO_ADMIN_PASSWORD);
        expect(session.status).toBe(200);
        expect(((await session.json()) as { user: { role: string } }).user.role).toBe("admin");

        running.proc.kill("SIGTERM");
        expect(await running.proc.exited).toBe(0);
        expect(await statusOf(`${running.marketplace}/health`)).toBeNull();
        expect(await statusOf(`${running.sim}/health`)).toBeNull();
      } finally {
        await running.cleanup();
      }
    },
    TEST_TIMEOUT_MS,
  );

  test(
    "the marketplace mails through the simulator's sandbox: the first purchase's email shows in the mailbox",
    async () => {
      const running = await startAll();
      try {
        const mp = running.marketplace;
        const { token } = await postJson(`${mp}/api/auth/register`, {
          email: `ada-${crypto.randomUUID()}@example.com`,
          password: "correct-horse",
          name: "Ada",
        });
        const product = (await (await fetch(`${mp}/api/products/tillpoint-pos`)).json()) as { id: string };
        const order = await postJson(
          `${mp}/api/checkout/create`,
          { items: [{ product_id: product.id, variant: "monthly" }], payment_gateway: "gateway_a" },
          token,
        );
        await fetch(`${running.sim}/checkout/gateway_a/${order.checkout.session_id}/pay`, { method: "POST" });
        const readyEmail = "Your Tillpoint POS is ready";
        const deadline = Date.now() + 30_000;
        while (!(await mailboxSubjects(running.sim)).includes(readyEmail) && Date.now() < deadline)
          await Bun.sleep(250);
        expect(await mailboxSubjects(running.sim)).toContain(readyEmail);

        // The sandbox listens on the port start was given, for any client.
        await nodemailer.createTransport(running.smtpUrl).sendMail({
          from: "someone@example.com",
          to: "ada@example.com",
          subject: "by hand",
          text: "hello",
        });
        expect((await mailboxSubjects(running.sim))[0]).toBe("by hand");
        running.proc.kill("SIGTERM");
        expect(await running.proc.exited).toBe(0);
      } finally {
        await running.cleanup();
      }
    },
    TEST_TIMEOUT_MS,
  );

  test(
    "configured admin credentials and mail server are used as given: no demo admin, no mailbox announced",
    async () => {
      const running = await startAll({
        ADMIN_EMAIL: "ops@example.com",
        ADMIN_PASSWORD: "configured-admin-password",
        SMTP_URL: `smtp://127.0.0.1:${await freePort()}`,
        MAIL_FROM: "Shop <shop@example.com>",
      });
      try {
        expect(running.stdout()).not.toContain(DEMO_ADMIN_EMAIL);
        expect(running.stdout()).not.toContain("/__sim/mail");
        expect((await login(running.marketplace, "ops@example.com", "configured-admin-password")).status).toBe(200);
        expect((await login(running.marketplace, DEMO_ADMIN_EMAIL, DEMO_ADMIN_PASSWORD)).status).toBe(401);
        running.proc.kill("SIGTERM");
        expect(await running.proc.exited).toBe(0);
      } finally {
        await running.cleanup();
      }
    },
    TEST_TIMEOUT_MS,
  );

  test("PORT=abc prints one line naming PORT and exits non-zero without starting anything", async () => {
    const { code, stdout, stderr } = await runToExit("scripts/start.ts", { PORT: "abc" });
    expect(code).not.toBe(0);
    expect(stdout).toBe("");
    const lines = stderr.trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain("PORT");
  });

  test.each(["PORT", "PROVIDER_SIM_PORT", "PROVIDER_SIM_SMTP_PORT"])(
    "%s held by another server: one line naming it, a non-zero exit within seconds, no banner, no stack",
    async (variable) => {
      // Another program on the port that would even answer /ready and /health with 200.
      const squatter = Bun.serve({ port: 0, fetch: () => Response.json({ status: "ready" }) });
      const ports = {
        PORT: String(await freePort()),
        PROVIDER_SIM_PORT: String(await freePort()),
        PROVIDER_SIM_SMTP_PORT: String(await freePort()),
      };
      try {
        const started = performance.now();
        const { code, stdout, stderr } = await runToExit("scripts/start.ts", {
          ...ports,
          [variable]: String(squatter.port),
          DATA_DIR: mkdtempSync(join(tmpdir(), "start-taken-")),
        });
        expect(code).not.toBe(0);
        expect(performance.now() - started).toBeLessThan(5_000);
        expect(stdout).not.toContain("Marketplace is up");
        const lines = stderr.trim().split("\n");
        expect(lines).toHaveLength(1);
        expect(lines[0]).toContain(`port ${squatter.port} (${variable}) is already in use`);
        expect(stderr).not.toContain("    at ");
      } finally {
        squatter.stop(true);
      }
    },
  );

  test(
    "each child names itself in /ready and /health: readiness comes from our own children",
    async () => {
      const running = await startAll();
      try {
        const ready = (await (await fetch(`${running.marketplace}/ready`)).json()) as { instance: string };
        const health = (await (await fetch(`${running.sim}/health`)).json()) as { instance: string };
        expect(ready.instance).toStartWith("marketplace-");
        expect(health.instance).toStartWith("provider-sim-");
        running.proc.kill("SIGTERM");
        expect(await running.proc.exited).toBe(0);
      } finally {
        await running.cleanup();
      }
    },
    TEST_TIMEOUT_MS,
  );
});

describe("npm run demo (scripts/demo.ts)", () => {
  test("with nothing listening it fails within 3 s with one clear line", async () => {
    const started = performance.now();
    const { code, stderr } = await runToExit("scripts/demo.ts", {
      MARKETPLACE_URL: `http://127.0.0.1:${await freePort()}`,
    });
    const elapsed = performance.now() - started;
    expect(code).toBe(1);
    expect(elapsed).toBeLessThan(3_000);
    expect(stderr.trim().split("\n")).toEqual([expect.stringContaining("nothing answers at http://127.0.0.1:")]);
  });
});
