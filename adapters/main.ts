import { makeGetPublicProduct, makeListPublicProducts } from "../application/catalog/browse-catalog.ts";
import { describeDrivers } from "../application/catalog/describe-drivers.ts";
import {
  makeArchiveProduct,
  makeCreateProduct,
  makeGetAdminProduct,
  makeListAdminProducts,
  makeUpdateProduct,
} from "../application/catalog/manage-products.ts";
import { makeListPricingMappings, makeSavePricingMappings } from "../application/catalog/pricing-mappings.ts";
import { makeCalculateCheckout } from "../application/checkout/calculate-checkout.ts";
import { makeCreateCheckout } from "../application/checkout/create-checkout.ts";
import type { CustomerDirectory } from "../application/checkout/ports.ts";
import { makeCustomerSubscriptions } from "../application/customers/customer-subscriptions.ts";
import { makeCustomerViews } from "../application/customers/customer-views.ts";
import { makeResolveDownload } from "../application/customers/resolve-download.ts";
import { makeFulfillItem } from "../application/fulfillment/fulfill-item.ts";
import { makeFulfillmentActionJob } from "../application/fulfillment/fulfillment-action-job.ts";
import { makeManageFulfillments } from "../application/fulfillment/manage-fulfillments.ts";
import type { FulfillmentAdapters } from "../application/fulfillment/ports.ts";
import { FULFILL_JOB, FULFILLMENT_ACTION_JOB } from "../application/fulfillment/ports.ts";
import { makeAccountStates } from "../application/identity/account-states.ts";
import { makeAuthenticate } from "../application/identity/authenticate.ts";
import { makeChangeAccess } from "../application/identity/change-access.ts";
import { makeGetUser } from "../application/identity/get-user.ts";
import { makeLogOutEverywhere } from "../application/identity/log-out-everywhere.ts";
import type { PasswordHasher } from "../application/identity/ports.ts";
import { makeRegisterCustomer } from "../application/identity/register-customer.ts";
import { makeLicenseService } from "../application/licensing/license-service.ts";
import { makeMinuteTick } from "../application/maintenance/minute-tick.ts";
import { makeDispatchNotification } from "../application/notifications/dispatch-notification.ts";
import { NOTIFY_JOB } from "../application/notifications/ports.ts";
import { makeAdminOrders } from "../application/payments/admin-orders.ts";
import {
  END_GATEWAY_SUBSCRIPTION_JOB,
  makeAdminFulfillmentActions,
  makeEndGatewaySubscription,
} from "../application/payments/end-gateway-subscription.ts";
import { makeGatewayProductSync } from "../application/payments/gateway-product-sync.ts";
import { makeGatewaySettingsAdmin } from "../application/payments/gateway-settings.ts";
import { makeProcessPaymentEvent } from "../application/payments/process-payment-event.ts";
import { makeReceiveWebhook, PAYMENT_EVENT_JOB } from "../application/payments/receive-webhook.ts";
import { makeQueryProviderManagement } from "../application/provisioning/provider-management.ts";
import { makeTestProviderConnection } from "../application/provisioning/test-provider-connection.ts";
import type { JobHandler } from "../application/shared/jobs.ts";
import type { ChangeSignal } from "../application/shared/ports.ts";
import type { Clock } from "../application/shared/runtime.ts";
import { checkoutReturnUrl } from "./config/checkout-return-url.ts";
import { type Config, ConfigError, loadConfig } from "./config/config.ts";
import { defaultGatewaySettings } from "./config/gateway-defaults.ts";
import { createLicenseDownloadAdapter } from "./fulfillment/license-download-adapter.ts";
import { createManualFulfillmentAdapter } from "./fulfillment/manual-fulfillment-adapter.ts";
import { createMultitenantSaasAdapter } from "./fulfillment/multitenant-saas-adapter.ts";
import { createSingletenantProvisioningAdapter } from "./fulfillment/singletenant-provisioning-adapter.ts";
import { createPaddleGateway } from "./gateways/gateway-a/paddle-client.ts";
import { createStripeGateway } from "./gateways/gateway-b/stripe-client.ts";
import { createGatewaySettingsSource } from "./gateways/gateway-settings-source.ts";
import { type AppDeps, createApp } from "./http/app.ts";
import { loadBrowserPages } from "./http/browser-pages.ts";
import { portInUseMessage } from "./http/port-in-use.ts";
import { deleteDoneJobs } from "./jobs/job-cleanup.ts";
import type { JobWakeUp } from "./jobs/job-wake-up.ts";
import { createJobWorker } from "./jobs/job-worker.ts";
import { createPostgresJobAdmin } from "./jobs/postgres-job-admin.ts";
import { createPostgresJobScheduler } from "./jobs/postgres-job-scheduler.ts";
import { createLicenseSigner } from "./licensing/license-signer.ts";
import { bufferedStdout, createAccessLogger, createLogger, type Logger } from "./logging/logger.ts";
import { createAdvisoryMutex } from "./postgres/advisory-mutex.ts";
import { createPostgresCustomerReadModel } from "./postgres/customer-read-model.ts";
import type { Database } from "./postgres/database.ts";
import { createPostgresFulfillmentContextLoader } from "./postgres/fulfillment-context-loader.ts";
import { createPostgresFulfillmentRepository } from "./postgres/fulfillment-repository.ts";
import { createPostgresGatewayProductRefs } from "./postgres/gateway-product-refs.ts";
import { createPostgresGatewaySettingsRepository } from "./postgres/gateway-settings-repository.ts";
import { createPostgresIdempotencyStore } from "./postgres/idempotency-store.ts";
import { createPostgresLicenseStore } from "./postgres/license-store.ts";
import { loadMigrations } from "./postgres/migrate.ts";
import {
  createLogAndInboxNotifier,
  createPostgresOutboxReader,
  listNotifications,
} from "./postgres/notification-store.ts";
import { createPostgresOpsTaskRepository } from "./postgres/ops-task-repository.ts";
import { createPostgresOrderRepository } from "./postgres/order-repository.ts";
import { createPostgresChangeSignal } from "./postgres/pg-change-signal.ts";
import { createPostgresPricingMappingRepository } from "./postgres/pricing-mapping-repository.ts";
import { createPostgresProductRepository } from "./postgres/product-repository.ts";
import { createPostgresSubscriptionRepository } from "./postgres/subscription-repository.ts";
import { createPostgresUnitOfWork } from "./postgres/unit-of-work.ts";
import { createPostgresUserRepository } from "./postgres/user-repository.ts";
import { createHttpProviderClient } from "./provider/http-provider-client.ts";
import { createSecretStore } from "./secrets/secret-store.ts";
import { createBunPasswordHasher } from "./security/bun-password-hasher.ts";
import { createDownloadTokens } from "./security/download-tokens.ts";
import { createGuardedFetch } from "./security/guarded-fetch.ts";
import { createOutboundUrlPolicy } from "./security/url-guard.ts";
import { startMarketplace } from "./server.ts";
import { createInProcessChangeSignal } from "./signals/in-process-change-signal.ts";
import { createInProcessMutex } from "./signals/in-process-mutex.ts";
import { withOutboundGuard } from "./upstream/gateway-outbound.ts";
import { createReadinessProbe } from "./wiring/readiness.ts";

export interface Infrastructure {
  readonly config: Config;
  readonly logger: Logger;
  /** Request lines, without redaction (their shape holds no secret); defaults to `logger`. */
  readonly accessLogger?: Logger;
  readonly database: Pick<Database, "sql" | "mode">;
  readonly jwtSecret: string;
  readonly secretsKey: string;
  /** Where `SECRET_<REF>` variables are read from. */
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly hasher?: PasswordHasher;
  /** Injectable time for the minute tick and subscription dates (tests move it). */
  readonly clock?: Clock;
  /** The Ed25519 key pair licenses are signed with. */
  readonly licenseKeys: CryptoKeyPair;
  /** The job worker's jitter source (tests pin it to check backoff spacing). */
  readonly random?: () => number;
}

/** Every adapter and use case, wired explicitly. Tests call this too, so they run the real wiring. */
export function wireMarketplace(infra: Infrastructure, overrides: Partial<AppDeps> = {}) {
  const { config, logger } = infra;
  const { sql } = infra.database;
  const users = createPostgresUserRepository(sql);
  const hasher = infra.hasher ?? createBunPasswordHasher();
  const products = createPostgresProductRepository(sql);
  const mappings = createPostgresPricingMappingRepository(sql);
  const changes: ChangeSignal & { close?(): Promise<void> } =
    infra.database.mode === "server" ? createPostgresChangeSignal({ sql, logger }) : createInProcessChangeSignal();
  const urls = createOutboundUrlPolicy({ allowPrivate: config.allowPrivateProviderUrls });
  const outbound = createGuardedFetch({ allowPrivate: config.allowPrivateProviderUrls });
  const catalog = { products, mappings, changes, currency: config.currency, urls };
  const secrets = createSecretStore({ sql, keyMaterial: infra.secretsKey, env: infra.env, changes });
  const provider = createHttpProviderClient({ secrets, outbound });
  const mutex = infra.database.mode === "server" ? createAdvisoryMutex(sql) : createInProcessMutex();
  const gatewaySettingsRepository = createPostgresGatewaySettingsRepository(sql, defaultGatewaySettings(config));
  const gatewaySettings = createGatewaySettingsSource({ repository: gatewaySettingsRepository, secrets, changes });
  const guardedSettings = withOutboundGuard(gatewaySettings, outbound);
  const paddle = createPaddleGateway({ settings: guardedSettings });
  const gateways = { gateway_a: paddle, gateway_b: createStripeGateway({ settings: guardedSettings }) };
  const orders = createPostgresOrderRepository(sql);
  const refs = createPostgresGatewayProductRefs(sql);
  const customers: CustomerDirectory = { find: (id) => users.findById(id) };
  const gatewayAdmin = makeGatewaySettingsAdmin({
    repository: gatewaySettingsRepository,
    secrets,
    changes,
    gateways,
    urls,
  });
  const gatewayASync = makeGatewayProductSync({
    products,
    mappings,
    catalog: paddle,
    refs,
    settings: gatewaySettings,
    mutex,
    currency: config.currency,
  });

  const clock = infra.clock ?? (() => new Date());
  const wake: JobWakeUp = infra.database.mode === "server" ? "notify" : changes;
  const uow = createPostgresUnitOfWork(sql, (tx) => createPostgresJobScheduler({ sql: tx, wake }));
  const adminOrders = makeAdminOrders({ orders, gateways, uow, log: logger });
  const fulfillments = createPostgresFulfillmentRepository(sql);
  const subscriptions = createPostgresSubscriptionRepository(sql);
  const contexts = createPostgresFulfillmentContextLoader(sql);
  const tasks = createPostgresOpsTaskRepository(sql);
  const licenseSigner = createLicenseSigner(infra.licenseKeys);
  const downloadTokens = createDownloadTokens({ secret: infra.jwtSecret, ttlSeconds: config.downloadLinkTtlSeconds });
  const downloads = {
    link: async (entitlementId: string, customerId: string) =>
      `${config.publicBaseUrl}/api/downloads/${await downloadTokens.issue(entitlementId, customerId)}`,
    verify: downloadTokens.verify,
  };
  const customerReadModel = createPostgresCustomerReadModel(sql);
  const adapters: FulfillmentAdapters = {
    multitenant_saas: createMultitenantSaasAdapter({ provider, fulfillments }),
    singletenant_provisioning: createSingletenantProvisioningAdapter({
      sql,
      tasks,
      clock,
      outbound,
      installDomain: config.installDomain,
    }),
    license_download: createLicenseDownloadAdapter({ sql, signer: licenseSigner, clock }),
    manual_fulfillment: createManualFulfillmentAdapter({ tasks, clock }),
  };
  const manage = makeManageFulfillments({ adapters, fulfillments, contexts, tasks, uow, log: logger });
  const outbox = createPostgresOutboxReader(sql);
  const processPaymentEvent = makeProcessPaymentEvent({ gateways, uow, clock, log: logger });
  const handlers: Record<string, JobHandler> = {
    [PAYMENT_EVENT_JOB]: (payload) => processPaymentEvent(payload),
    [FULFILL_JOB]: makeFulfillItem({ adapters, fulfillments, contexts, uow, log: logger }),
    [FULFILLMENT_ACTION_JOB]: makeFulfillmentActionJob({ act: manage.act, log: logger }),
    [NOTIFY_JOB]: makeDispatchNotification({ outbox, notifier: createLogAndInboxNotifier({ sql, logger }) }),
    [END_GATEWAY_SUBSCRIPTION_JOB]: makeEndGatewaySubscription({ subscriptions, gateways, clock, log: logger }),
  };
  const worker = createJobWorker({
    sql,
    handlers,
    wake: changes,
    logger,
    concurrency: config.jobs.concurrency,
    leaseMs: config.jobs.leaseMs,
    maxAttempts: config.jobs.maxAttempts,
    backoff: { baseMs: config.jobs.backoffBaseMs, maxMs: config.jobs.backoffMaxMs },
    pollIntervalMs: config.jobs.pollIntervalMs,
    ...(infra.random ? { random: infra.random } : {}),
  });
  const jobAdmin = createPostgresJobAdmin({ sql, wake, maxAttempts: config.jobs.maxAttempts });
  const tick = makeMinuteTick({
    mutex,
    uow,
    subscriptions,
    fulfillments,
    outbox,
    clock,
    log: logger,
    graceHours: config.subscriptionGraceHours,
    cleanupJobs: () => deleteDoneJobs(sql, { olderThanDays: 7 }),
  });
  const migrations = loadMigrations();
  const customerSubscriptions = makeCustomerSubscriptions({
    readModel: customerReadModel,
    subscriptions,
    gateways,
    uow,
    clock,
  });

  const deps: AppDeps = {
    logger,
    ...(infra.accessLogger ? { accessLogger: infra.accessLogger } : {}),
    bodyLimitBytes: config.bodyLimitBytes,
    rateLimits: { limits: config.rateLimits, trustProxy: config.trustProxy },
    auth: {
      secret: infra.jwtSecret,
      issuer: config.jwtIssuer,
      ttlSeconds: config.jwtTtlSeconds,
      accounts: makeAccountStates({ users, changes, now: () => performance.now() }),
    },
    registerCustomer: makeRegisterCustomer({ users, hasher }),
    authenticate: makeAuthenticate({ users, hasher }),
    getUser: makeGetUser({ users }),
    logOutEverywhere: makeLogOutEverywhere({ users, changes }),
    listAccounts: users.list,
    changeAccess: makeChangeAccess({ users, changes }),
    changes,
    createProduct: makeCreateProduct(catalog),
    updateProduct: makeUpdateProduct(catalog),
    archiveProduct: makeArchiveProduct(catalog),
    getAdminProduct: makeGetAdminProduct(catalog),
    listAdminProducts: makeListAdminProducts(catalog),
    listPricingMappings: makeListPricingMappings(catalog),
    savePricingMappings: makeSavePricingMappings(catalog),
    describeDrivers,
    listPublicProducts: makeListPublicProducts(catalog),
    getPublicProduct: makeGetPublicProduct(catalog),
    queryProviderManagement: makeQueryProviderManagement({ products, provider }),
    testProviderConnection: makeTestProviderConnection({ products, provider, urls, now: () => performance.now() }),
    putSecret: (ref, value) => secrets.put(ref, value),
    listSecrets: () => secrets.list(),
    calculateCheckout: makeCalculateCheckout(catalog),
    createCheckout: makeCreateCheckout({
      ...catalog,
      orders,
      idempotency: createPostgresIdempotencyStore(sql),
      customers,
      gateways,
      settings: gatewaySettings,
      refs,
      urls: {
        success: (orderId) => checkoutReturnUrl(config.checkoutReturnUrl, orderId, "success"),
        cancel: (orderId) => checkoutReturnUrl(config.checkoutReturnUrl, orderId, "cancelled"),
      },
    }),
    describeGatewaySettings: gatewayAdmin.describe,
    updateGatewaySettings: gatewayAdmin.update,
    testGatewayConnection: gatewayAdmin.testConnection,
    createGatewayAProduct: gatewayASync.createRemoteProduct,
    syncGatewayAProduct: gatewayASync.syncProduct,
    listAdminOrders: adminOrders.list,
    getAdminOrder: adminOrders.get,
    refundOrder: adminOrders.refund,
    approveOrder: adminOrders.approve,
    receiveWebhook: makeReceiveWebhook({ gateways, uow, log: logger }),
    listFulfillments: fulfillments.list,
    getFulfillment: (id) => manage.find(id),
    retryFulfillment: (id) => manage.retry(id),
    actOnFulfillment: makeAdminFulfillmentActions({ act: manage.act, uow, log: logger }),
    listTasks: tasks.list,
    completeTask: manage.completeTask,
    listJobs: jobAdmin.list,
    redriveJob: jobAdmin.redrive,
    getCustomerFulfillment: (id, customerId) => manage.find(id, customerId),
    retryCustomerFulfillment: (id, customerId) => manage.retry(id, customerId),
    supplyCustomerInput: manage.supplyInput,
    listCustomerNotifications: (customerId, limit) => listNotifications(sql, customerId, limit),
    customerViews: makeCustomerViews({ readModel: customerReadModel, orders, fulfillments, downloads }),
    resolveDownload: makeResolveDownload({ readModel: customerReadModel, downloads }),
    pages: loadBrowserPages({
      simulatorUrl: config.nodeEnv === "development" ? `http://127.0.0.1:${config.providerSimPort}` : undefined,
    }),
    cancelCustomerSubscription: customerSubscriptions.cancel,
    resumeCustomerSubscription: customerSubscriptions.resume,
    licensing: makeLicenseService({ store: createPostgresLicenseStore(sql), verifier: licenseSigner, clock }),
    instanceId: config.instanceId,
    checkReadiness: createReadinessProbe(sql, migrations),
    ...overrides,
  };
  return {
    app: createApp(deps),
    deps,
    users,
    hasher,
    secrets,
    provider,
    gateways,
    gatewaySettings,
    orders,
    fulfillments,
    worker,
    tick,
    async close() {
      await changes.close?.();
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
  const stdout = bufferedStdout();
  const logger = createLogger({ level: config.logLevel, name: "marketplace", destination: stdout });
  const accessLogger = createAccessLogger({ level: config.logLevel, name: "marketplace", destination: stdout });
  startMarketplace(config, { logger, accessLogger }, wireMarketplace).catch((error: unknown) => {
    const taken = portInUseMessage(error, config.port, "PORT");
    if (taken) console.error(`marketplace: ${taken}`);
    else logger.fatal({ err: error }, "failed to start");
    process.exit(1);
  });
}
