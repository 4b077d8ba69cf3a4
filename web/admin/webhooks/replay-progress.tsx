import { useId } from "preact/hooks";
import { formatTime } from "../../shared/format.ts";
import { ErrorNote } from "../../shared/ui.tsx";
import { CancelReplayButton } from "./cancel-replay-button.tsx";
import type { Replay } from "./use-tracked-replay.ts";

const events = (count: number) => `${count} ${count === 1 ? "event" : "events"}`;

/** The replay's state in one sentence, said to screen readers as it changes. */
export function replaySummary(replay: Replay): string {
  if (replay.status === "running") return `Running: ${replay.processed} of ${events(replay.total)} sent a first time.`;
  const deliveries = `${replay.sent} delivered, ${replay.failed} given up, ${replay.pending} still being tried.`;
  if (replay.status === "cancelled") {
    return `Cancelled after ${replay.processed} of ${events(replay.total)}; ${deliveries}`;
  }
  if (replay.status === "failed") {
    return `Failed after ${replay.processed} of ${events(replay.total)}: ${replay.last_error ?? "its job gave up"}; ${deliveries}`;
  }
  return `Completed: ${events(replay.total)} sent; ${deliveries}`;
}

/**
 * A followed replay: how far it has got and its deliveries by state, refreshed while it runs, and
 * while it runs a button to cancel it.
 */
export function ReplayProgress(props: {
  endpointId: string;
  replay: Replay;
  failure: unknown;
  onChanged: (replay: Replay) => void;
}) {
  const { replay } = props;
  const heading = useId();
  const bar = useId();
  return (
    <section aria-labelledby={heading}>
      <h3 id={heading}>Replay asked for {formatTime(replay.created_at)}</h3>
      <p role="status" id="replay-status">
        {replaySummary(replay)}
      </p>
      {props.failure === undefined ? null : <ErrorNote error={props.failure} />}
      {replay.status === "running" ? (
        <CancelReplayButton
          endpointId={props.endpointId}
          replay={replay}
          label="Cancel this replay"
          onCancelled={props.onChanged}
        />
      ) : null}
      {replay.total > 0 ? (
        <div class="field">
          <label for={bar}>Sent a first time</label>
          <progress id={bar} max={replay.total} value={replay.processed}>
            {replay.processed} of {replay.total}
          </progress>
        </div>
      ) : null}
      <dl>
        <dt>Window</dt>
        <dd>
          {formatTime(replay.since)} to {formatTime(replay.until)}
          {replay.only_failed ? ", only events not delivered" : ""}
        </dd>
        <dt>Events matched</dt>
        <dd>{replay.total}</dd>
        <dt>Sent a first time</dt>
        <dd>{replay.processed}</dd>
        <dt>Delivered</dt>
        <dd>{replay.sent}</dd>
        <dt>Given up</dt>
        <dd>{replay.failed}</dd>
        <dt>Still being tried</dt>
        <dd>{replay.pending}</dd>
        {replay.finished_at ? (
          <>
            <dt>Finished</dt>
            <dd>{formatTime(replay.finished_at)}</dd>
          </>
        ) : null}
      </dl>
    </section>
  );
}
