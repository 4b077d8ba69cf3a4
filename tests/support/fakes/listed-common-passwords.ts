import type { CommonPasswords } from "../../../application/identity/ports.ts";

/** A list of common passwords that holds `listed`, compared without regard to case, as the real one. */
export function createListedCommonPasswords(listed: readonly string[] = ["password1234", "qwertyuiop123"]) {
  const list = new Set(listed.map((password) => password.toLowerCase()));
  const commonPasswords: CommonPasswords = {
    includes: async (password) => list.has(password.toLowerCase()),
  };
  return commonPasswords;
}
