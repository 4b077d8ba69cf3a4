import type { NewUser, StoredUser, UserRepository } from "../../../application/identity/ports.ts";

export function createInMemoryUserRepository(): UserRepository & { readonly all: StoredUser[] } {
  const all: StoredUser[] = [];
  const byEmail = (email: string) => all.find((u) => u.email.toLowerCase() === email.toLowerCase());
  const strip = ({ passwordHash: _, ...user }: StoredUser) => user;
  return {
    all,
    findByEmail: async (email) => byEmail(email),
    findById: async (id) => {
      const found = all.find((u) => u.id === id);
      return found ? strip(found) : undefined;
    },
    async insert(user: NewUser) {
      if (byEmail(user.email)) return undefined;
      const stored = { ...user, id: crypto.randomUUID(), createdAt: new Date() };
      all.push(stored);
      return strip(stored);
    },
    async upsert(user: NewUser) {
      const existing = byEmail(user.email);
      if (!existing) {
        const stored = { ...user, id: crypto.randomUUID(), createdAt: new Date() };
        all.push(stored);
        return strip(stored);
      }
      const updated = { ...existing, ...user, id: existing.id, createdAt: existing.createdAt };
      all[all.indexOf(existing)] = updated;
      return strip(updated);
    },
  };
}
