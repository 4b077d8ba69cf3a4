import { canonicalSecretRef, type SecretPurpose } from "../../domain/secrets/secret-purpose.ts";
import type { SecretStore } from "./ports.ts";

/**
 * An admin stores a secret under a reference, for a purpose when one is given. The audit log keeps
 * the reference, the purpose and that a value was set, never the value; the entry is written in
 * the transaction that stores it, under the reference's one name (`canonicalSecretRef`).
 */
export function makeSetSecret(deps: { readonly secrets: Pick<SecretStore, "put"> }) {
  return function setSecret(
    spelled: string,
    value: string,
    purpose: SecretPurpose | undefined,
    actorId: string,
  ): Promise<void> {
    const ref = canonicalSecretRef(spelled);
    return deps.secrets.put(ref, value, purpose, {
      actor_id: actorId,
      action: "secret.set",
      target_type: "secret",
      target_id: ref,
      summary: { ref, value_set: true, ...(purpose ? { purpose } : {}) },
    });
  };
}
