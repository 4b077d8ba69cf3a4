/**
 * `BENCH_BASELINE=<git ref> npm run bench`: the bench of another build first, on this machine and in
 * this run, so that a change is judged against figures taken under the same conditions. The ref is
 * checked out into a temporary worktree with its own `npm ci` (its dependencies may differ), its own
 * bench writes its results there, and the worktree is removed afterwards.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Results } from "./report.ts";

async function run(command: string[], cwd: string, env: Record<string, string | undefined> = process.env) {
  const proc = Bun.spawn(command, { cwd, env, stdout: "inherit", stderr: "inherit" });
  const code = await proc.exited;
  if (code !== 0) throw new Error(`${command.join(" ")} exited with ${code}`);
}

export async function measureBaseline(ref: string, say: (line: string) => void): Promise<Results> {
  const dir = await mkdtemp(join(tmpdir(), "marketplace-baseline-"));
  const out = join(dir, "baseline-results.json");
  say(`baseline ${ref}: checking out into ${dir}`);
  await run(["git", "worktree", "add", "--detach", dir, ref], process.cwd());
  try {
    await run(["npm", "ci", "--no-audit", "--no-fund"], dir);
    const env = { ...process.env, BENCH_OUT: out, BENCH_BASELINE: undefined, BENCH_SKIP_README: "1" };
    await run(["bun", "bench/run.ts"], dir, env);
    return (await Bun.file(out).json()) as Results;
  } finally {
    await run(["git", "worktree", "remove", "--force", dir], process.cwd()).catch(() => rm(dir, { recursive: true }));
  }
}
