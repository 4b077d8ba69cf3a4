import { objectSchema } from "../../domain/catalog/config-spec.ts";
import { DRIVER_CONFIG_SPECS, DRIVER_MODELS, FULFILLMENT_DRIVERS } from "../../domain/catalog/drivers.ts";

/** The admin form's hints, derived from the same specs the domain validates with. */
export function describeDrivers() {
  return FULFILLMENT_DRIVERS.map((driver) => {
    const spec = DRIVER_CONFIG_SPECS[driver];
    return {
      driver,
      delivery_models: [...DRIVER_MODELS[driver]],
      required_keys: Object.keys(spec).filter((key) => spec[key]?.required),
      config_schema: objectSchema(spec),
      requires_external_product: driver === "multitenant_saas",
      requires_recurring: driver === "multitenant_saas",
      supports_test_connection: driver === "multitenant_saas",
    };
  });
}
