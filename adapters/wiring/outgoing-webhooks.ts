import { makeDeliverWebhook } from "../../application/outgoing-webhooks/deliver-webhook.ts";
import { makeWebhookFanout } from "../../application/outgoing-webhooks/fan-out.ts";
import { webhookDeliveryJob, webhookFanoutJob, webhookReplayJob } from "../../application/outgoing-webhooks/jobs.ts";
import { makeWebhookEndpointAdmin } from "../../application/outgoing-webhooks/manage-endpoints.ts";
import { makeWebhookReplayAdmin } from "../../application/outgoing-webhooks/replay-webhooks.ts";
import { makeRunWebhookReplay } from "../../application/outgoing-webhooks/run-replay.ts";
import { makeWebhookDeliveryAdmin } from "../../application/outgoing-webhooks/webhook-deliveries.ts";
import { createPostgresJobScheduler } from "../jobs/postgres-job-scheduler.ts";
import { createHttpWebhookSender } from "../outgoing-webhooks/http-webhook-sender.ts";
import { newWebhookSecret } from "../outgoing-webhooks/standard-webhooks.ts";
import { createPostgresWebhookDeliveryRepository } from "../postgres/webhook-delivery-repository.ts";
import { createPostgresWebhookEndpointRepository } from "../postgres/webhook-endpoint-repository.ts";
import { createPostgresWebhookReplayRepository } from "../postgres/webhook-replay-repository.ts";
import { createPostgresWebhookUnitOfWork } from "../postgres/webhook-unit-of-work.ts";
import { createSecretCipher } from "../secrets/secret-cipher.ts";
import { createGuardedFetch } from "../security/guarded-fetch.ts";
import { createOutboundUrlPolicy } from "../security/url-guard.ts";
import type { FeatureJobs } from "./job-kinds.ts";
import type { Platform } from "./platform.ts";

/**
 * The shop telling its own systems: endpoints (secrets sealed with the secrets key), the fan-out
 * of each published event into deliveries, their signed sending through the outbound guard, and
 * replays of an endpoint's events at `WEBHOOK_REPLAY_PER_SECOND`.
 */
export function wireOutgoingWebhooks(platform: Platform) {
  const { infra, config, logger, sql, wake, clock } = platform;
  // Its own switch: opening provider and gateway addresses for a demo does not open webhooks.
  const allowPrivate = config.allowPrivateWebhookUrls;
  const urls = createOutboundUrlPolicy({ allowPrivate });
  const outbound = createGuardedFetch({ allowPrivate });
  const cipher = createSecretCipher(infra.secretsKey);
  const endpoints = createPostgresWebhookEndpointRepository(sql, cipher);
  const deliveries = createPostgresWebhookDeliveryRepository(sql, cipher);
  const uow = createPostgresWebhookUnitOfWork(sql, {
    jobsFor: (tx) => createPostgresJobScheduler({ sql: tx, wake }),
    cipher,
  });
  const replays = createPostgresWebhookReplayRepository(sql);
  const { retrySchedule, timeoutSeconds, replayPerSecond } = config.outgoingWebhooks;
  const admin = makeWebhookEndpointAdmin({ endpoints, uow, urls, newSecret: newWebhookSecret, clock });
  const deliveryAdmin = makeWebhookDeliveryAdmin({ endpoints, deliveries, uow, retrySchedule });
  const replayAdmin = makeWebhookReplayAdmin({ endpoints, replays, uow, clock });
  const sending = {
    deliveries,
    sender: createHttpWebhookSender({ outbound, timeoutSeconds }),
    retrySchedule,
    clock,
    log: logger,
  };
  return {
    useCases: {
      createWebhookEndpoint: admin.create,
      listWebhookEndpoints: admin.list,
      getWebhookEndpoint: admin.get,
      updateWebhookEndpoint: admin.update,
      deleteWebhookEndpoint: admin.remove,
      rotateWebhookEndpointSecret: admin.rotateSecret,
      listWebhookDeliveries: deliveryAdmin.list,
      redeliverWebhook: deliveryAdmin.redeliver,
      replayWebhooks: replayAdmin.start,
      listWebhookReplays: replayAdmin.list,
      getWebhookReplay: replayAdmin.get,
    },
    jobs: {
      [webhookFanoutJob.kind]: makeWebhookFanout({ uow, retrySchedule }),
      [webhookDeliveryJob.kind]: makeDeliverWebhook(sending),
      [webhookReplayJob.kind]: makeRunWebhookReplay({
        ...sending,
        replays,
        uow,
        perSecond: replayPerSecond,
        pause: (ms) => Bun.sleep(ms),
      }),
    } satisfies FeatureJobs,
  };
}

export type OutgoingWebhooksFeature = ReturnType<typeof wireOutgoingWebhooks>;
