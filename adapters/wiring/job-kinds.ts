import { expireCheckoutJob } from "../../application/checkout/jobs.ts";
import { retireDiscountJob } from "../../application/discounts/jobs.ts";
import { fulfillJob, fulfillmentActionJob, releaseHeldDeliveriesJob } from "../../application/fulfillment/jobs.ts";
import { emailChangedJob, emailLinkJob, passwordResetJob } from "../../application/identity/jobs.ts";
import { sendEmailJob } from "../../application/mail/jobs.ts";
import { notifyJob } from "../../application/notifications/jobs.ts";
import { webhookDeliveryJob, webhookFanoutJob, webhookReplayJob } from "../../application/outgoing-webhooks/jobs.ts";
import { endGatewaySubscriptionJob, paymentEventJob, settleRefundJob } from "../../application/payments/jobs.ts";
import type { JobHandlers } from "../../application/shared/jobs.ts";

/**
 * Every kind of job the marketplace runs, by the kind stored in `jobs.kind`. Each is defined in the
 * `jobs.ts` of the feature that owns it; the worker reads a stored payload back with its type.
 */
export const JOB_TYPES = {
  [paymentEventJob.kind]: paymentEventJob,
  [endGatewaySubscriptionJob.kind]: endGatewaySubscriptionJob,
  [settleRefundJob.kind]: settleRefundJob,
  [expireCheckoutJob.kind]: expireCheckoutJob,
  [retireDiscountJob.kind]: retireDiscountJob,
  [fulfillJob.kind]: fulfillJob,
  [fulfillmentActionJob.kind]: fulfillmentActionJob,
  [releaseHeldDeliveriesJob.kind]: releaseHeldDeliveriesJob,
  [notifyJob.kind]: notifyJob,
  [sendEmailJob.kind]: sendEmailJob,
  [webhookFanoutJob.kind]: webhookFanoutJob,
  [webhookDeliveryJob.kind]: webhookDeliveryJob,
  [webhookReplayJob.kind]: webhookReplayJob,
  [passwordResetJob.kind]: passwordResetJob,
  [emailLinkJob.kind]: emailLinkJob,
  [emailChangedJob.kind]: emailChangedJob,
} as const;

export type JobKind = keyof typeof JOB_TYPES;

/** The worker's handler table: one handler per job kind, or the wiring does not compile. */
export type MarketplaceJobHandlers = JobHandlers<typeof JOB_TYPES>;

/** The handlers a feature gives, for the kinds it owns. */
export type FeatureJobs = Partial<MarketplaceJobHandlers>;
