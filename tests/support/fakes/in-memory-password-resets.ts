import type {
  IssuedPasswordReset,
  PasswordResets,
  StoredUser,
  UserRepository,
} from "../../../application/identity/ports.ts";

/** Reset links in memory over `users`, spent as the real store spends them (see PasswordResets). */
export function createInMemoryPasswordResets(users: UserRepository & { readonly all: StoredUser[] }) {
  const issued: (IssuedPasswordReset & { usedAt: Date | null })[] = [];
  const resets: PasswordResets = {
    async issue(reset) {
      issued.push({ ...reset, usedAt: null });
    },
    issuedSince: async (userId, since) =>
      issued.filter((reset) => reset.userId === userId && reset.createdAt >= since).length,
    async redeem(tokenHash, passwordHash, now) {
      const link = issued.find((reset) => reset.tokenHash === tokenHash);
      if (!link || link.usedAt || link.expiresAt <= now) return undefined;
      for (const reset of issued) if (reset.userId === link.userId && !reset.usedAt) reset.usedAt = now;
      const index = users.all.findIndex((user) => user.id === link.userId);
      const user = users.all[index];
      if (!user) return undefined;
      users.all[index] = { ...user, passwordHash };
      await users.revokeTokens(user.id);
      return { userId: user.id, email: user.email };
    },
  };
  return { ...resets, issued };
}
