import type { MultitenantSaasConfig } from "../../domain/catalog/drivers.ts";
import {
  canonicalSecretRef,
  describePurpose,
  providerPurpose,
  type SecretPurpose,
} from "../../domain/secrets/secret-purpose.ts";
import type { OpsAlert } from "../alerts/ports.ts";
import type { AuditEntry } from "../audit/ports.ts";

/**
 * Where secrets are sent, recorded before they are: the audit entries and the alerts to
 * operations of one use, written in one transaction.
 */
export interface SecretUseLog {
  record(entries: readonly AuditEntry[], alerts: readonly OpsAlert[]): Promise<void>;
}

/** An address a stored secret is sent to (or signs requests to). */
export interface SecretDestination {
  /** The reference's one name (`canonicalSecretRef`): the audit target and the alert's key. */
  readonly ref: string;
  readonly purpose: SecretPurpose;
  readonly address: string;
}

/** A provider's credentials go to its base URL and, for the admin views, to its management address. */
export function providerDestinations(config: MultitenantSaasConfig | undefined): SecretDestination[] {
  if (!config) return [];
  const purpose = providerPurpose(config.auth_mode);
  const management = config.management?.enabled ? config.management.base_url : undefined;
  const addresses = [config.base_url, ...(management ? [management] : [])];
  const ref = canonicalSecretRef(config.credentials_ref);
  return addresses.map((address) => ({ ref, purpose, address }));
}

const same = (a: SecretDestination, b: SecretDestination) => a.ref === b.ref && a.address === b.address;

/** The destinations `after` has that `before` had not: a secret set to go somewhere new. */
export function newDestinations(
  before: readonly SecretDestination[],
  after: readonly SecretDestination[],
): SecretDestination[] {
  return after.filter((destination, index) => {
    const first = after.findIndex((other) => same(other, destination)) === index;
    return first && !before.some((old) => same(old, destination));
  });
}

/**
 * Each new destination is audited (`secret.destination_change`, target: the reference) and told to
 * operations, once per reference and address: an address someone set by mistake or on purpose is
 * seen before anyone relies on it.
 */
export async function recordNewDestinations(
  log: SecretUseLog,
  change: {
    readonly actorId: string;
    /** Where the change was made: `product <id>`, `gateway_b live settings`. */
    readonly via: string;
    readonly previous: (ref: string) => string | null;
    readonly destinations: readonly SecretDestination[];
  },
): Promise<void> {
  if (change.destinations.length === 0) return;
  const entries: AuditEntry[] = change.destinations.map((d) => ({
    actor_id: change.actorId,
    action: "secret.destination_change",
    target_type: "secret",
    target_id: d.ref,
    summary: {
      ref: d.ref,
      purpose: d.purpose.kind,
      address: d.address,
      previous: change.previous(d.ref),
      via: change.via,
    },
  }));
  await log.record(
    entries,
    change.destinations.map((d) => destinationAlert(d, change.actorId, change.via)),
  );
}

export function destinationAlert(destination: SecretDestination, actorId: string, via: string): OpsAlert {
  return {
    kind: "secret_destination",
    target_id: destination.ref,
    occurrence: destination.address,
    details: { purpose: describePurpose(destination.purpose), address: destination.address, actor_id: actorId, via },
  };
}
