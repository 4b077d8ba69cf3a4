import type { PasswordHasher } from "../../../application/identity/ports.ts";

/** Reversible on purpose: unit tests check what was hashed, not how strong the hash is. */
export function createPlainPasswordHasher(): PasswordHasher & { readonly hashed: string[] } {
  const hashed: string[] = [];
  return {
    hashed,
    async hash(password) {
      hashed.push(password);
      return `plain:${password}`;
    },
    verify: async (password, hash) => hash === `plain:${password}`,
  };
}
