import type { PasswordHasher } from "../../application/identity/ports.ts";

/** argon2id with Bun's built-in implementation (OWASP: m=19 MiB, t=2 is the floor; we use 64 MiB). */
export function createBunPasswordHasher(options: { memoryCost?: number; timeCost?: number } = {}): PasswordHasher {
  const params = {
    algorithm: "argon2id" as const,
    memoryCost: options.memoryCost ?? 65_536,
    timeCost: options.timeCost ?? 2,
  };
  return {
    hash: (password) => Bun.password.hash(password, params),
    async verify(password, hash) {
      try {
        return await Bun.password.verify(password, hash);
      } catch {
        return false;
      }
    },
  };
}
