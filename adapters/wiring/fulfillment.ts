import { makeAdminFulfillmentActions } from "../../application/fulfillment/admin-fulfillment-actions.ts";
import { makeFulfillItem } from "../../application/fulfillment/fulfill-item.ts";
import { makeFulfillmentActionJob } from "../../application/fulfillment/fulfillment-action-job.ts";
import { makeReleaseHeldDeliveries } from "../../application/fulfillment/held-deliveries.ts";
import { fulfillJob, fulfillmentActionJob, releaseHeldDeliveriesJob } from "../../application/fulfillment/jobs.ts";
import { makeManageFulfillments } from "../../application/fulfillment/manage-fulfillments.ts";
import type { FulfillmentAdapters } from "../../application/fulfillment/ports.ts";
import { endSubscriptionBilling } from "../../application/payments/end-gateway-subscription.ts";
import { createManualFulfillmentAdapter } from "../fulfillment/manual-fulfillment-adapter.ts";
import { createPostgresFulfillmentContextLoader } from "../postgres/fulfillment-context-loader.ts";
import { createPostgresFulfillmentRepository } from "../postgres/fulfillment-repository.ts";
import { createPostgresOpsTaskRepository } from "../postgres/ops-task-repository.ts";
import type { FeatureJobs } from "./job-kinds.ts";
import type { LicensingFeature } from "./licensing.ts";
import type { Platform } from "./platform.ts";
import type { ProvisioningFeature } from "./provisioning.ts";

/** The router: one driver per delivery model, the fulfill and action jobs, ops tasks and retries. */
export function wireFulfillment(
  platform: Platform,
  { provisioning, licensing }: { provisioning: ProvisioningFeature; licensing: LicensingFeature },
) {
  const { sql, uow, clock, config, logger: log } = platform;
  const fulfillments = createPostgresFulfillmentRepository(sql);
  const contexts = createPostgresFulfillmentContextLoader(sql);
  const tasks = createPostgresOpsTaskRepository(sql);
  const adapters: FulfillmentAdapters = {
    ...provisioning.drivers({ fulfillments, tasks }),
    ...licensing.drivers,
    manual_fulfillment: createManualFulfillmentAdapter({ tasks, clock }),
  };
  const manage = makeManageFulfillments({ adapters, fulfillments, contexts, tasks, uow, log });
  return {
    fulfillments,
    useCases: {
      listFulfillments: fulfillments.list,
      getFulfillment: manage.find,
      retryFulfillment: manage.adminRetry,
      actOnFulfillment: makeAdminFulfillmentActions({ act: manage.act, endBilling: endSubscriptionBilling, uow, log }),
      listTasks: tasks.list,
      completeTask: manage.completeTask,
      getCustomerFulfillment: manage.find,
      retryCustomerFulfillment: manage.retry,
      supplyCustomerInput: manage.supplyInput,
    },
    jobs: {
      [fulfillJob.kind]: makeFulfillItem({
        adapters,
        fulfillments,
        contexts,
        uow,
        log,
        requireVerifiedEmail: config.requireVerifiedEmailForDelivery,
      }),
      [releaseHeldDeliveriesJob.kind]: makeReleaseHeldDeliveries({ fulfillments, uow, log }),
      [fulfillmentActionJob.kind]: makeFulfillmentActionJob({ act: manage.act, log }),
    } satisfies FeatureJobs,
  };
}

export type FulfillmentFeature = ReturnType<typeof wireFulfillment>;
