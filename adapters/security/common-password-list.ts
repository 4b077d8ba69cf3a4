import { readFile } from "node:fs/promises";
import type { CommonPasswords } from "../../application/identity/ports.ts";
import { projectPath } from "../asset-paths.ts";

/**
 * The entries of 12 characters or more (43,940, lower-cased) of SecLists' "10 million password list,
 * top 1M" (OWASP SecLists, CC BY-SA 3.0), one per line: shorter ones are refused for their length
 * anyway. docs/decisions/password-policy.md says why this list.
 */
export const COMMON_PASSWORDS_FILE = projectPath("adapters", "security", "common-passwords.txt");

/**
 * Read on the first check, not at start, and kept as the file's one string: a lookup scans it
 * (0.24 ms, and a password is checked only when one is set). A set of its entries held 5 MB more
 * after one registration (69.8 MB against 64.8 MB without the list); this way, no measurable more.
 */
export function createCommonPasswordList(file = COMMON_PASSWORDS_FILE): CommonPasswords {
  let list: Promise<string> | undefined;
  return {
    async includes(password) {
      list ??= readFile(file, "utf8").then(
        (text) => `\n${text}`,
        (error: unknown) => {
          list = undefined;
          throw error;
        },
      );
      const entry = password.toLowerCase();
      return !entry.includes("\n") && (await list).includes(`\n${entry}\n`);
    },
  };
}
