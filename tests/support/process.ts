import type { Subprocess } from "bun";
import { freePort } from "../../scripts/lib/postgres-cluster.ts";
import { keepTestLog } from "./test-logs.ts";

export interface RunningService {
  readonly url: string;
  readonly proc: Subprocess<"ignore", "pipe", "pipe">;
  /** Sends the signal and resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number>;
  output(): Promise<string>;
}

/** Starts `bun <entry>` as a real process and waits until `readyPath` answers 200. */
export async function startService(
  entry: string,
  env: Record<string, string | undefined>,
  options: { readyPath?: string; timeoutMs?: number; portVariable?: string; cwd?: string } = {},
): Promise<RunningService> {
  const portVariable = options.portVariable ?? "PORT";
  const port = env[portVariable] ? Number(env[portVariable]) : await freePort();
  const proc = Bun.spawn(["bun", entry], {
    ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
    // Simulators and marketplaces all run on loopback in tests.
    env: {
      ...process.env,
      NODE_ENV: "test",
      LOG_LEVEL: "info",
      ALLOW_PRIVATE_PROVIDER_URLS: "true",
      ALLOW_PRIVATE_WEBHOOK_URLS: "true",
      ...env,
      [portVariable]: String(port),
    },
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + (options.timeoutMs ?? 20_000);
  const readyPath = options.readyPath ?? "/ready";
  let collected: Promise<string> | undefined;
  const output = () => {
    collected ??= Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text()]).then((parts) =>
      parts.join(""),
    );
    return collected;
  };
  // Read from the start, so a chatty process never blocks on a full pipe.
  void output();
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`${entry} exited ${proc.exitCode}: ${await output()}`);
    try {
      const response = await fetch(`${url}${readyPath}`);
      if (response.status === 200) break;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) {
      proc.kill("SIGKILL");
      throw new Error(`${entry} not ready in time: ${await output()}`);
    }
    await Bun.sleep(50);
  }
  return {
    url,
    proc,
    output,
    async stop(signal = "SIGTERM") {
      proc.kill(signal);
      const code = await proc.exited;
      keepTestLog(entry.replace(/\W+/g, "-"), await output());
      return code;
    },
  };
}

/** Runs `bun <entry>` to completion and returns its exit code and output. */
export async function runToExit(entry: string, env: Record<string, string>) {
  const proc = Bun.spawn(["bun", entry], {
    env: { ...process.env, NODE_ENV: "test", ...env },
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  const [code, stdout, stderr] = await Promise.all([
    proc.exited,
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
  ]);
  return { code, stdout, stderr };
}
