import { useState } from "preact/hooks";
import { unwrap } from "../../shared/api.ts";
import { useLoad } from "../../shared/load.ts";
import { Loaded, TableBox } from "../../shared/ui.tsx";
import { api } from "../context.ts";
import { FormRefusal, formErrorsOf } from "./form-errors.ts";
import {
  draftOfMapping,
  inputOfMapping,
  MAPPING_FIELDS,
  type MappingDraft,
  MappingRow,
  priceProblem,
} from "./mapping-row.tsx";
import { RefusalAlert } from "./refusal-alert.tsx";

const NEW_MAPPING: MappingDraft = {
  payment_type: "subscription",
  license_type: "",
  billing_interval: "monthly",
  price: "",
  is_active: true,
};

/** A product's pricing mappings, edited together and saved in one call: one invalid row saves nothing. */
export function PricingMappings(props: { id: string; onSaved: () => void }) {
  const { result } = useLoad(
    () => unwrap(api.GET("/api/admin/products/{id}/pricing-mappings", { params: { path: { id: props.id } } })),
    [props.id],
  );
  return (
    <Loaded result={result}>{(page) => <MappingsForm {...props} initial={page.items.map(draftOfMapping)} />}</Loaded>
  );
}

function MappingsForm(props: { id: string; initial: MappingDraft[]; onSaved: () => void }) {
  const [rows, setRows] = useState(props.initial);
  const [failure, setFailure] = useState<unknown>();
  const [saved, setSaved] = useState("");
  const [busy, setBusy] = useState(false);
  const errors = formErrorsOf(failure);
  const change = (index: number, patch: Partial<MappingDraft>) =>
    setRows((current) => current.map((row, i) => (i === index ? { ...row, ...patch } : row)));
  /** Adding or removing a row moves the positions the last refusal named: it no longer applies. */
  const reshape = (next: (current: MappingDraft[]) => MappingDraft[]) => {
    setRows(next);
    setFailure(undefined);
    setSaved("");
  };
  const save = async (event: Event) => {
    event.preventDefault();
    setSaved("");
    const problems = rows.flatMap((row, i) => {
      const problem = priceProblem(row);
      return problem ? [{ path: `/mappings/${i}/price`, message: problem }] : [];
    });
    if (problems.length > 0) {
      setFailure(new FormRefusal("Every mapping needs a price in whole minor units.", problems));
      return;
    }
    setBusy(true);
    setFailure(undefined);
    try {
      const answer = await unwrap(
        api.POST("/api/admin/products/pricing-mappings/bulk", {
          body: { product_id: props.id, mappings: rows.map(inputOfMapping) },
        }),
      );
      setRows(answer.items.map(draftOfMapping));
      setSaved(answer.items.length === 1 ? "Saved 1 mapping." : `Saved ${answer.items.length} mappings.`);
      props.onSaved();
    } catch (error) {
      setFailure(error);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form onSubmit={save} noValidate>
      <p class="hint">
        An active mapping prices its variant instead of the base price. One-time mappings name a license type (regular
        or extended); subscriptions name their billing interval.
      </p>
      {rows.length === 0 ? (
        <p>No pricing mappings: the base prices apply.</p>
      ) : (
        <TableBox
          label="Mappings"
          columns={["Payment type", "License type", "Billing interval", "Price (minor units)", "Active", "Remove"]}
        >
          <tbody>
            {rows.map((row, index) => (
              <MappingRow
                // Rows have no identity until saved; the position is what the API's errors name.
                key={index}
                index={index}
                mapping={row}
                change={(patch) => change(index, patch)}
                remove={() => reshape((current) => current.filter((_, i) => i !== index))}
                errors={errors}
              />
            ))}
          </tbody>
        </TableBox>
      )}
      {failure ? (
        <RefusalAlert
          lead="Nothing was saved."
          errors={errors}
          shown={rows.flatMap((_, i) => MAPPING_FIELDS.map((field) => `/mappings/${i}/${field}`))}
        />
      ) : null}
      <p class="action">
        <button type="button" class="secondary" onClick={() => reshape((current) => [...current, NEW_MAPPING])}>
          Add mapping
        </button>
        <button type="submit" disabled={busy} aria-busy={busy}>
          Save mappings
        </button>
        <span role="status" class="note">
          {saved}
        </span>
      </p>
    </form>
  );
}
