import { useEffect } from "preact/hooks";
import { unwrap } from "../../shared/api.ts";
import { api } from "../context.ts";
import { ReplayForm } from "./replay-form.tsx";
import { ReplayProgress } from "./replay-progress.tsx";
import { useTrackedReplay } from "./use-tracked-replay.ts";

/**
 * The replay form and the replay it started (or the one running that refused it), followed until
 * it completes. `onProgress` hears of every change of its figures, for the lists below.
 */
export function ReplaySection(props: { endpointId: string; onProgress: () => void }) {
  const tracked = useTrackedReplay(props.endpointId);
  const { replay } = tracked;
  const figures = replay
    ? [replay.id, replay.status, replay.processed, replay.sent, replay.failed, replay.pending].join()
    : "";
  useEffect(() => {
    if (figures) props.onProgress();
  }, [figures]);
  // The 409 does not name the running replay; the list, newest first, does.
  const followRunning = async () => {
    const found = await unwrap(
      api.GET("/api/admin/webhook-endpoints/{id}/replays", {
        params: { path: { id: props.endpointId }, query: { limit: 10 } },
      }),
    );
    const running = found.items.find((item) => item.status === "running");
    if (running) tracked.follow(running);
  };
  return (
    <section aria-labelledby="replay-heading">
      <h2 id="replay-heading">Replay</h2>
      <p class="note">
        Sends the events of a time window again, in the order they happened, under their original webhook-ids, a few a
        second. One replay of an endpoint runs at a time.
      </p>
      <ReplayForm
        endpointId={props.endpointId}
        onStarted={tracked.follow}
        // Following it is a help beside the refusal the form shows; failing to, the form still says why.
        onRunning={() => void followRunning().catch(() => undefined)}
      />
      {replay ? (
        <ReplayProgress
          endpointId={props.endpointId}
          replay={replay}
          failure={tracked.failure}
          onChanged={tracked.follow}
        />
      ) : null}
    </section>
  );
}
