import { useEffect } from "preact/hooks";
import { unwrap } from "../../shared/api.ts";
import { formatTime } from "../../shared/format.ts";
import { dataOf, useLoad } from "../../shared/load.ts";
import { Loaded, TableBox } from "../../shared/ui.tsx";
import { useRefreshWhile } from "../../shared/use-refresh.ts";
import { shortId } from "../choices.ts";
import { api } from "../context.ts";
import { PageLinks, usePager } from "../operations/pager.tsx";
import { Toolbar } from "../operations/toolbar.tsx";
import { CancelReplayButton } from "./cancel-replay-button.tsx";
import { REPLAY_POLL_MS } from "./use-tracked-replay.ts";

const COLUMNS = [
  "Replay",
  "Asked for",
  "Window",
  "Status",
  "Matched",
  "Sent a first time",
  "Delivered",
  "Given up",
  "Still tried",
  "Action",
] as const;

/**
 * The endpoint's replays, newest first; asked for again while one of them runs and whenever
 * `version` moves (a replay started or progressed above).
 */
export function Replays(props: { endpointId: string; version: number; onShowDeliveries: (replayId: string) => void }) {
  const pager = usePager(props.endpointId);
  const { result, reload } = useLoad(
    () =>
      unwrap(
        api.GET("/api/admin/webhook-endpoints/{id}/replays", {
          params: { path: { id: props.endpointId }, query: { cursor: pager.cursor } },
        }),
      ),
    [props.endpointId, pager.cursor],
  );
  useEffect(() => {
    if (props.version > 0) reload();
  }, [props.version]);
  const running = dataOf(result)?.items.some((replay) => replay.status === "running") ?? false;
  useRefreshWhile(running, reload, result, REPLAY_POLL_MS);
  return (
    <section aria-labelledby="replays-heading">
      <h2 id="replays-heading">Past replays</h2>
      <Toolbar onRefresh={reload}></Toolbar>
      <Loaded result={result}>
        {(found) =>
          found.items.length === 0 ? (
            <p>No replays yet.</p>
          ) : (
            <>
              <TableBox label="Replays" columns={COLUMNS}>
                <tbody>
                  {found.items.map((replay) => (
                    <tr key={replay.id}>
                      <td>
                        <button type="button" class="secondary" onClick={() => props.onShowDeliveries(replay.id)}>
                          Deliveries of {shortId(replay.id)}
                        </button>
                      </td>
                      <td>{formatTime(replay.created_at)}</td>
                      <td>
                        {formatTime(replay.since)} to {formatTime(replay.until)}
                        {replay.only_failed ? ", only failed" : ""}
                      </td>
                      <td class="status">
                        {replay.status}
                        {replay.last_error ? <small class="note"> {replay.last_error}</small> : null}
                      </td>
                      <td>{replay.total}</td>
                      <td>{replay.processed}</td>
                      <td>{replay.sent}</td>
                      <td>{replay.failed}</td>
                      <td>{replay.pending}</td>
                      <td>
                        {replay.status === "running" ? (
                          <CancelReplayButton
                            endpointId={props.endpointId}
                            replay={replay}
                            label={`Cancel replay ${shortId(replay.id)}`}
                            onCancelled={reload}
                          />
                        ) : null}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </TableBox>
              <PageLinks pager={pager} next={found.next_cursor} />
            </>
          )
        }
      </Loaded>
    </section>
  );
}
