import { createLogSink } from "../kit/log-sink.ts";
import { createAccessLogger, createLogger } from "../kit/logger.ts";
import { portInUseMessage } from "../kit/port-in-use.ts";
import { type Config, ConfigError, loadConfig } from "./config/config.ts";
import { type AppDeps, createApp } from "./http/app.ts";
import { startMarketplace } from "./server.ts";
import { wireAudit } from "./wiring/audit.ts";
import { wireCatalog } from "./wiring/catalog.ts";
import { wireCheckout } from "./wiring/checkout.ts";
import { wireCustomers } from "./wiring/customers.ts";
import { wireDiscounts } from "./wiring/discounts.ts";
import { wireExports } from "./wiring/exports.ts";
import { jobsOf } from "./wiring/feature.ts";
import { wireFulfillment } from "./wiring/fulfillment.ts";
import { wireHttp } from "./wiring/http.ts";
import { wireIdentity } from "./wiring/identity.ts";
import { wireLicensing } from "./wiring/licensing.ts";
import { wireMail } from "./wiring/mail.ts";
import { wireMetrics } from "./wiring/metrics.ts";
import { wireNotifications } from "./wiring/notifications.ts";
import { wireOperations } from "./wiring/operations.ts";
import { wireOutgoingWebhooks } from "./wiring/outgoing-webhooks.ts";
import { wirePayments } from "./wiring/payments.ts";
import { type Infrastructure, wirePlatform } from "./wiring/platform.ts";
import { wireProvisioning } from "./wiring/provisioning.ts";
import { wireReports } from "./wiring/reports.ts";

export type { Infrastructure };

/**
 * The composition root: each feature's module wires its adapters and use cases and hands back its
 * routes and jobs; this puts them together. Tests call it too, so they run the real wiring.
 */
export function wireMarketplace(infra: Infrastructure, overrides: Partial<AppDeps> = {}) {
  const platform = wirePlatform(infra);
  const mail = wireMail(platform);
  const identity = wireIdentity(platform, { mail });
  const audit = wireAudit(platform);
  const reports = wireReports(platform);
  const catalog = wireCatalog(platform);
  const payments = wirePayments(platform, { catalog: catalog.catalog });
  const observability = wireMetrics(platform, { listGatewayBreakers: payments.useCases.listGatewayBreakers });
  const checkout = wireCheckout(platform, { catalog: catalog.catalog, payments, users: identity.users });
  const provisioning = wireProvisioning(platform, { catalog: catalog.catalog });
  const licensing = wireLicensing(platform);
  const discounts = wireDiscounts(platform, { gateways: payments.gateways });
  const fulfillment = wireFulfillment(platform, { provisioning, licensing });
  const customers = wireCustomers(platform, { payments, fulfillment, licensing, checkout });
  const notifications = wireNotifications(platform, { mail, identity, checkout, customers, licensing });
  const outgoingWebhooks = wireOutgoingWebhooks(platform);
  const features = [
    identity,
    catalog,
    payments,
    checkout,
    provisioning,
    licensing,
    fulfillment,
    customers,
    notifications,
    mail,
    outgoingWebhooks,
    discounts,
  ];
  const operations = wireOperations(platform, {
    jobs: jobsOf(features),
    subscriptions: payments.subscriptions,
    fulfillments: fulfillment.fulfillments,
    outbox: notifications.outbox,
    releaseIdleMachines: licensing.useCases.licensing.releaseIdleMachines,
  });
  const deps: AppDeps = {
    ...wireHttp(platform),
    ...identity.useCases,
    ...catalog.useCases,
    ...payments.useCases,
    ...checkout.useCases,
    ...provisioning.useCases,
    ...licensing.useCases,
    ...discounts.useCases,
    ...fulfillment.useCases,
    ...customers.useCases,
    ...notifications.useCases,
    ...outgoingWebhooks.useCases,
    ...operations.useCases,
    ...audit.useCases,
    ...wireExports(platform).useCases,
    ...reports.useCases,
    metrics: observability.metrics,
    metricsToken: observability.metricsToken,
    receiveWebhook: observability.countingWebhooks(payments.useCases.receiveWebhook),
    ...overrides,
  };
  return {
    app: createApp(deps),
    deps,
    users: identity.users,
    hasher: identity.hasher,
    signInThrottle: identity.signInThrottle,
    commonPasswords: identity.commonPasswords,
    secrets: platform.secrets,
    provider: provisioning.provider,
    gateways: payments.gateways,
    gatewaySettings: payments.settings,
    /** The gateways' circuit breakers, as `/metrics` and the admin pages read them. */
    listGatewayBreakers: payments.useCases.listGatewayBreakers,
    orders: payments.orders,
    fulfillments: fulfillment.fulfillments,
    worker: operations.worker,
    tick: operations.tick,
    metrics: observability.metrics,
    async close() {
      observability.metrics.close();
      mail.close();
      await platform.changes.close?.();
    },
  };
}

function readConfig(): Config {
  try {
    return loadConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
}

if (import.meta.main) {
  const config = readConfig();
  const stdout = createLogSink();
  const logger = createLogger({ level: config.logLevel, name: "marketplace", destination: stdout });
  const accessLogger = createAccessLogger({ level: config.logLevel, name: "marketplace", destination: stdout });
  startMarketplace(config, { logger, accessLogger, flush: () => stdout.flushSync() }, wireMarketplace).catch(
    (error: unknown) => {
      const taken = portInUseMessage(error, config.port, "PORT");
      if (taken) console.error(`marketplace: ${taken}`);
      else logger.fatal({ err: error }, "failed to start");
      process.exit(1);
    },
  );
}
