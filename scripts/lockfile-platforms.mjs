// The registry this project installs from serves only some platform builds of packages that ship
// native binaries as optional dependencies (biome, deno). `npm install` then leaves those entries
// out of package-lock.json, and `npm ci` refuses the lockfile as out of sync. This adds each
// missing optional platform package back with the os/cpu/libc its name states, so `npm ci` skips
// it on other platforms and resolves it by version where it applies.
import { readFileSync, writeFileSync } from "node:fs";

const LOCK = new URL("../package-lock.json", import.meta.url);
const lock = JSON.parse(readFileSync(LOCK, "utf8"));
const OS = ["android", "darwin", "freebsd", "linux", "openbsd", "sunos", "win32", "aix"];
const CPU = ["arm64", "x64", "ia32", "arm", "ppc64", "s390x", "riscv64", "loong64"];

function platformOf(name) {
  const parts = name.split("/").pop().split("-");
  const os = parts.find((p) => OS.includes(p));
  const cpu = parts.find((p) => CPU.includes(p));
  if (!os || !cpu) return undefined;
  const libc = parts.includes("musl") ? ["musl"] : os === "linux" ? ["glibc"] : undefined;
  return { os: [os], cpu: [cpu], ...(libc ? { libc } : {}) };
}

let added = 0;
for (const entry of Object.values(lock.packages)) {
  for (const [name, version] of Object.entries(entry.optionalDependencies ?? {})) {
    const key = `node_modules/${name}`;
    const platform = platformOf(name);
    if (lock.packages[key] || !platform) continue;
    lock.packages[key] = { version, ...(entry.dev ? { dev: true } : {}), optional: true, ...platform };
    added++;
  }
}
if (added > 0) {
  writeFileSync(LOCK, `${JSON.stringify(lock, null, 2)}\n`);
  console.log(`lockfile-platforms: added ${added} optional platform entries`);
}
