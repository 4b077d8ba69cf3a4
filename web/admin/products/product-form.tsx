import { useEffect, useRef, useState } from "preact/hooks";
import { Field, Select, TextArea } from "../../shared/fields.tsx";
import { humanize } from "../../shared/format.ts";
import { BillingFields } from "./billing-fields.tsx";
import { type ConfigSchema, pointersOf } from "./config-schema.ts";
import { DeliveryFields } from "./delivery-fields.tsx";
import { formErrorsOf } from "./form-errors.ts";
import { GatewayFields } from "./gateway-fields.tsx";
import { type DriverDescription, inputOf, type ProductDraft, type ProductInput } from "./product-draft.ts";
import { RefusalAlert } from "./refusal-alert.tsx";

const STATUSES = ["draft", "published", "archived"] as const;

/** The pointers of the fields this form shows besides the driver's configuration. */
const SHOWN = [
  "/name",
  "/slug",
  "/description",
  "/status",
  "/delivery_model",
  "/fulfillment_driver",
  "/external_provider",
  "/external_product_ref",
  "/is_recurring",
  "/supports_trial",
  "/trial_days",
  "/enabled_payment_gateways",
  "/default_payment_gateway",
  "/price_regular",
  "/price_extended",
  "/price_monthly",
  "/price_yearly",
];

/**
 * The product editor. `save` sends the definition and answers what to tell the person, or throws
 * the API's refusal, whose field errors then appear beside their fields.
 */
export function ProductForm(props: {
  initial: ProductDraft;
  drivers: readonly DriverDescription[];
  save: (input: ProductInput) => Promise<string | undefined>;
}) {
  const [draft, setDraft] = useState(props.initial);
  const [refusal, setRefusal] = useState<{ error: unknown; from: "save" | "test" }>();
  const [busy, setBusy] = useState(false);
  const [saved, setSaved] = useState("");
  const form = useRef<HTMLFormElement>(null);
  const change = (patch: Partial<ProductDraft>) => setDraft((current) => ({ ...current, ...patch }));
  const driver = props.drivers.find((d) => d.driver === draft.fulfillment_driver);
  const errors = formErrorsOf(refusal?.error);
  const shown = [...SHOWN, ...(driver ? pointersOf(driver.config_schema as ConfigSchema, "/fulfillment_config") : [])];

  useEffect(() => {
    if (refusal?.from === "save") form.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [refusal]);

  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setSaved("");
    setRefusal(undefined);
    try {
      setSaved((await props.save(inputOf(draft, driver))) ?? "");
    } catch (error) {
      setRefusal({ error, from: "save" });
    } finally {
      setBusy(false);
    }
  };

  return (
    <form ref={form} onSubmit={submit} noValidate>
      <Field
        label="Name"
        value={draft.name}
        required
        error={errors.at("/name", "The name")}
        onInput={(event) => change({ name: event.currentTarget.value })}
      />
      <Field
        label="Slug"
        value={draft.slug}
        required
        hint="The product's address in the catalog: lowercase words joined by hyphens."
        error={errors.at("/slug", "The slug")}
        onInput={(event) => change({ slug: event.currentTarget.value })}
      />
      <TextArea
        label="Description"
        value={draft.description}
        error={errors.at("/description", "The description")}
        onInput={(description) => change({ description })}
      />
      <Select
        label="Status"
        value={draft.status}
        options={STATUSES.map((status) => [status, humanize(status)] as const)}
        onChange={(status) => change({ status: status as ProductDraft["status"] })}
        hint="Customers see published products only."
        error={errors.at("/status", "The status")}
      />
      <DeliveryFields
        draft={draft}
        drivers={props.drivers}
        change={change}
        errors={errors}
        onTestRefused={(error) => setRefusal(error === undefined ? undefined : { error, from: "test" })}
      />
      <BillingFields draft={draft} driver={driver} change={change} errors={errors} />
      <GatewayFields draft={draft} change={change} errors={errors} />
      {refusal?.from === "save" ? <RefusalAlert lead="Not saved." errors={errors} shown={shown} /> : null}
      <p class="action">
        <button type="submit" disabled={busy} aria-busy={busy}>
          Save
        </button>
        <span role="status" class="note">
          {saved}
        </span>
      </p>
    </form>
  );
}
