import type { ChangeSignal } from "../../application/shared/ports.ts";
import type { Logger } from "../../kit/logger.ts";
import type { Sql } from "./database.ts";

const CHANNEL_PREFIX = "mkt_";

/**
 * LISTEN/NOTIFY across every instance on the database. Local listeners run at once on publish;
 * other instances hear it on commit. postgres.js re-issues LISTEN after a reconnect and calls
 * `onlisten` again, and since notifications sent meanwhile are lost, listeners run then too.
 */
export function createPostgresChangeSignal(deps: {
  sql: Sql;
  logger: Logger;
}): ChangeSignal & { close(): Promise<void> } {
  const listeners = new Map<string, Set<() => void>>();
  const subscriptions: Promise<{ unlisten(): Promise<void> }>[] = [];
  const fire = (topic: string) => {
    for (const listener of listeners.get(topic) ?? []) listener();
  };
  return {
    async publish(topic) {
      fire(topic);
      await deps.sql`select pg_notify(${CHANNEL_PREFIX + topic}, '')`;
    },
    subscribe(topic, listener) {
      let set = listeners.get(topic);
      if (!set) {
        set = new Set();
        listeners.set(topic, set);
        const subscription = deps.sql.listen(
          CHANNEL_PREFIX + topic,
          () => fire(topic),
          () => fire(topic),
        );
        subscription.catch((error: unknown) => deps.logger.error({ err: error, topic }, "listen failed"));
        subscriptions.push(subscription);
      }
      set.add(listener);
      return () => set.delete(listener);
    },
    async close() {
      await Promise.allSettled(subscriptions.map(async (s) => (await s).unlisten()));
    },
  };
}
