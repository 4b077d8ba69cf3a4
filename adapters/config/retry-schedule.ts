import {
  DEFAULT_RETRY_SCHEDULE,
  parseRetrySchedule,
  type RetrySchedule,
} from "../../domain/outgoing-webhooks/webhook-delivery.ts";
import { ConfigError, type Env, text } from "../../kit/env-parsers.ts";

/** A retry schedule from `name` (such as `5s,5m,2h`), or the default one when unset. */
export function retrySchedule(env: Env, name: string): RetrySchedule {
  const raw = text(env, name);
  if (raw === undefined) return DEFAULT_RETRY_SCHEDULE;
  const schedule = parseRetrySchedule(raw);
  if (!schedule) {
    throw new ConfigError(
      name,
      "must be up to 99 comma-separated waits such as 5s,5m,2h (ms, s, m, h or d; each up to 7d)",
      raw,
    );
  }
  return schedule;
}
