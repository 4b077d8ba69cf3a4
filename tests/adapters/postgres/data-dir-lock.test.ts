import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DataDirLocked, lockDataDir } from "../../../adapters/postgres/data-dir-lock.ts";

let dir = "";
afterEach(() => rmSync(dir, { recursive: true, force: true }));
const fresh = () => {
  dir = mkdtempSync(join(tmpdir(), "mkt-lock-"));
  return dir;
};

describe("lockDataDir", () => {
  test("creates the pid file and removes it on unlock", () => {
    const unlock = lockDataDir(fresh());
    expect(existsSync(join(dir, "marketplace.pid"))).toBeTrue();
    unlock();
    expect(existsSync(join(dir, "marketplace.pid"))).toBeFalse();
  });

  test("refuses a directory held by a live process", async () => {
    const holder = Bun.spawn(["sleep", "30"]);
    try {
      writeFileSync(join(fresh(), "marketplace.pid"), String(holder.pid));
      expect(() => lockDataDir(dir)).toThrow(DataDirLocked);
    } finally {
      holder.kill();
    }
  });

  test("takes over a pid file left by a dead process", async () => {
    const dead = Bun.spawn(["true"]);
    await dead.exited;
    writeFileSync(join(fresh(), "marketplace.pid"), String(dead.pid));
    const unlock = lockDataDir(dir);
    await expect(Bun.file(join(dir, "marketplace.pid")).text()).resolves.toBe(String(process.pid));
    unlock();
  });
});
