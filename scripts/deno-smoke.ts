/**
 * Second half of `npm run check:deno`: proves the HTTP app runs under Deno, not just type-checks.
 * Starts scripts/deno-smoke-server.ts with Deno (offline, from node_modules) and waits for GET /health.
 */
import { existsSync, realpathSync } from "node:fs";
import { join } from "node:path";

const root = join(import.meta.dir, "..");
const denoBin = join(root, "node_modules", ".bin", "deno");
const TIMEOUT_MS = 30_000;
const env = { ...process.env, DENO_NO_UPDATE_CHECK: "1", NO_COLOR: "1" };

function fail(message: string, details = ""): never {
  console.error(`deno smoke: ${message}`);
  if (details.trim()) console.error(details.trimEnd());
  process.exit(1);
}

if (!existsSync(denoBin)) fail(`${denoBin} not found; run npm ci first`);
const versionRun = Bun.spawnSync([denoBin, "--version"], { env, stdin: "ignore" });
const version = /^deno (\S+)/.exec(versionRun.stdout.toString())?.[1];
if (!versionRun.success || !version) fail("`deno --version` failed", versionRun.stderr.toString());

// With install scripts skipped, .bin/deno is npm's JS shim around the binary, and killing the shim would
// orphan the server. The shim's first run (just above) links the binary into node_modules/deno/.
const resolved = realpathSync(denoBin);
const linked = join(root, "node_modules", "deno", "deno");
const deno = /\.[cm]?js$/.test(resolved) && existsSync(linked) ? linked : resolved;

function freePort(): number {
  const listener = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  const { port } = listener;
  listener.stop(true);
  return port;
}

const port = freePort();
const child = Bun.spawn(
  [
    deno,
    "run",
    "--config=deno.json",
    "--cached-only",
    "--no-prompt",
    `--allow-net=127.0.0.1:${port}`,
    // Read at import time by elysia (NODE_ENV, ENV, ELYSIA_AOT), thread-stream (NODE_V8_COVERAGE) and pino (hostname).
    "--allow-env=NODE_ENV,ENV,ELYSIA_AOT,NODE_V8_COVERAGE",
    "--allow-sys=hostname",
    "scripts/deno-smoke-server.ts",
    String(port),
  ],
  { cwd: root, env, stdin: "ignore", stdout: "pipe", stderr: "pipe" },
);
const output = Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text()]);

async function stopChild(): Promise<void> {
  child.kill("SIGTERM");
  const forced = setTimeout(() => child.kill("SIGKILL"), 5_000);
  await child.exited;
  clearTimeout(forced);
}

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => void stopChild().then(() => process.exit(1)));
}

async function waitForHealth(): Promise<string | undefined> {
  const url = `http://127.0.0.1:${port}/health`;
  const deadline = Date.now() + TIMEOUT_MS;
  let last = "no answer";
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      return `deno exited (${child.exitCode ?? child.signalCode}) before ${url} answered`;
    }
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(2_000) });
      const body = await response.text();
      if (response.status === 200 && (JSON.parse(body) as { status?: unknown }).status === "ok") return undefined;
      last = `${response.status} ${body.slice(0, 200)}`;
    } catch (error) {
      last = error instanceof Error ? error.message : String(error);
    }
    await Bun.sleep(250);
  }
  return `${url} did not answer 200 {"status":"ok"} within ${TIMEOUT_MS / 1000} s (last: ${last})`;
}

const problem = await waitForHealth();
await stopChild();
const [stdout, stderr] = await output;
if (problem) {
  const sections = [`--- deno stderr ---\n${stderr}`];
  if (stdout.trim()) sections.push(`--- deno stdout ---\n${stdout}`);
  fail(problem, sections.join("\n"));
}
console.log(`deno smoke: /health answered 200 under Deno ${version}`);
