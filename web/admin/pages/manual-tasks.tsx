import { useState } from "preact/hooks";
import { type Schemas, unwrap } from "../../shared/api.ts";
import { Select } from "../../shared/fields.tsx";
import { humanize } from "../../shared/format.ts";
import { useLoad } from "../../shared/load.ts";
import { Loaded } from "../../shared/ui.tsx";
import { api } from "../context.ts";
import { Notice } from "../operations/notice.tsx";
import { PageLinks, usePager } from "../operations/pager.tsx";
import { isOverdue, TaskCard } from "../operations/task-card.tsx";
import { Toolbar } from "../operations/toolbar.tsx";

type Status = Schemas["OpsTask"]["status"];

const STATUS_CHOICES = [
  ["open", "Open"],
  ["completed", "Completed"],
  ["cancelled", "Cancelled"],
  ["", "Any status"],
] as const;

export function ManualTasks() {
  const [status, setStatus] = useState<Status | "">("open");
  const [notice, setNotice] = useState("");
  const pager = usePager(status);
  const { result, reload } = useLoad(
    () =>
      unwrap(
        api.GET("/api/admin/manual-tasks", {
          params: { query: { status: status || undefined, cursor: pager.cursor } },
        }),
      ),
    [status, pager.cursor],
  );
  const completed = (task: Schemas["OpsTask"], delivery: Schemas["Fulfillment"]) => {
    setNotice(`The task in queue “${task.queue_id}” is completed; its delivery is now ${humanize(delivery.status)}.`);
    reload();
  };
  return (
    <>
      <h1>Manual tasks</h1>
      <p class="note">Deliveries and installations the operations team does by hand, each due by its SLA.</p>
      <Toolbar onRefresh={reload}>
        <Select label="Status" value={status} options={STATUS_CHOICES} onChange={(v) => setStatus(v as Status)} />
      </Toolbar>
      <Notice text={notice} />
      <Loaded result={result}>
        {(found) => {
          const now = Date.now();
          const overdue = found.items.filter((task) => isOverdue(task, now)).length;
          if (found.items.length === 0) return <p>No tasks here.</p>;
          return (
            <>
              {overdue > 0 ? (
                <p class="error">
                  {overdue} {overdue === 1 ? "task is" : "tasks are"} overdue.
                </p>
              ) : null}
              <ul class="tasks">
                {found.items.map((task) => (
                  <li key={task.id}>
                    <TaskCard task={task} now={now} onCompleted={completed} />
                  </li>
                ))}
              </ul>
              <PageLinks pager={pager} next={found.next_cursor} />
            </>
          );
        }}
      </Loaded>
    </>
  );
}
