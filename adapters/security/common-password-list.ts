import { readFile } from "node:fs/promises";
import type { CommonPasswords } from "../../application/identity/ports.ts";
import { projectPath } from "../asset-paths.ts";

/**
 * The entries of 12 characters or more (43,940, lower-cased) of SecLists' "10 million password list,
 * top 1M" (OWASP SecLists, CC BY-SA 3.0), one per line: shorter ones are refused for their length
 * anyway. docs/decisions/password-policy.md says why this list.
 */
export const COMMON_PASSWORDS_FILE = projectPath("adapters", "security", "common-passwords.txt");

/** Read on the first check, not at start: an instance that never sets a password never holds it. */
export function createCommonPasswordList(file = COMMON_PASSWORDS_FILE): CommonPasswords {
  let list: Promise<ReadonlySet<string>> | undefined;
  const load = async () => new Set((await readFile(file, "utf8")).split("\n").filter(Boolean));
  return {
    async includes(password) {
      list ??= load().catch((error: unknown) => {
        list = undefined;
        throw error;
      });
      return (await list).has(password.toLowerCase());
    },
  };
}
