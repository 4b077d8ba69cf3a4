import { Checkbox, Field } from "../../shared/fields.tsx";
import type { FormErrors } from "./form-errors.ts";
import { type DriverDescription, PRICE_FIELDS, type PriceField, type ProductDraft } from "./product-draft.ts";

const PRICE_LABELS: Readonly<Record<PriceField, string>> = {
  price_regular: "Regular license price",
  price_extended: "Extended license price",
  price_monthly: "Monthly price",
  price_yearly: "Yearly price",
};

const numberOrNull = (text: string) => (text === "" ? null : Number(text));

/** Whether the product is a subscription, its trial, and its base price per variant. */
export function BillingFields(props: {
  draft: ProductDraft;
  driver: DriverDescription | undefined;
  change: (patch: Partial<ProductDraft>) => void;
  errors: FormErrors;
}) {
  const { draft, change, errors } = props;
  return (
    <fieldset>
      <legend>Billing</legend>
      <Checkbox
        label="Recurring (sold as a subscription)"
        checked={draft.is_recurring}
        onChange={(is_recurring) => change({ is_recurring })}
        hint={props.driver?.requires_recurring ? "This driver sells subscriptions only: keep it recurring." : undefined}
        error={errors.at("/is_recurring", "Recurring:")}
      />
      <Checkbox
        label="Offers a free trial"
        checked={draft.supports_trial}
        onChange={(supports_trial) => change({ supports_trial })}
        hint="Trials apply to subscriptions."
        error={errors.at("/supports_trial", "The trial:")}
      />
      {draft.supports_trial ? (
        <Field
          label="Trial days"
          type="number"
          min={1}
          step={1}
          value={draft.trial_days ?? ""}
          required
          error={errors.at("/trial_days", "Trial days")}
          onInput={(event) => change({ trial_days: numberOrNull(event.currentTarget.value) })}
        />
      ) : null}
      <fieldset>
        <legend>Base prices, in minor units (4900 is 49.00)</legend>
        <p class="hint">Leave a variant empty to not sell it, unless a pricing mapping prices it.</p>
        {PRICE_FIELDS.map((field) => (
          <Field
            key={field}
            label={PRICE_LABELS[field]}
            type="number"
            min={0}
            step={1}
            value={draft[field] ?? ""}
            error={errors.at(`/${field}`, "The price")}
            onInput={(event) => change({ [field]: numberOrNull(event.currentTarget.value) })}
          />
        ))}
      </fieldset>
    </fieldset>
  );
}
