import { useEffect } from "preact/hooks";
import { unwrap } from "../../shared/api.ts";
import { formatTime } from "../../shared/format.ts";
import { useLoad } from "../../shared/load.ts";
import { ActionButton, Loaded, TableBox } from "../../shared/ui.tsx";
import { shortId } from "../choices.ts";
import { api } from "../context.ts";
import { PageLinks, usePager } from "../operations/pager.tsx";
import { Toolbar } from "../operations/toolbar.tsx";

const COLUMNS = ["Created", "Event", "Webhook id", "State", "Attempts", "Last status", "Replay", "Action"] as const;

/**
 * The endpoint's deliveries, newest first, or only those a replay sent; asked for again whenever
 * `version` moves. A dead one can be sent again from its first attempt, under the same webhook-id.
 */
export function Deliveries(props: { endpointId: string; replayId: string; version: number; onShowAll: () => void }) {
  const { endpointId, replayId } = props;
  const pager = usePager(`${endpointId} ${replayId}`);
  const { result, reload } = useLoad(
    () =>
      unwrap(
        api.GET("/api/admin/webhook-endpoints/{id}/deliveries", {
          params: { path: { id: endpointId }, query: { replay_id: replayId || undefined, cursor: pager.cursor } },
        }),
      ),
    [endpointId, replayId, pager.cursor],
  );
  useEffect(() => {
    if (props.version > 0) reload();
  }, [props.version]);
  return (
    <section aria-labelledby="deliveries-heading">
      <h2 id="deliveries-heading">{replayId ? `Deliveries of replay ${shortId(replayId)}` : "Recent deliveries"}</h2>
      <Toolbar onRefresh={reload}>
        {replayId ? (
          <button type="button" class="secondary" onClick={props.onShowAll}>
            All deliveries
          </button>
        ) : null}
      </Toolbar>
      <Loaded result={result}>
        {(found) =>
          found.items.length === 0 ? (
            <p>No deliveries yet.</p>
          ) : (
            <>
              <TableBox label="Deliveries" columns={COLUMNS}>
                <tbody>
                  {found.items.map((delivery) => (
                    <tr key={delivery.id}>
                      <td>{formatTime(delivery.created_at)}</td>
                      <td>{delivery.event_type}</td>
                      <td>
                        <code>{delivery.webhook_id}</code>
                      </td>
                      <td class="status">{delivery.state}</td>
                      <td>{delivery.attempts}</td>
                      <td>
                        {delivery.last_status_code ?? "—"}
                        {delivery.last_error ? <small class="note"> {delivery.last_error}</small> : null}
                      </td>
                      <td>{delivery.replay_id ? shortId(delivery.replay_id) : "—"}</td>
                      <td>
                        {delivery.state === "dead" ? (
                          <ActionButton
                            label="Redeliver"
                            run={() =>
                              unwrap(
                                api.POST("/api/admin/webhook-endpoints/{id}/deliveries/{delivery_id}/redeliver", {
                                  params: { path: { id: endpointId, delivery_id: delivery.id } },
                                }),
                              )
                            }
                            describe={() => "Queued from its first attempt."}
                            onDone={reload}
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
