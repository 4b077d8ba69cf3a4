import { useState } from "preact/hooks";
import { type Schemas, unwrap } from "../../shared/api.ts";
import { Select } from "../../shared/fields.tsx";
import { formatTime } from "../../shared/format.ts";
import { useLoad } from "../../shared/load.ts";
import { href } from "../../shared/router.ts";
import { ActionButton, Loaded, TableBox } from "../../shared/ui.tsx";
import { choicesOf, DRIVER_NAMES, FULFILLMENT_STATUS_NAMES, shortId } from "../choices.ts";
import { api } from "../context.ts";
import { Notice } from "../operations/notice.tsx";
import { PageLinks, usePager } from "../operations/pager.tsx";
import { Toolbar } from "../operations/toolbar.tsx";

type Fulfillment = Schemas["Fulfillment"];
type Status = Schemas["FulfillmentStatus"];
type Driver = Schemas["FulfillmentDriver"];

const STATUS_CHOICES = choicesOf(FULFILLMENT_STATUS_NAMES, "Any status");
const DRIVER_CHOICES = choicesOf(DRIVER_NAMES, "Any driver");

export function Fulfillments() {
  const [status, setStatus] = useState<Status | "">("");
  const [driver, setDriver] = useState<Driver | "">("");
  const [notice, setNotice] = useState("");
  const pager = usePager(`${status}/${driver}`);
  const { result, reload } = useLoad(
    () =>
      unwrap(
        api.GET("/api/admin/fulfillments", {
          params: { query: { status: status || undefined, driver: driver || undefined, cursor: pager.cursor } },
        }),
      ),
    [status, driver, pager.cursor],
  );
  const retried = (record: Fulfillment) => {
    setNotice(`The delivery of order ${shortId(record.order_id)} is queued again.`);
    reload();
  };
  return (
    <>
      <h1>Fulfillments</h1>
      <Toolbar onRefresh={reload}>
        <Select label="Status" value={status} options={STATUS_CHOICES} onChange={(v) => setStatus(v as Status)} />
        <Select label="Driver" value={driver} options={DRIVER_CHOICES} onChange={(v) => setDriver(v as Driver)} />
      </Toolbar>
      <Notice text={notice} />
      <Loaded result={result}>
        {(found) =>
          found.items.length === 0 ? (
            <p>No deliveries match these filters.</p>
          ) : (
            <>
              <FulfillmentTable items={found.items} onRetried={retried} />
              <PageLinks pager={pager} next={found.next_cursor} />
            </>
          )
        }
      </Loaded>
    </>
  );
}

function FulfillmentTable(props: { items: readonly Fulfillment[]; onRetried: (record: Fulfillment) => void }) {
  return (
    <TableBox
      label="Fulfillments"
      columns={["Order", "Driver", "Status", "Attempts", "Last error", "Updated", "Action"]}
    >
      <tbody>
        {props.items.map((record) => (
          <tr key={record.id}>
            <td>
              <a href={href(`/orders/${encodeURIComponent(record.order_id)}`)}>Order {shortId(record.order_id)}</a>
            </td>
            <td>{DRIVER_NAMES[record.driver]}</td>
            <td class="status">
              {FULFILLMENT_STATUS_NAMES[record.status]}
              {record.external_status && record.external_status !== record.status ? (
                <small class="note"> (provider: {record.external_status})</small>
              ) : null}
            </td>
            <td>{record.attempts}</td>
            <td>{record.last_error ? <code>{record.last_error}</code> : "—"}</td>
            <td>{formatTime(record.updated_at)}</td>
            <td>
              {record.status === "failed" ? (
                <ActionButton
                  label="Retry"
                  run={() =>
                    unwrap(api.POST("/api/admin/fulfillments/{id}/retry", { params: { path: { id: record.id } } }))
                  }
                  describe={(answer) => `Now ${FULFILLMENT_STATUS_NAMES[answer.status].toLowerCase()}.`}
                  onDone={props.onRetried}
                />
              ) : null}
            </td>
          </tr>
        ))}
      </tbody>
    </TableBox>
  );
}
