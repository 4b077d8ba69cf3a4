import { Field, Select } from "../../shared/fields.tsx";
import { humanize } from "../../shared/format.ts";
import { DRIVER_NAMES } from "../choices.ts";
import { type ConfigSchema, keepSchemaKeys } from "./config-schema.ts";
import { DriverConfigFields } from "./driver-config-fields.tsx";
import type { FormErrors } from "./form-errors.ts";
import { type DriverDescription, deliveryModels, driversFor, type ProductDraft } from "./product-draft.ts";
import { TestConnection } from "./test-connection.tsx";

/** How the product is delivered: model, the drivers allowed for it, and the chosen driver's settings. */
export function DeliveryFields(props: {
  draft: ProductDraft;
  drivers: readonly DriverDescription[];
  change: (patch: Partial<ProductDraft>) => void;
  errors: FormErrors;
  onTestRefused: (error: unknown) => void;
}) {
  const { draft, drivers, change, errors } = props;
  const allowed = driversFor(drivers, draft.delivery_model);
  const driver = drivers.find((d) => d.driver === draft.fulfillment_driver);
  const chooseModel = (model: string) => {
    const stillAllowed = driversFor(drivers, model).some((d) => d.driver === draft.fulfillment_driver);
    change({
      delivery_model: model,
      ...(stillAllowed ? {} : { fulfillment_driver: driversFor(drivers, model)[0]?.driver ?? "" }),
    });
  };
  const external = driver?.requires_external_product ?? false;
  return (
    <fieldset>
      <legend>Delivery</legend>
      <Select
        label="Delivery model"
        value={draft.delivery_model}
        options={deliveryModels(drivers).map((model) => [model, humanize(model)] as const)}
        onChange={chooseModel}
        error={errors.at("/delivery_model", "The delivery model")}
      />
      <Select
        label="Fulfillment driver"
        value={draft.fulfillment_driver}
        options={allowed.map((d) => [d.driver, DRIVER_NAMES[d.driver]] as const)}
        onChange={(value) => change({ fulfillment_driver: value })}
        hint="Only the drivers that can deliver the chosen model are offered."
        error={errors.at("/fulfillment_driver", "The driver")}
      />
      <Field
        label="External provider"
        value={draft.external_provider}
        required={external}
        hint="Who runs the product, such as tillpoint."
        error={errors.at("/external_provider", "The external provider")}
        onInput={(event) => change({ external_provider: event.currentTarget.value })}
      />
      <Field
        label="External product reference"
        value={draft.external_product_ref}
        required={external}
        hint="The product's id at that provider."
        error={errors.at("/external_product_ref", "The external product reference")}
        onInput={(event) => change({ external_product_ref: event.currentTarget.value })}
      />
      {driver ? (
        <fieldset>
          <legend>Fulfillment configuration</legend>
          <p class="hint">
            What the {DRIVER_NAMES[driver.driver]} driver needs to deliver. Fields marked * are required.
          </p>
          <DriverConfigFields
            schema={driver.config_schema as ConfigSchema}
            value={draft.fulfillment_config}
            onChange={(fulfillment_config) => change({ fulfillment_config })}
            errors={errors}
            pointer="/fulfillment_config"
          />
          {driver.supports_test_connection ? (
            <TestConnection
              driver={driver.driver}
              config={keepSchemaKeys(driver.config_schema as ConfigSchema, draft.fulfillment_config)}
              onRefused={props.onTestRefused}
            />
          ) : null}
        </fieldset>
      ) : null}
    </fieldset>
  );
}
