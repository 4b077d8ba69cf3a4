import type { WebhookInboxWriter } from "../../../application/payments/inbox-ports.ts";
import { createInMemoryWebhookInboxReader } from "./in-memory-webhook-inbox-reader.ts";
import { createRecordingJobScheduler } from "./recording-job-scheduler.ts";

/**
 * The webhook intake in memory: each entry stored with its job as one atomic step (a failure
 * leaves neither), once per `(gateway, event_id)` however many callers race with it; acceptances
 * run one after another, as transactions that never overlap would. `hold()`
 * keeps every acceptance from settling until the returned release is called, so a test can see
 * that an answer waits for its entry to be stored. `inbox` and `jobs` are reachable to seed,
 * inspect, or make fail.
 */
export function createInMemoryWebhookInboxWriter() {
  const inbox = createInMemoryWebhookInboxReader();
  const jobs = createRecordingJobScheduler();
  let gate: Promise<void> | undefined;
  let accepted = 0;
  let tail: Promise<unknown> = Promise.resolve();

  const store: WebhookInboxWriter["accept"] = async (entry, jobFor) => {
    await gate;
    const restores = [inbox.snapshot(), jobs.snapshot()];
    try {
      const stored = inbox.store(entry);
      if (!stored.inserted) return { duplicate: true };
      if (jobFor) await jobs.enqueue(jobFor(stored.id));
      accepted += 1;
      return { duplicate: false };
    } catch (error) {
      for (const restore of restores) restore();
      throw error;
    }
  };
  const intake: WebhookInboxWriter = {
    accept(entry, jobFor) {
      const run = tail.then(() => store(entry, jobFor));
      tail = run.catch(() => {});
      return run;
    },
  };

  return {
    ...intake,
    inbox,
    jobs,
    /** Entries stored so far (duplicates and failures not counted). */
    get accepted() {
      return accepted;
    },
    hold(): () => void {
      const { promise, resolve } = Promise.withResolvers<void>();
      gate = promise;
      return () => {
        gate = undefined;
        resolve();
      };
    },
  };
}

export type InMemoryWebhookInboxWriter = ReturnType<typeof createInMemoryWebhookInboxWriter>;
