import { configOf, type DriverConfig, type FulfillmentDriver } from "../catalog/drivers.ts";
import { ValidationFailed } from "../shared/errors.ts";
import { FulfillmentConfigInvalid } from "./errors.ts";

/**
 * The configuration a driver delivers `product` with, checked against the driver's spec on every
 * read. The spec is the one place the shape is written; a configuration saved before the spec
 * changed fails the delivery at once, with the offending fields named.
 */
export function driverConfig<D extends FulfillmentDriver>(
  product: { readonly id: string; readonly fulfillment_driver: string; readonly fulfillment_config: unknown },
  driver: D,
): DriverConfig<D> {
  let config: DriverConfig<D> | undefined;
  try {
    config = configOf(product, driver);
  } catch (error) {
    if (!(error instanceof ValidationFailed)) throw error;
    const fields = (error.errors ?? []).map((field) => `${field.path}: ${field.message}`).join("; ");
    throw new FulfillmentConfigInvalid(
      `product ${product.id} has a ${driver} configuration that is not valid (${fields})`,
    );
  }
  if (!config) {
    throw new FulfillmentConfigInvalid(
      `product ${product.id} is delivered by ${product.fulfillment_driver}, not ${driver}`,
    );
  }
  return config;
}
