import { unwrap } from "../../shared/api.ts";
import { ActionButton } from "../../shared/ui.tsx";
import { api } from "../context.ts";
import type { Replay } from "./use-tracked-replay.ts";

/**
 * Stops a running replay after the admin confirms: it sends no further event (the one in flight may
 * still arrive), and the endpoint may replay again. `onCancelled` gets the replay as the API answered.
 */
export function CancelReplayButton(props: {
  endpointId: string;
  replay: Replay;
  label: string;
  onCancelled: (replay: Replay) => void;
}) {
  return (
    <ActionButton
      label={props.label}
      confirm="Stop this replay? The events it has not sent yet will not be sent."
      run={() =>
        unwrap(
          api.POST("/api/admin/webhook-endpoints/{id}/replays/{replay_id}/cancel", {
            params: { path: { id: props.endpointId, replay_id: props.replay.id } },
          }),
        )
      }
      describe={(replay) => (replay.status === "cancelled" ? "Cancelled." : `Already ${replay.status}.`)}
      onDone={props.onCancelled}
    />
  );
}
