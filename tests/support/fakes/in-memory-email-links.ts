import type {
  EmailLinkSpent,
  EmailLinks,
  IssuedEmailLink,
  StoredUser,
  UserRepository,
} from "../../../application/identity/ports.ts";
import { createRecordingJobScheduler } from "./recording-job-scheduler.ts";

/**
 * Address links in memory over `users`, spent as the real store spends them (see EmailLinks); the
 * jobs `redeem` enqueues in its transaction land in `jobs`.
 */
export function createInMemoryEmailLinks(users: UserRepository & { readonly all: StoredUser[] }) {
  const issued: (IssuedEmailLink & { usedAt: Date | null })[] = [];
  const jobs = createRecordingJobScheduler();
  const links: EmailLinks = {
    async issue(link) {
      issued.push({ ...link, usedAt: null });
    },
    issuedSince: async (userId, since) =>
      issued.filter((link) => link.userId === userId && link.createdAt >= since).length,
    async redeem(tokenHash, now, then) {
      const link = issued.find((entry) => entry.tokenHash === tokenHash);
      if (!link || link.usedAt || link.expiresAt <= now) return { outcome: "invalid" };
      const index = users.all.findIndex((user) => user.id === link.userId);
      const user = users.all[index];
      if (!user) return { outcome: "invalid" };
      const same = user.email.toLowerCase() === link.email.toLowerCase();
      let spent: EmailLinkSpent;
      if (link.purpose === "verify") {
        if (!same) return { outcome: "invalid" };
        users.all[index] = { ...user, emailVerified: true };
        spent = { outcome: "verified", userId: user.id, email: user.email };
      } else {
        const taken = users.all.some(
          (other) => other.id !== user.id && other.email.toLowerCase() === link.email.toLowerCase(),
        );
        if (taken) return { outcome: "taken" };
        users.all[index] = { ...user, email: link.email, emailVerified: true };
        for (const entry of issued) if (entry.userId === user.id && !entry.usedAt) entry.usedAt = now;
        spent = { outcome: "changed", userId: user.id, email: link.email, previousEmail: user.email, name: user.name };
      }
      link.usedAt = now;
      await then(spent, jobs);
      return spent;
    },
  };
  return { ...links, issued, jobs };
}
