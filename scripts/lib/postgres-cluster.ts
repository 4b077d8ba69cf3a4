import { existsSync, readdirSync } from "node:fs";
import { chmod, chown, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface PostgresCluster {
  readonly url: string;
  readonly port: number;
  readonly dataDir: string;
  stop(): Promise<void>;
  /** Stops the server (fast shutdown, connections cut) and starts it again on the same port. */
  restart(options?: { downMs?: number }): Promise<void>;
  remove(): Promise<void>;
}

/** Finds `initdb`/`pg_ctl`: on PATH, else Debian's versioned directory. */
export function findPostgresBin(): string | undefined {
  for (const dir of (process.env.PATH ?? "").split(":")) {
    if (dir && existsSync(join(dir, "initdb")) && existsSync(join(dir, "pg_ctl"))) return dir;
  }
  const debian = "/usr/lib/postgresql";
  if (!existsSync(debian)) return undefined;
  const versions = readdirSync(debian)
    .filter((v) => existsSync(join(debian, v, "bin", "initdb")))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? join(debian, versions[0], "bin") : undefined;
}

export async function freePort(): Promise<number> {
  const server = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  const { port } = server;
  server.stop(true);
  return port;
}

const isRoot = () => process.getuid?.() === 0;

/** PostgreSQL refuses to run as root, so as root every command runs as the `postgres` user. */
async function run(command: string[], options: { quiet?: boolean } = {}): Promise<void> {
  const argv = isRoot() ? ["runuser", "-u", "postgres", "--", ...command] : command;
  const proc = Bun.spawn(argv, { stdout: "pipe", stderr: "pipe", stdin: "ignore" });
  const [code, out, err] = await Promise.all([
    proc.exited,
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
  ]);
  if (code !== 0) throw new Error(`${command.join(" ")} failed (${code}): ${err || out}`);
  if (!options.quiet && out.trim()) process.stderr.write(out);
}

/**
 * A disposable cluster in a temp directory on a free loopback port, trust auth. For tests it skips
 * durability (no fsync, asynchronous commit); `durable` keeps PostgreSQL's defaults, so a commit
 * returns only once its WAL is on disk, as in production: the bench measures that.
 */
export async function startPostgresCluster(settings: { readonly durable?: boolean } = {}): Promise<PostgresCluster> {
  const bin = findPostgresBin();
  if (!bin) throw new Error("initdb and pg_ctl not found");
  const dataDir = await mkdtemp(join(tmpdir(), "mkt-pg-"));
  await chmod(dataDir, 0o700);
  if (isRoot()) {
    const uid = Number((await Bun.$`id -u postgres`.text()).trim());
    const gid = Number((await Bun.$`id -g postgres`.text()).trim());
    await chown(dataDir, uid, gid);
  }
  const port = await freePort();
  await run(
    [join(bin, "initdb"), "-D", dataDir, "-U", "postgres", "-A", "trust", "-E", "UTF8", "--no-locale", "--no-sync"],
    { quiet: true },
  );
  const options = [
    `-p ${port}`,
    "-c listen_addresses=127.0.0.1",
    `-c unix_socket_directories=${dataDir}`,
    ...(settings.durable ? [] : ["-c fsync=off", "-c synchronous_commit=off", "-c full_page_writes=off"]),
    "-c max_connections=300",
    "-c shared_buffers=256MB",
  ].join(" ");
  const start = () =>
    run(
      [join(bin, "pg_ctl"), "-D", dataDir, "-l", join(dataDir, "server.log"), "-o", options, "-w", "-t", "60", "start"],
      { quiet: true },
    );
  const stop = () => run([join(bin, "pg_ctl"), "-D", dataDir, "-m", "fast", "-w", "stop"], { quiet: true });
  await start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    dataDir,
    stop,
    async restart(opts = {}) {
      await stop();
      if (opts.downMs) await Bun.sleep(opts.downMs);
      await start();
    },
    async remove() {
      await stop().catch(() => {});
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
