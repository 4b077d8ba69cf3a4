import type { OpsTask, OpsTaskRepository } from "../../../application/fulfillment/ports.ts";

/**
 * Operations tasks in memory with the real repository's rules: at most one open task per record
 * and kind (opening again returns it), only an open task completes, cancel closes every open one.
 */
export function createInMemoryOpsTaskRepository(): OpsTaskRepository & {
  readonly all: () => OpsTask[];
  readonly completedBy: ReadonlyMap<string, string>;
} {
  const tasks = new Map<string, OpsTask>();
  const completedBy = new Map<string, string>();
  const replace = (task: OpsTask, change: Partial<OpsTask>) => {
    const changed = { ...task, ...change };
    tasks.set(task.id, changed);
    return changed;
  };

  return {
    all: () => [...tasks.values()],
    completedBy,

    async open(draft) {
      const open = [...tasks.values()].find(
        (t) => t.fulfillment_record_id === draft.fulfillment_record_id && t.kind === draft.kind && t.status === "open",
      );
      if (open) return open;
      const task: OpsTask = {
        ...draft,
        id: crypto.randomUUID(),
        status: "open",
        result: null,
        completed_at: null,
        created_at: new Date(),
      };
      tasks.set(task.id, task);
      return task;
    },

    find: async (id) => tasks.get(id),

    async list(filter, page) {
      const matching = [...tasks.values()].filter(
        (t) => (!filter.status || t.status === filter.status) && (!filter.queue_id || t.queue_id === filter.queue_id),
      );
      return { items: matching.slice(0, page.limit), next_cursor: null };
    },

    async complete(id, by, result) {
      const task = tasks.get(id);
      if (task?.status !== "open") return undefined;
      completedBy.set(id, by);
      return replace(task, { status: "completed", result, completed_at: new Date() });
    },

    async cancelFor(fulfillmentRecordId) {
      for (const task of tasks.values()) {
        if (task.fulfillment_record_id === fulfillmentRecordId && task.status === "open") {
          replace(task, { status: "cancelled" });
        }
      }
    },
  };
}
