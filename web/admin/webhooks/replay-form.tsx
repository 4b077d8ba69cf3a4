import { useState } from "preact/hooks";
import { ApiProblem, unwrap } from "../../shared/api.ts";
import { Checkbox, Field } from "../../shared/fields.tsx";
import { useFieldErrors } from "../../shared/use-field-errors.ts";
import { useSubmit } from "../../shared/use-submit.ts";
import { api } from "../context.ts";
import type { Replay } from "./use-tracked-replay.ts";

const FIELDS = ["/since", "/until", "/only_failed"] as const;

/** A `datetime-local` value is the admin's own clock; the API takes an instant, sent in UTC. */
const instant = (local: string) => new Date(local).toISOString();

/**
 * Asks for an endpoint's events of a window to be sent again. A replay already running is refused
 * (409): the form says so, and `onRunning` lets the page follow the one that runs.
 */
export function ReplayForm(props: { endpointId: string; onStarted: (replay: Replay) => void; onRunning: () => void }) {
  const [since, setSince] = useState("");
  const [until, setUntil] = useState("");
  const [onlyFailed, setOnlyFailed] = useState(false);
  const fields = useFieldErrors(FIELDS);
  const { busy, message, submit } = useSubmit(async () => {
    fields.clear();
    try {
      const replay = await unwrap(
        api.POST("/api/admin/webhook-endpoints/{id}/replay", {
          params: { path: { id: props.endpointId } },
          body: { since: instant(since), ...(until ? { until: instant(until) } : {}), only_failed: onlyFailed },
        }),
      );
      props.onStarted(replay);
      return undefined;
    } catch (error) {
      if (error instanceof ApiProblem && error.problem.code === "WEBHOOK_REPLAY_RUNNING") props.onRunning();
      throw error;
    }
  }, fields.take);
  return (
    <form onSubmit={submit}>
      <Field
        label="Since"
        type="datetime-local"
        required
        hint="Events created from this time on, in your local time."
        error={fields.errors["/since"]}
        value={since}
        onInput={(e) => setSince(e.currentTarget.value)}
      />
      <Field
        label="Until"
        type="datetime-local"
        hint="Events created before this time; leave empty for up to now."
        error={fields.errors["/until"]}
        value={until}
        onInput={(e) => setUntil(e.currentTarget.value)}
      />
      <Checkbox
        label="Only failed"
        hint="Only events this endpoint has not received yet: given up on, still being tried, or never sent to it."
        error={fields.errors["/only_failed"]}
        checked={onlyFailed}
        onChange={setOnlyFailed}
      />
      <button type="submit" disabled={busy || since === ""}>
        Replay
      </button>
      <p role="alert" class="error">
        {message}
      </p>
    </form>
  );
}
