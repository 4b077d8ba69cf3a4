import type postgres from "postgres";
import type { OpsTask, OpsTaskRepository } from "../../application/fulfillment/ports.ts";
import { isUuid } from "../shared/ids.ts";
import { columnList } from "./column-list.ts";
import type { Queryable } from "./database.ts";
import { newestFirst } from "./keyset-page.ts";

const COLUMNS = [
  "id",
  "fulfillment_record_id",
  "kind",
  "queue_id",
  "instructions",
  "due_at",
  "status",
  "result",
  "completed_at",
  "created_at",
];

/** Operations tasks (manual fulfillment, provisioning): at most one open task per record and kind. */
export function createPostgresOpsTaskRepository(sql: Queryable): OpsTaskRepository {
  const columns = columnList(sql, COLUMNS);

  const findOpen = async (recordId: string, kind: OpsTask["kind"]) => {
    const [task] = await sql<OpsTask[]>`
      select ${columns} from ops_tasks
      where fulfillment_record_id = ${recordId} and kind = ${kind} and status = 'open'`;
    return task;
  };

  return {
    async open(task) {
      // Two tries: the open task found on conflict may be closed before we read it.
      for (let attempt = 0; attempt < 2; attempt++) {
        const [created] = await sql<OpsTask[]>`
          insert into ops_tasks (fulfillment_record_id, kind, queue_id, instructions, due_at, status)
          values (${task.fulfillment_record_id}, ${task.kind}, ${task.queue_id}, ${task.instructions}, ${task.due_at}, 'open')
          on conflict (fulfillment_record_id, kind) where status = 'open' do nothing
          returning ${columns}`;
        const found = created ?? (await findOpen(task.fulfillment_record_id, task.kind));
        if (found) return found;
      }
      throw new Error(`the ${task.kind} task of fulfillment ${task.fulfillment_record_id} keeps changing`);
    },

    async find(id) {
      if (!isUuid(id)) return undefined;
      const [task] = await sql<OpsTask[]>`select ${columns} from ops_tasks where id = ${id}`;
      return task;
    },

    async list(filter, page) {
      const keyset = newestFirst<OpsTask>(sql, page);
      const rows = await sql<OpsTask[]>`
        select ${columns} from ops_tasks
        where true
          ${filter.status ? sql`and status = ${filter.status}` : sql``}
          ${filter.queue_id ? sql`and queue_id = ${filter.queue_id}` : sql``}
          ${keyset.after}
        ${keyset.orderAndLimit}`;
      return keyset.cut(rows);
    },

    async complete(id, by, result) {
      if (!isUuid(id)) return undefined;
      const [task] = await sql<OpsTask[]>`
        update ops_tasks
        set status = 'completed', result = ${sql.json(result as postgres.JSONValue)}, completed_at = now(),
            completed_by = ${isUuid(by) ? by : null}
        where id = ${id} and status = 'open'
        returning ${columns}`;
      return task;
    },

    async cancelFor(fulfillmentRecordId) {
      await sql`
        update ops_tasks set status = 'cancelled'
        where fulfillment_record_id = ${fulfillmentRecordId} and status = 'open'`;
    },
  };
}
