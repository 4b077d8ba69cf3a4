/**
 * `BENCH_BASELINE=<git ref> npm run bench`: another build measured in the same run, figure by figure
 * beside this code, so that a change is judged against figures taken minutes apart on the same
 * machine. The ref is checked out into a temporary worktree with its own `npm ci` (its dependencies
 * may differ) and bundled there by its own `npm run build`; its server reads its own assets next to
 * its bundle, and the worktree is removed when the run ends. The bench's code, the database's schema
 * (this code's migrations) and the simulator are this code's, the same for both builds.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

async function run(command: string[], cwd: string) {
  const proc = Bun.spawn(command, { cwd, stdout: "inherit", stderr: "inherit" });
  const code = await proc.exited;
  if (code !== 0) throw new Error(`${command.join(" ")} exited with ${code}`);
}

export interface BaselineBuild {
  /** The baseline's server bundle, as `startMarketplace`'s `bundle` option takes it. */
  readonly bundle: string;
  remove(): Promise<void>;
}

export async function prepareBaseline(ref: string, say: (line: string) => void): Promise<BaselineBuild> {
  const dir = await mkdtemp(join(tmpdir(), "marketplace-baseline-"));
  const remove = () =>
    run(["git", "worktree", "remove", "--force", dir], process.cwd()).catch(() => rm(dir, { recursive: true }));
  say(`baseline ${ref}: checking out into ${dir}`);
  await run(["git", "worktree", "add", "--detach", dir, ref], process.cwd());
  try {
    await run(["npm", "ci", "--no-audit", "--no-fund"], dir);
    await run(["npm", "run", "build"], dir);
    return { bundle: join(dir, "dist", "marketplace.js"), remove };
  } catch (error) {
    await remove();
    throw error;
  }
}
