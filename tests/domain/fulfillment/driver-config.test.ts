import { describe, expect, test } from "bun:test";
import { driverConfig } from "../../../domain/fulfillment/driver-config.ts";
import { FulfillmentConfigInvalid } from "../../../domain/fulfillment/errors.ts";

const manual = (config: unknown) => ({
  id: "prod-1",
  fulfillment_driver: "manual_fulfillment",
  fulfillment_config: config,
});
const VALID = { queue_id: "ops", sla_hours: 24, instructions_template: "Set up {{customer_email}}" };

function refusal(read: () => unknown): FulfillmentConfigInvalid {
  try {
    read();
  } catch (error) {
    if (error instanceof FulfillmentConfigInvalid) return error;
    throw error;
  }
  throw new Error("the configuration was accepted");
}

describe("driverConfig", () => {
  test("a configuration that meets its driver's spec comes back as the driver's typed config", () => {
    const config = driverConfig(manual(VALID), "manual_fulfillment");
    expect(config.queue_id).toBe("ops");
    expect(config.sla_hours).toBe(24);
  });

  test("a stored configuration that no longer meets the spec fails permanently, naming the field", () => {
    const error = refusal(() => driverConfig(manual({ ...VALID, sla_hours: "soon" }), "manual_fulfillment"));
    expect(error.code).toBe("FULFILLMENT_CONFIG_INVALID");
    expect(error.transient).toBe(false);
    expect(error.message).toContain("/fulfillment_config/sla_hours");
  });

  test("a missing required field is named too", () => {
    const { queue_id: _dropped, ...rest } = VALID;
    expect(refusal(() => driverConfig(manual(rest), "manual_fulfillment")).message).toContain("queue_id");
  });

  test("asking for another driver's configuration is refused, not cast", () => {
    const error = refusal(() => driverConfig(manual(VALID), "license_download"));
    expect(error.message).toContain("delivered by manual_fulfillment, not license_download");
  });
});
