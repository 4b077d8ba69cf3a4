import { useEffect, useState } from "preact/hooks";
import { ApiProblem, type Schemas, unwrap } from "../../shared/api.ts";
import { api } from "../context.ts";

export type Replay = Schemas["WebhookReplay"];

/** How long after each answer a running replay is asked for again. */
export const REPLAY_POLL_MS = 2000;

/**
 * The replay an admin follows: asked for again `REPLAY_POLL_MS` after each answer while it runs,
 * and no more once it has completed or the page has gone (the timer dies with the component, and
 * an answer that comes later is dropped). A refusal (the endpoint deleted meanwhile) stops the
 * polling; a failure to reach the server tries again.
 */
export function useTrackedReplay(endpointId: string) {
  const [replay, setReplay] = useState<Replay | undefined>();
  const [failure, setFailure] = useState<unknown>();
  useEffect(() => {
    if (replay?.status !== "running") return;
    let current = true;
    const timer = setTimeout(async () => {
      try {
        const next = await unwrap(
          api.GET("/api/admin/webhook-endpoints/{id}/replays/{replay_id}", {
            params: { path: { id: endpointId, replay_id: replay.id } },
          }),
        );
        if (!current) return;
        setFailure(undefined);
        setReplay(next);
      } catch (error) {
        if (!current) return;
        setFailure(error);
        const refused = error instanceof ApiProblem && error.problem.status < 500;
        if (!refused) setReplay({ ...replay });
      }
    }, REPLAY_POLL_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [endpointId, replay]);
  const follow = (next: Replay) => {
    setFailure(undefined);
    setReplay(next);
  };
  return { replay, failure, follow };
}
