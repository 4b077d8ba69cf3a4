import { useState } from "preact/hooks";
import { type Schemas, unwrap } from "../../shared/api.ts";
import { Field } from "../../shared/fields.tsx";
import { formatTime, humanize } from "../../shared/format.ts";
import { href } from "../../shared/router.ts";
import { ActionButton, Loaded, TableBox } from "../../shared/ui.tsx";
import { shortId } from "../choices.ts";
import { api } from "../context.ts";
import { Notice, useChangingRecord } from "../operations/notice.tsx";
import { LICENSE_STATUS_NAMES } from "./licenses.tsx";

type Details = Schemas["AdminLicenseDetails"];
type License = Details["license"];

/** One license: what it is, its machines, its history, and what an admin can do to it. */
export function LicensePage(props: { id: string }) {
  const { result, notice, changed } = useChangingRecord(
    () => unwrap(api.GET("/api/admin/licenses/{id}", { params: { path: { id: props.id } } })),
    [props.id],
  );
  return (
    <>
      <p>
        <a href={href("/licenses")}>All licenses</a>
      </p>
      <h1>License {shortId(props.id)}</h1>
      <Notice text={notice} />
      <Loaded result={result}>
        {(details) => (
          <>
            <Summary license={details.license} licenseKey={details.license_key} />
            <Actions license={details.license} onChanged={changed} />
            <h2>Machines</h2>
            {details.machines.length === 0 ? (
              <p>No machine holds a seat.</p>
            ) : (
              <TableBox label="Machines" columns={["Machine", "Platform", "Activated", "Last seen"]}>
                <tbody>
                  {details.machines.map((machine) => (
                    <tr key={machine.id}>
                      <td>
                        {machine.name ?? machine.hostname ?? "—"} <code>{machine.fingerprint}</code>
                      </td>
                      <td>{machine.platform ?? "—"}</td>
                      <td>{formatTime(machine.activated_at)}</td>
                      <td>
                        {formatTime(machine.last_seen_at)}
                        {machine.checked_out_until ? (
                          <small class="note"> (offline file until {formatTime(machine.checked_out_until)})</small>
                        ) : null}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </TableBox>
            )}
            <h2>History</h2>
            <TableBox label="History" columns={["When", "What", "By", "Machine"]}>
              <tbody>
                {details.history.map((event) => (
                  <tr key={event.id}>
                    <td>{formatTime(event.at)}</td>
                    <td>{humanize(event.kind)}</td>
                    <td>{event.actor}</td>
                    <td>{event.fingerprint ? <code>{event.fingerprint}</code> : "—"}</td>
                  </tr>
                ))}
              </tbody>
            </TableBox>
          </>
        )}
      </Loaded>
    </>
  );
}

function Summary(props: { license: License; licenseKey: string | null }) {
  const { license } = props;
  return (
    <dl>
      <dt>Status</dt>
      <dd id="license-status">
        {LICENSE_STATUS_NAMES[license.status]}
        {license.held ? " (held by an admin)" : ""}
      </dd>
      <dt>Customer</dt>
      <dd>{license.customer_email}</dd>
      <dt>Product</dt>
      <dd>
        {license.product_name} ({license.license_type})
      </dd>
      <dt>Order</dt>
      <dd>
        <a href={href(`/orders/${encodeURIComponent(license.order_id)}`)}>Order {shortId(license.order_id)}</a>
      </dd>
      <dt>Seats</dt>
      <dd>
        {license.activations} of {license.max_activations}
        {license.floating ? `, floating (heartbeat every ${license.heartbeat_seconds} s)` : ""}
      </dd>
      <dt>Offline files</dt>
      <dd>
        {license.offline_checkout_max_days > 0 ? `up to ${license.offline_checkout_max_days} days` : "not allowed"}
      </dd>
      <dt>Expires</dt>
      <dd id="license-expires">{license.expires_at ? formatTime(license.expires_at) : "never"}</dd>
      <dt>Key</dt>
      <dd>
        <code id="license-key">{props.licenseKey ?? license.key_hint}</code>
        {license.reissues > 0 ? <small class="note"> (reissued {license.reissues}×)</small> : null}
      </dd>
    </dl>
  );
}

function Actions(props: { license: License; onChanged: (text: string) => void }) {
  const { license, onChanged } = props;
  const [days, setDays] = useState("30");
  const path = { params: { path: { id: license.id } } };
  if (license.status === "revoked") return <p class="note">A revoked license is final.</p>;
  return (
    <section aria-labelledby="license-actions">
      <h2 id="license-actions">Actions</h2>
      <div class="toolbar">
        {license.status === "active" ? (
          <ActionButton
            label="Suspend"
            confirm="Suspend this license? The software stops accepting it, and the customer is emailed."
            run={() => unwrap(api.POST("/api/admin/licenses/{id}/suspend", path))}
            onDone={() => onChanged("Suspended; the customer was told.")}
          />
        ) : (
          <ActionButton
            label="Reinstate"
            run={() => unwrap(api.POST("/api/admin/licenses/{id}/reinstate", path))}
            onDone={() => onChanged("Reinstated; the customer was told.")}
          />
        )}
        <ActionButton
          label="Reset machines"
          confirm="Free every seat? Each machine must activate again."
          run={() => unwrap(api.POST("/api/admin/licenses/{id}/reset-machines", path))}
          onDone={() => onChanged("Every seat is free.")}
        />
        <ActionButton
          label="Reissue key"
          confirm="Give this license a new key? The old key stops working at once; the customer is emailed the new one."
          run={() => unwrap(api.POST("/api/admin/licenses/{id}/reissue", path))}
          onDone={() => onChanged("A new key is issued and emailed to the customer.")}
        />
      </div>
      {license.expires_at ? (
        <div class="toolbar">
          <Field
            label="Days"
            type="number"
            min={1}
            max={3650}
            value={days}
            onInput={(e) => setDays(e.currentTarget.value)}
          />
          <ActionButton
            label="Extend"
            run={() => unwrap(api.POST("/api/admin/licenses/{id}/extend", { ...path, body: { days: Number(days) } }))}
            onDone={(after) => onChanged(`Extended; it now expires ${formatTime(after.license.expires_at)}.`)}
          />
        </div>
      ) : null}
    </section>
  );
}
