import type { Logger } from "../kit/logger.ts";
import { createProviderSimApp } from "./app.ts";
import { createSimClock } from "./clock.ts";
import type { ProviderSimConfig } from "./config.ts";
import { createFaultQueue } from "./faults.ts";
import { createGatewaySandboxes, withGatewayBilling } from "./gateways/gateway-sandboxes.ts";
import { createMailbox } from "./mail/mailbox.ts";
import { startSmtpListener } from "./mail/smtp-listener.ts";
import { createSmtpRefusals } from "./mail/smtp-refusals.ts";
import { createTenantStore } from "./tenant-store.ts";
import { runTick } from "./tick.ts";

/** Builds the simulator from its configuration; main and the tests share this wiring. */
export function wireProviderSim(options: {
  readonly config: ProviderSimConfig;
  readonly logger: Logger;
  readonly wallTime?: () => number;
  /** Pause between background webhook attempts; tests shorten it. */
  readonly webhookRetryDelayMs?: number;
  /** How many messages the mail sandbox keeps; tests make it small. */
  readonly mailboxCapacity?: number;
}) {
  const { config, logger } = options;
  const wallTime = options.wallTime ?? Date.now;
  const simClock = createSimClock(wallTime);
  const gateways = createGatewaySandboxes({
    logger,
    clock: simClock,
    wallTime,
    publicUrl: config.publicUrl,
    marketplaceUrl: config.marketplaceUrl,
    gatewayA: config.gatewayA,
    gatewayB: config.gatewayB,
    ...(options.webhookRetryDelayMs === undefined ? {} : { webhookRetryDelayMs: options.webhookRetryDelayMs }),
  });
  const clock = withGatewayBilling(simClock, gateways);
  const store = createTenantStore({ plans: config.plans, clock });
  const faults = createFaultQueue();
  const mailbox = createMailbox(options.mailboxCapacity === undefined ? {} : { capacity: options.mailboxCapacity });
  const mailRefusals = createSmtpRefusals();
  const app = createProviderSimApp({
    logger,
    clock,
    wallTime,
    store,
    faults,
    gateways,
    mailbox,
    mailRefusals,
    token: config.token,
    hmacSecret: config.hmacSecret,
    controls: config.controls,
    publicUrl: config.publicUrl,
    instanceId: config.instanceId,
  });
  return {
    app,
    clock,
    store,
    faults,
    gateways,
    mailbox,
    mailRefusals,
    tick: () => runTick(store, clock.now()),
    /** Starts the mail sandbox's SMTP side on the configured host and port. */
    listenForMail: () =>
      startSmtpListener({
        host: config.host,
        port: config.smtpPort,
        mailbox,
        refusals: mailRefusals,
        logger,
        wallTime,
      }),
  };
}
