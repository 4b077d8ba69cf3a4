import { useState } from "preact/hooks";
import { unwrap } from "../../shared/api.ts";
import { formatTime } from "../../shared/format.ts";
import { useLoad } from "../../shared/load.ts";
import { href } from "../../shared/router.ts";
import { ActionButton, Loaded, TableBox } from "../../shared/ui.tsx";
import { api } from "../context.ts";
import { Notice } from "../operations/notice.tsx";
import { PageLinks, usePager } from "../operations/pager.tsx";
import { Toolbar } from "../operations/toolbar.tsx";
import { NewEndpoint } from "../webhooks/new-endpoint.tsx";

/** `/admin/webhooks`: the receivers of the shop's outgoing webhooks, adding and removing one. */
export function Webhooks() {
  const pager = usePager("webhooks");
  const { result, reload } = useLoad(
    () => unwrap(api.GET("/api/admin/webhook-endpoints", { params: { query: { cursor: pager.cursor } } })),
    [pager.cursor],
  );
  const [notice, setNotice] = useState("");
  return (
    <>
      <h1>Webhooks</h1>
      <p class="note">
        The shop POSTs what changed (a paid order, a renewal, a delivery ready) to these endpoints, signed as Standard
        Webhooks. An endpoint's page shows its deliveries and sends a time window's events again.
      </p>
      <NewEndpoint onCreated={reload} />
      <h2>Endpoints</h2>
      <Toolbar onRefresh={reload}></Toolbar>
      <Notice text={notice} />
      <Loaded result={result}>
        {(found) =>
          found.items.length === 0 ? (
            <p>No endpoints yet.</p>
          ) : (
            <>
              <TableBox label="Webhook endpoints" columns={["URL", "Events", "Description", "Created", "Action"]}>
                <tbody>
                  {found.items.map((endpoint) => (
                    <tr key={endpoint.id}>
                      <td>
                        <a href={href(`/webhooks/${endpoint.id}`)}>{endpoint.url}</a>
                      </td>
                      <td>{endpoint.events.join(", ")}</td>
                      <td>{endpoint.description ?? "—"}</td>
                      <td>{formatTime(endpoint.created_at)}</td>
                      <td>
                        <ActionButton
                          label={`Delete ${endpoint.url}`}
                          confirm={`Delete the endpoint ${endpoint.url}? Its deliveries still pending are not sent.`}
                          run={() =>
                            unwrap(
                              api.DELETE("/api/admin/webhook-endpoints/{id}", {
                                params: { path: { id: endpoint.id } },
                              }),
                            )
                          }
                          describe={() => "Deleted."}
                          onDone={() => {
                            setNotice(`Deleted the endpoint ${endpoint.url}.`);
                            reload();
                          }}
                        />
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
    </>
  );
}
