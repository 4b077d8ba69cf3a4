import type { SecretStore } from "../../../application/secrets/ports.ts";

export function createInMemorySecretStore(initial: Record<string, string> = {}): SecretStore {
  const values = new Map(Object.entries(initial));
  return {
    resolve: async (ref) => values.get(ref),
    put: async (ref, value) => {
      values.set(ref, value);
    },
    list: async () => [...values.keys()].sort().map((ref) => ({ ref, source: "stored" as const, updated_at: null })),
  };
}
