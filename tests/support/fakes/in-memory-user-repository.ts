import type { AuditLogWriter } from "../../../application/audit/ports.ts";
import type { NewUser, StoredUser, UserRepository } from "../../../application/identity/ports.ts";
import { createInMemoryAuditLogWriter } from "./in-memory-audit-log-writer.ts";

/** Accounts in memory; an access change's audit entry goes to `trail` when there was an account to change. */
export function createInMemoryUserRepository(
  trail: AuditLogWriter = createInMemoryAuditLogWriter(),
): UserRepository & { readonly all: StoredUser[] } {
  const all: StoredUser[] = [];
  const byEmail = (email: string) => all.find((u) => u.email.toLowerCase() === email.toLowerCase());
  const strip = ({ passwordHash: _, ...user }: StoredUser) => user;
  const create = (user: NewUser): StoredUser => {
    const stored = {
      ...user,
      id: crypto.randomUUID(),
      createdAt: new Date(),
      disabled: false,
      tokenVersion: 0,
      emailVerified: user.role === "admin",
      guest: false,
    };
    all.push(stored);
    return stored;
  };
  const replace = (existing: StoredUser, changes: Partial<StoredUser>) => {
    const updated = { ...existing, ...changes, id: existing.id, createdAt: existing.createdAt };
    all[all.indexOf(existing)] = updated;
    return strip(updated);
  };
  return {
    all,
    findByEmail: async (email) => byEmail(email),
    findById: async (id) => {
      const found = all.find((u) => u.id === id);
      return found ? strip(found) : undefined;
    },
    async insert(user: NewUser) {
      return byEmail(user.email) ? undefined : strip(create(user));
    },
    async upsert(user: NewUser) {
      const existing = byEmail(user.email);
      return existing ? replace(existing, { ...user, disabled: false }) : strip(create(user));
    },
    async list(page) {
      return { items: all.slice(0, page.limit).map(strip), next_cursor: null };
    },
    async changeAccess(id, change, audit) {
      const existing = all.find((u) => u.id === id);
      if (!existing) return undefined;
      const disabling = change.disabled === true && !existing.disabled;
      const changed = replace(existing, {
        ...change,
        tokenVersion: existing.tokenVersion + (disabling ? 1 : 0),
        ...(disabling ? { keptSession: undefined } : {}),
      });
      if (audit) await trail.record(audit);
      return changed;
    },
    async revokeTokens(id) {
      const existing = all.find((u) => u.id === id);
      if (existing) replace(existing, { tokenVersion: existing.tokenVersion + 1, keptSession: undefined });
      return existing !== undefined;
    },
    async changePassword(id, passwordHash, keep) {
      const existing = all.find((u) => u.id === id);
      if (existing) replace(existing, { passwordHash, tokenVersion: existing.tokenVersion + 1, keptSession: keep });
      return existing !== undefined;
    },
  };
}
