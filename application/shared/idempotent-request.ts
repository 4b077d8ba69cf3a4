import { canonicalJson } from "../../domain/checkout/canonical-json.ts";
import type { IdempotencyStore } from "../checkout/ports.ts";
import { IdempotencyKeyReused, IdempotentRequestInProgress } from "./errors.ts";
import { sha256Hex } from "./secrets-in-links.ts";

/** What tells two request bodies apart, whatever the order of their fields. */
export const requestHash = (request: unknown): Promise<string> => sha256Hex(canonicalJson(request));

export interface IdempotentAnswer<T> {
  readonly status: number;
  readonly body: T;
  /** True when the answer is the one stored for the key, not a new run. */
  readonly replayed: boolean;
}

/**
 * Runs `work` once per `(user, key)` of the store's route, Stripe's way: the first answer is stored
 * and replayed; the same key with another `request` is `IdempotencyKeyReused`; while the first run
 * is still going, `IdempotentRequestInProgress`. A run that throws frees its key, so the request
 * may be retried: `work` must leave nothing behind that a retry would do twice. Without a key,
 * `work` just runs.
 */
export async function runIdempotently<T>(
  store: IdempotencyStore,
  userId: string,
  key: string | undefined,
  request: unknown,
  work: () => Promise<{ status: number; body: T }>,
): Promise<IdempotentAnswer<T>> {
  if (!key) return { ...(await work()), replayed: false };
  const begun = await store.begin(userId, key, await requestHash(request));
  if (begun.state === "mismatch") throw new IdempotencyKeyReused();
  if (begun.state === "in_progress") throw new IdempotentRequestInProgress();
  if (begun.state === "completed") return { status: begun.status, body: begun.response as T, replayed: true };
  try {
    const answer = await work();
    await store.complete(userId, key, answer.status, answer.body);
    return { ...answer, replayed: false };
  } catch (error) {
    await store.abandon(userId, key);
    throw error;
  }
}
