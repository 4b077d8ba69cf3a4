import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { COMMON_PASSWORDS_FILE, createCommonPasswordList } from "../../../adapters/security/common-password-list.ts";

describe("the shipped list of common passwords", () => {
  test("holds common passwords of 12 characters or more, whatever their case, and not a good passphrase", async () => {
    const list = createCommonPasswordList();
    for (const common of ["password1234", "Password1234", "QWERTYUIOP123", "123456789012"]) {
      expect(await list.includes(common)).toBe(true);
    }
    // A password spanning two entries, or part of one, is no entry.
    const spanning = "password1234\npassword12345";
    for (const fine of [
      "a good long passphrase",
      "correct horse battery staple 42",
      "password",
      spanning,
      "ssword1234",
    ]) {
      expect(await list.includes(fine)).toBe(false);
    }
  });

  test("is lower-cased, de-duplicated and only what the length rule does not already refuse", () => {
    const lines = readFileSync(COMMON_PASSWORDS_FILE, "utf8").split("\n").filter(Boolean);
    expect(lines.length).toBe(43_940);
    expect(new Set(lines).size).toBe(lines.length);
    expect(lines.every((line) => line === line.toLowerCase() && [...line].length >= 12)).toBe(true);
  });

  test("is read on the first check, and a failed read is tried again on the next", async () => {
    const path = `/tmp/common-passwords-${crypto.randomUUID()}.txt`;
    const list = createCommonPasswordList(path);
    await expect(list.includes("password1234")).rejects.toThrow();
    await Bun.write(path, "password1234\n");
    expect(await list.includes("PASSWORD1234")).toBe(true);
  });
});
