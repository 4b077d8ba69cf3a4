import type {
  ExternalState,
  FulfillmentAdapter,
  FulfillmentContext,
  FulfillmentOutcome,
  OpsTaskRepository,
} from "../../application/fulfillment/ports.ts";
import type { Installation, InstallationRepository } from "../../application/provisioning/ports.ts";
import type { Clock } from "../../application/shared/clock-and-log.ts";
import { customerDomainFault, customerDomainRefused } from "../../domain/fulfillment/customer-domain.ts";
import { driverConfig } from "../../domain/fulfillment/driver-config.ts";
import { FulfillmentStateConflict, InstallationDomainTaken } from "../../domain/fulfillment/errors.ts";
import { ValidationFailed } from "../../domain/shared/errors.ts";
import { httpUrlOrNull } from "../../domain/shared/http-url.ts";
import { asOneLine } from "../../domain/shared/plain-text.ts";
import type { OutboundFetch } from "../security/guarded-fetch.ts";
import { assignedDomain, customerDomain, DEFAULT_INSTALL_DOMAIN, type DomainChoice } from "./installation-domain.ts";
import { provisionInstallation } from "./provisioner-client.ts";

const PROVISIONING_QUEUE = "provisioning";
const PROVISIONING_SLA_MS = 24 * 3_600_000;

const configOf = (context: FulfillmentContext) => driverConfig(context.product, "singletenant_provisioning");
const stateOf = (installation: Installation): ExternalState => ({
  external_status: installation.status,
  external_workspace_url: installation.url,
});

/** Every value stays data on its own line (`asOneLine`): a customer's name cannot add an instruction. */
function instructionsFor(context: FulfillmentContext, installation: Installation): string {
  const { product, customer } = context;
  return [
    `Provision a dedicated installation of ${asOneLine(product.name)} for ${asOneLine(customer.name)} <${asOneLine(customer.email)}>.`,
    `Domain: ${asOneLine(installation.domain ?? "")}`,
    `Server profile: ${asOneLine(installation.server_profile)}`,
    `Resource limits profile: ${asOneLine(installation.resource_limits_profile)}`,
    `Installation ${installation.id}; order ${context.order.id}, item ${context.item.id}.`,
    "Complete this task with the installation's URL once it is reachable.",
  ].join("\n");
}

const active = (installation: Installation, url: string): FulfillmentOutcome => ({
  status: "active",
  external_reference_id: installation.id,
  external_workspace_url: url,
  external_status: "active",
  snapshot: { installation: { id: installation.id, domain: installation.domain } },
});

/**
 * A dedicated installation per item, so no two customers share a server. The domain comes from the
 * customer (`customer_domain`: the item waits in `awaiting_customer` until one is given) or is
 * assigned (`subdomain`). A configured provisioner endpoint completes the installation at once;
 * without one, ops get a provisioning task and complete it with the URL.
 */
export function createSingletenantProvisioningAdapter(deps: {
  installations: InstallationRepository;
  tasks: OpsTaskRepository;
  clock: Clock;
  /** The marketplace's connect-time address guard, for the provisioner endpoint. */
  outbound: OutboundFetch;
  installDomain?: string;
  /** Further domains that are the platform's own (its public host): no customer names one or one under it. */
  platformDomains?: readonly string[];
}): FulfillmentAdapter {
  const { installations } = deps;
  const installDomain = deps.installDomain ?? DEFAULT_INSTALL_DOMAIN;
  const reserved = [installDomain, ...(deps.platformDomains ?? [])];

  const installationOf = async (context: FulfillmentContext) => {
    const installation = await installations.findForRecord(context.record.id);
    if (!installation) throw new Error(`fulfillment ${context.record.id} has no installation`);
    return installation;
  };

  const move = async (
    installation: Installation,
    from: Installation["status"][],
    to: Installation["status"],
    url?: string,
  ) => (await installations.update(installation.id, from, { status: to, ...(url ? { url } : {}) })) ?? installation;

  return {
    driver: "singletenant_provisioning",

    async fulfill(context) {
      const existing = await installations.findForRecord(context.record.id);
      if (existing?.status === "active" && existing.url) return active(existing, existing.url);

      const config = configOf(context);
      const choice: DomainChoice =
        config.domain_strategy === "subdomain"
          ? { domain: assignedDomain(context, installDomain) }
          : customerDomain(context, reserved);
      const draft = {
        fulfillment_record_id: context.record.id,
        customer_id: context.record.customer_id,
        product_id: context.product.id,
        server_profile: config.server_profile,
        resource_limits_profile: config.resource_limits_profile,
        domain_strategy: config.domain_strategy,
      };
      const waiting = async (reason: string): Promise<FulfillmentOutcome> => {
        const pending = await installations.upsert({ ...draft, domain: null, status: "awaiting_domain" });
        return { status: "awaiting_customer", reason, snapshot: { installation: { id: pending.id } } };
      };
      if (choice.domain === null) return waiting(choice.reason);
      let installation: Installation;
      try {
        installation = await installations.upsert({ ...draft, domain: choice.domain, status: "provisioning" });
      } catch (error) {
        // Claimed by another live installation meanwhile (the database's unique index decided).
        if (!(error instanceof InstallationDomainTaken) || config.domain_strategy !== "customer_domain") throw error;
        return waiting(`the domain ${choice.domain} is already used by another installation; another domain is needed`);
      }
      if (!installation.domain) return waiting("a domain is needed");

      if (config.provisioner_url) {
        const url = await provisionInstallation(
          config.provisioner_url,
          {
            installation_id: installation.id,
            domain: installation.domain,
            server_profile: installation.server_profile,
            resource_limits_profile: installation.resource_limits_profile,
          },
          deps.outbound,
        );
        return active(await move(installation, ["provisioning"], "active", url), url);
      }

      const task = await deps.tasks.open({
        fulfillment_record_id: context.record.id,
        kind: "provisioning",
        queue_id: PROVISIONING_QUEUE,
        instructions: instructionsFor(context, installation),
        due_at: new Date(deps.clock().getTime() + PROVISIONING_SLA_MS),
      });
      return {
        status: "manual_pending",
        external_reference_id: installation.id,
        external_status: installation.status,
        snapshot: { installation: { id: installation.id, domain: installation.domain }, ops_task: { id: task.id } },
      };
    },

    /** A domain the customer names: not the platform's own; claimed at once, so no one else gets it meanwhile. */
    async acceptCustomerInput(context, input) {
      const fault = customerDomainFault(input.domain, reserved);
      if (fault) throw customerDomainRefused(fault);
      await installations.claimDomain(context.record.id, input.domain);
    },

    async completeTask(context, _task, result) {
      const url = httpUrlOrNull(result.url);
      if (!url) {
        throw new ValidationFailed([
          { path: "/url", code: "INVALID_URL", message: "must be the installation's http(s) URL" },
        ]);
      }
      const installation = await move(await installationOf(context), ["provisioning", "active"], "active", url);
      if (installation.status !== "active") {
        throw new FulfillmentStateConflict(`The installation is ${installation.status}; it cannot be completed.`);
      }
      return {
        external_reference_id: installation.id,
        external_workspace_url: url,
        external_status: installation.status,
      };
    },

    syncStatus: async (context) => stateOf(await installationOf(context)),

    // Marks the installation; stopping its server is the provisioner's or ops' business.
    suspend: async (context) => stateOf(await move(await installationOf(context), ["active"], "suspended")),
    resume: async (context) => stateOf(await move(await installationOf(context), ["suspended"], "active")),

    async cancel(context) {
      const installation = await installations.findForRecord(context.record.id);
      await deps.tasks.cancelFor(context.record.id);
      if (!installation) return { external_status: "cancelled" };
      return stateOf(await move(installation, ["awaiting_domain", "provisioning", "active", "suspended"], "cancelled"));
    },
  };
}
