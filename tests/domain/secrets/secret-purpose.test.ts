import { describe, expect, test } from "bun:test";
import {
  describePurpose,
  fixedPurposeOf,
  gatewayPurpose,
  providerPurpose,
  purposeFromFields,
  purposeToFields,
  samePurpose,
} from "../../../domain/secrets/secret-purpose.ts";
import { ValidationFailed } from "../../../domain/shared/errors.ts";

describe("secret purposes", () => {
  test("a gateway's well-known references have the purpose their name says; others have none by name", () => {
    expect(fixedPurposeOf("gateway_b_sandbox_webhook_secret")).toEqual(
      gatewayPurpose("gateway_webhook_secret", "gateway_b", "sandbox"),
    );
    expect(fixedPurposeOf("gateway_a_live_client_key")).toEqual(
      gatewayPurpose("gateway_client_key", "gateway_a", "live"),
    );
    for (const ref of ["gateway_c_live_api_key", "gateway_a_live_api_key_2", "x_gateway_a_live_api_key", "pos_token"]) {
      expect(fixedPurposeOf(ref)).toBeUndefined();
    }
  });

  test("the same kind for another gateway or environment is another purpose", () => {
    const key = gatewayPurpose("gateway_api_key", "gateway_b", "live");
    expect(samePurpose(key, gatewayPurpose("gateway_api_key", "gateway_b", "live"))).toBeTrue();
    expect(samePurpose(key, gatewayPurpose("gateway_api_key", "gateway_b", "sandbox"))).toBeFalse();
    expect(samePurpose(key, gatewayPurpose("gateway_api_key", "gateway_a", "live"))).toBeFalse();
    expect(samePurpose(providerPurpose("bearer"), providerPurpose("hmac"))).toBeFalse();
    expect(samePurpose(providerPurpose("bearer"), key)).toBeFalse();
  });

  test("descriptions name the purpose in words and by its code", () => {
    expect(describePurpose(gatewayPurpose("gateway_webhook_secret", "gateway_b", "sandbox"))).toBe(
      "a gateway_b sandbox webhook secret (gateway_webhook_secret)",
    );
    expect(describePurpose(providerPurpose("hmac"))).toBe("a provider HMAC key (provider_hmac_key)");
  });

  test("the API's fields give a purpose, and back", () => {
    expect(purposeFromFields({})).toBeUndefined();
    expect(purposeFromFields({ purpose: "smtp_password" })).toEqual({ kind: "smtp_password" });
    const key = purposeFromFields({ purpose: "gateway_api_key", gateway: "gateway_a", environment: "sandbox" });
    expect(key).toEqual(gatewayPurpose("gateway_api_key", "gateway_a", "sandbox"));
    expect(purposeToFields(key)).toEqual({ purpose: "gateway_api_key", gateway: "gateway_a", environment: "sandbox" });
    expect(purposeToFields(undefined)).toEqual({ purpose: null, gateway: null, environment: null });
  });

  test.each([
    [{ purpose: "gateway_api_key" }, ["/gateway REQUIRED", "/environment REQUIRED"]],
    [{ purpose: "license_signing_key", environment: "live" }, ["/environment NOT_ALLOWED"]],
    [{ gateway: "gateway_b" }, ["/purpose REQUIRED"]],
  ] as const)("%o is refused naming each field", (fields, expected) => {
    const error = (() => {
      try {
        purposeFromFields(fields);
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(ValidationFailed);
    expect((error as ValidationFailed).errors?.map((e) => `${e.path} ${e.code}`)).toEqual([...expected]);
  });
});
