import { useState } from "preact/hooks";
import { type Schemas, unwrap } from "../../shared/api.ts";
import { Field, Select } from "../../shared/fields.tsx";
import { formatTime } from "../../shared/format.ts";
import { useLoad } from "../../shared/load.ts";
import { href } from "../../shared/router.ts";
import { ActionButton, Loaded, TableBox } from "../../shared/ui.tsx";
import { choicesOf, shortId } from "../choices.ts";
import { api } from "../context.ts";
import { saveCsv } from "../operations/csv-download.ts";
import { PageLinks, usePager } from "../operations/pager.tsx";
import { Toolbar } from "../operations/toolbar.tsx";

type License = Schemas["AdminLicense"];
type Status = License["status"];

export const LICENSE_STATUS_NAMES: Readonly<Record<Status, string>> = {
  active: "Active",
  suspended: "Suspended",
  revoked: "Revoked",
};
const STATUS_CHOICES = choicesOf(LICENSE_STATUS_NAMES, "Any status");

/** A filter the API takes only once it is long enough to mean something. */
const atLeast = (value: string, length: number) => (value.trim().length >= length ? value.trim() : undefined);
// Every key begins with the same 23 characters; 30 reach into the license's own id.

/** Licenses by customer email, status or the start of a key a customer reads out. */
export function Licenses() {
  const [email, setEmail] = useState("");
  const [keyPrefix, setKeyPrefix] = useState("");
  const [status, setStatus] = useState<Status | "">("");
  const query = {
    customer_email: atLeast(email, 3),
    key_prefix: atLeast(keyPrefix, 30),
    status: status || undefined,
  };
  const pager = usePager(JSON.stringify(query));
  const { result, reload } = useLoad(
    () => unwrap(api.GET("/api/admin/licenses", { params: { query: { ...query, cursor: pager.cursor } } })),
    [query.customer_email, query.key_prefix, query.status, pager.cursor],
  );
  return (
    <>
      <h1>Licenses</h1>
      <Toolbar onRefresh={reload}>
        <Field label="Customer email" type="email" value={email} onInput={(e) => setEmail(e.currentTarget.value)} />
        <Field
          label="Key starts with"
          value={keyPrefix}
          hint="30 characters or more"
          onInput={(e) => setKeyPrefix(e.currentTarget.value)}
        />
        <Select label="Status" value={status} options={STATUS_CHOICES} onChange={(v) => setStatus(v as Status)} />
        <ActionButton
          label="Download CSV"
          run={() => saveCsv(api.GET("/api/admin/exports/licenses.csv", { params: { query }, parseAs: "blob" }))}
          describe={(name) => `Saved ${name}.`}
        />
      </Toolbar>
      <Loaded result={result}>
        {(found) =>
          found.items.length === 0 ? (
            <p>No licenses match these filters.</p>
          ) : (
            <>
              <LicenseTable licenses={found.items} />
              <PageLinks pager={pager} next={found.next_cursor} />
            </>
          )
        }
      </Loaded>
    </>
  );
}

function LicenseTable(props: { licenses: readonly License[] }) {
  return (
    <TableBox label="Licenses" columns={["License", "Customer", "Product", "Status", "Seats", "Expires"]}>
      <tbody>
        {props.licenses.map((license) => (
          <tr key={license.id}>
            <td>
              <a href={href(`/licenses/${encodeURIComponent(license.id)}`)}>License {shortId(license.id)}</a>
            </td>
            <td>{license.customer_email}</td>
            <td>
              {license.product_name} <span class="note">({license.license_type})</span>
            </td>
            <td class="status">
              {LICENSE_STATUS_NAMES[license.status]}
              {license.held ? <small class="note"> (held)</small> : null}
            </td>
            <td>
              {license.activations} of {license.max_activations}
              {license.floating ? " floating" : ""}
            </td>
            <td>{license.expires_at ? formatTime(license.expires_at) : "never"}</td>
          </tr>
        ))}
      </tbody>
    </TableBox>
  );
}
