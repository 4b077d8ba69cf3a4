import type { ComponentChildren } from "preact";
import { useId } from "preact/hooks";
import type { Schemas } from "../../shared/api.ts";
import type { FormErrors } from "./form-errors.ts";

/** One pricing mapping as its inputs hold it. */
export interface MappingDraft {
  readonly payment_type: Schemas["PaymentType"];
  readonly license_type: string;
  readonly billing_interval: "" | Schemas["BillingInterval"];
  readonly price: string;
  readonly is_active: boolean;
}

/** The fields of a row, as the API's errors name them: `/mappings/{row}/{field}`. */
export const MAPPING_FIELDS = ["payment_type", "license_type", "billing_interval", "price", "is_active"] as const;

export const draftOfMapping = (m: Schemas["PricingMapping"]): MappingDraft => ({
  payment_type: m.payment_type,
  license_type: m.license_type ?? "",
  billing_interval: m.billing_interval ?? "",
  price: String(m.price),
  is_active: m.is_active,
});

/** What is wrong with the price as typed, said before anything is sent. */
export function priceProblem(m: MappingDraft): string | undefined {
  const text = m.price.trim();
  if (text === "") return "is required";
  const price = Number(text);
  return Number.isSafeInteger(price) && price >= 0 ? undefined : "must be a whole number of minor units, 0 or more";
}

/** The mapping to send, once `priceProblem` found nothing wrong with it. */
export const inputOfMapping = (m: MappingDraft): Schemas["PricingMappingInput"] => ({
  payment_type: m.payment_type,
  license_type: m.license_type.trim() === "" ? null : m.license_type.trim(),
  billing_interval: m.billing_interval === "" ? null : m.billing_interval,
  price: Number(m.price.trim()),
  is_active: m.is_active,
});

/** A table cell holding one input, its accessible name and the API's error for it. */
function Cell(props: { error: string | undefined; children: (describedBy: string | undefined) => ComponentChildren }) {
  const id = useId();
  return (
    <td>
      {props.children(props.error ? id : undefined)}
      {props.error ? (
        <small id={id} class="error">
          {props.error}
        </small>
      ) : null}
    </td>
  );
}

export function MappingRow(props: {
  index: number;
  mapping: MappingDraft;
  change: (patch: Partial<MappingDraft>) => void;
  remove: () => void;
  errors: FormErrors;
}) {
  const { mapping, change, errors } = props;
  const n = props.index + 1;
  const at = (field: string, label: string) => errors.at(`/mappings/${props.index}/${field}`, label);
  return (
    <tr>
      <Cell error={at("payment_type", "The payment type")}>
        {(describedBy) => (
          <select
            aria-label={`Payment type of mapping ${n}`}
            aria-describedby={describedBy}
            value={mapping.payment_type}
            onChange={(e) => change({ payment_type: e.currentTarget.value as MappingDraft["payment_type"] })}
          >
            <option value="subscription">subscription</option>
            <option value="one_time">one time</option>
          </select>
        )}
      </Cell>
      <Cell error={at("license_type", "The license type")}>
        {(describedBy) => (
          <input
            aria-label={`License type of mapping ${n}`}
            aria-describedby={describedBy}
            value={mapping.license_type}
            onInput={(e) => change({ license_type: e.currentTarget.value })}
          />
        )}
      </Cell>
      <Cell error={at("billing_interval", "The billing interval")}>
        {(describedBy) => (
          <select
            aria-label={`Billing interval of mapping ${n}`}
            aria-describedby={describedBy}
            value={mapping.billing_interval}
            onChange={(e) => change({ billing_interval: e.currentTarget.value as MappingDraft["billing_interval"] })}
          >
            <option value="">none</option>
            <option value="monthly">monthly</option>
            <option value="yearly">yearly</option>
          </select>
        )}
      </Cell>
      <Cell error={at("price", "The price")}>
        {(describedBy) => (
          <input
            type="number"
            min={0}
            step={1}
            aria-label={`Price of mapping ${n}, in minor units`}
            aria-describedby={describedBy}
            value={mapping.price}
            onInput={(e) => change({ price: e.currentTarget.value })}
          />
        )}
      </Cell>
      <Cell error={at("is_active", "Active:")}>
        {(describedBy) => (
          <input
            type="checkbox"
            aria-label={`Mapping ${n} is active`}
            aria-describedby={describedBy}
            checked={mapping.is_active}
            onChange={(e) => change({ is_active: e.currentTarget.checked })}
          />
        )}
      </Cell>
      <td>
        <button type="button" class="secondary" onClick={props.remove}>
          Remove mapping {n}
        </button>
      </td>
    </tr>
  );
}
