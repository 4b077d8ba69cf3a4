/**
 * The native tools the bench drives: `wrk` for HTTP load and `pgbench` for the naive baseline.
 * `wrk` comes from Debian and is installed when missing, as `.ci/run` installs PostgreSQL.
 */
import { existsSync, readdirSync } from "node:fs";

const onPath = (name: string) => Bun.which(name) !== null;

async function apt(...args: string[]): Promise<boolean> {
  const proc = Bun.spawn(["apt-get", ...args], {
    env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
    stdout: "ignore",
    stderr: "inherit",
  });
  return (await proc.exited) === 0;
}

export async function ensureWrk(say: (line: string) => void): Promise<string> {
  if (onPath("wrk")) return "wrk";
  say("wrk is missing: installing it from Debian");
  if (!(await apt("install", "-y", "--no-install-recommends", "wrk"))) {
    await apt("update");
    if (!(await apt("install", "-y", "--no-install-recommends", "wrk"))) {
      throw new Error(
        "wrk is not installed and apt-get could not install it (run as root, or install the wrk package)",
      );
    }
  }
  return "wrk";
}

/** `pgbench` of the PostgreSQL the bench runs on. */
export function pgbenchPath(): string {
  const fromPath = Bun.which("pgbench");
  if (fromPath) return fromPath;
  const root = "/usr/lib/postgresql";
  const versions = existsSync(root) ? readdirSync(root).sort((a, b) => Number(b) - Number(a)) : [];
  for (const version of versions) {
    const candidate = `${root}/${version}/bin/pgbench`;
    if (existsSync(candidate)) return candidate;
  }
  throw new Error("pgbench not found: install the PostgreSQL client tools");
}

/** CPU time all the machine's cores have been busy so far (/proc/stat: all but idle and iowait), in milliseconds. */
export async function machineBusyMs(): Promise<number> {
  const line = (await Bun.file("/proc/stat").text()).split("\n")[0] ?? "";
  const [user, nice, system, _idle, _iowait, irq, softirq, steal] = line.trim().split(/\s+/).slice(1, 9).map(Number);
  return ((user ?? 0) + (nice ?? 0) + (system ?? 0) + (irq ?? 0) + (softirq ?? 0) + (steal ?? 0)) * 10;
}

/** The middle value (the mean of the middle two of an even count); 0 for none. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  if (sorted.length % 2 === 1) return sorted[middle] ?? 0;
  return sorted.length === 0 ? 0 : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

export const round = (value: number, digits = 2) => Math.round(value * 10 ** digits) / 10 ** digits;

/** The command prefix that pins a process to core `cpu`; none on a machine without that core or without taskset. */
export const pinTo = (cpu: number): string[] =>
  navigator.hardwareConcurrency > cpu && onPath("taskset") ? ["taskset", "-c", String(cpu)] : [];
