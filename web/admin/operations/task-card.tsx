import { useId, useState } from "preact/hooks";
import { type Schemas, unwrap } from "../../shared/api.ts";
import { Field, TextArea } from "../../shared/fields.tsx";
import { formatTime } from "../../shared/format.ts";
import { ActionButton } from "../../shared/ui.tsx";
import { api } from "../context.ts";

type Task = Schemas["OpsTask"];

const KIND_NAMES: Readonly<Record<Task["kind"], string>> = {
  manual_fulfillment: "Manual delivery",
  provisioning: "Installation",
};

export const isOverdue = (task: Task, now: number) => task.status === "open" && Date.parse(task.due_at) < now;

/** One task: what to do, by when, and for an open one the form that completes it. */
export function TaskCard(props: {
  task: Task;
  now: number;
  onCompleted: (task: Task, delivery: Schemas["Fulfillment"]) => void;
}) {
  const { task } = props;
  const heading = useId();
  return (
    <article aria-labelledby={heading}>
      <h2 id={heading}>
        {KIND_NAMES[task.kind]} in queue “{task.queue_id}”
      </h2>
      <p class="instructions">{task.instructions}</p>
      <dl>
        <dt>Due</dt>
        <dd>
          {formatTime(task.due_at)}
          {isOverdue(task, props.now) ? <strong class="error"> Overdue</strong> : null}
        </dd>
        <dt>Status</dt>
        <dd>{task.status}</dd>
        <dt>Opened</dt>
        <dd>{formatTime(task.created_at)}</dd>
        {task.completed_at ? (
          <>
            <dt>Completed</dt>
            <dd>{formatTime(task.completed_at)}</dd>
          </>
        ) : null}
        {task.result && Object.keys(task.result).length > 0 ? (
          <>
            <dt>Result</dt>
            <dd>
              <code>{JSON.stringify(task.result)}</code>
            </dd>
          </>
        ) : null}
      </dl>
      {task.status === "open" ? (
        <CompleteTask task={task} onCompleted={(delivery) => props.onCompleted(task, delivery)} />
      ) : null}
    </article>
  );
}

function CompleteTask(props: { task: Task; onCompleted: (delivery: Schemas["Fulfillment"]) => void }) {
  const { task } = props;
  const [url, setUrl] = useState("");
  const [notes, setNotes] = useState("");
  const body = { ...(url.trim() ? { url: url.trim() } : {}), ...(notes.trim() ? { notes: notes.trim() } : {}) };
  return (
    <fieldset>
      <legend>Complete this task</legend>
      {task.kind === "provisioning" ? (
        <Field
          label="Installation URL"
          type="url"
          value={url}
          hint="Where the customer reaches the installation; they are shown it."
          onInput={(event) => setUrl(event.currentTarget.value)}
        />
      ) : null}
      <TextArea label="Notes" rows={2} value={notes} onInput={setNotes} hint="Optional; kept with the task." />
      <ActionButton
        label="Complete"
        run={() =>
          unwrap(api.POST("/api/admin/manual-tasks/{id}/complete", { params: { path: { id: task.id } }, body }))
        }
        describe={(record) => `Completed; the delivery is now ${record.status}.`}
        onDone={props.onCompleted}
      />
    </fieldset>
  );
}
