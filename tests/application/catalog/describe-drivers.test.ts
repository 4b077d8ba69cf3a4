import { describe, expect, test } from "bun:test";
import { describeDrivers } from "../../../application/catalog/describe-drivers.ts";
import { isSecretLikeKey } from "../../../domain/catalog/config-spec.ts";
import { DELIVERY_MODELS } from "../../../domain/catalog/drivers.ts";

type Schema = { type?: string; required?: string[]; properties?: Record<string, Schema> };

const drivers = describeDrivers();
const driver = (name: string) => {
  const found = drivers.find((d) => d.driver === name);
  if (!found) throw new Error(`no driver ${name}`);
  return found;
};

function keysOf(schema: Schema): string[] {
  return Object.entries(schema.properties ?? {}).flatMap(([key, child]) => [key, ...keysOf(child)]);
}

describe("describeDrivers", () => {
  test("describes all four drivers", () => {
    expect(drivers.map((d) => d.driver)).toEqual([
      "multitenant_saas",
      "singletenant_provisioning",
      "license_download",
      "manual_fulfillment",
    ]);
  });

  test("multitenant_saas delivers only saas_multitenant and names its required keys", () => {
    const saas = driver("multitenant_saas");
    expect(saas.delivery_models).toEqual(["saas_multitenant"]);
    expect(saas.required_keys).toEqual([
      "base_url",
      "onboard_endpoint",
      "status_endpoint",
      "auth_mode",
      "credentials_ref",
      "timeout_seconds",
    ]);
    const { requires_external_product, requires_recurring, supports_test_connection } = saas;
    expect({ requires_external_product, requires_recurring, supports_test_connection }).toEqual({
      requires_external_product: true,
      requires_recurring: true,
      supports_test_connection: true,
    });
  });

  test("multitenant_saas describes its management block as an object schema", () => {
    const management = (driver("multitenant_saas").config_schema as Schema).properties?.management;
    expect(management?.type).toBe("object");
    expect(management?.required).toEqual(["enabled"]);
    expect(Object.keys(management?.properties ?? {})).toContain("tenant_details_endpoint");
  });

  test("manual_fulfillment delivers every delivery model", () => {
    expect([...driver("manual_fulfillment").delivery_models].sort()).toEqual([...DELIVERY_MODELS].sort());
  });

  test.each(["singletenant_provisioning", "license_download", "manual_fulfillment"])(
    "%s needs no external product, recurrence or connection test",
    (name) => {
      const { requires_external_product, requires_recurring, supports_test_connection } = driver(name);
      expect([requires_external_product, requires_recurring, supports_test_connection]).toEqual([false, false, false]);
    },
  );

  // The validator refuses secret-looking keys before it looks them up, so such a key could never be set.
  test.each(drivers.map((d) => [d.driver, d] as const))("%s declares no key that reads as a secret", (_name, d) => {
    const schema = d.config_schema as Schema;
    expect(schema.required).toEqual(d.required_keys);
    expect(keysOf(schema).filter(isSecretLikeKey)).toEqual([]);
  });
});
