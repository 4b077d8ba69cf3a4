import { paddleSignature } from "../../provider-sim/gateways/gateway-a/events.ts";
import { stripeSignature } from "../../provider-sim/gateways/gateway-b/events.ts";

/**
 * Tests sign webhooks with the simulator's own signers, so one implementation of each gateway's
 * scheme is checked against the marketplace's verifiers (and, for Stripe, the official SDK).
 * These take the time in milliseconds like the verifiers do.
 */
export const signPaddleWebhook = (body: string | Uint8Array, secret: string, nowMs: number): Promise<string> =>
  paddleSignature(secret, body, Math.floor(nowMs / 1000));

export const signStripeWebhook = (body: string | Uint8Array, secret: string, nowMs: number): Promise<string> =>
  stripeSignature(secret, body, Math.floor(nowMs / 1000));
