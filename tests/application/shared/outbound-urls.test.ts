import { describe, expect, test } from "bun:test";
import { UrlNotAllowed } from "../../../application/shared/errors.ts";
import { assertOutboundUrls } from "../../../application/shared/outbound-urls.ts";
import { createStaticOutboundUrlPolicy } from "../../support/fakes/static-outbound-url-policy.ts";

const FIELDS = [
  { path: "/base_url", url: "https://provider.example.com" },
  { path: "/management/base_url", url: "http://10.0.0.8/admin" },
  { path: "/provisioner_url", url: "http://127.0.0.1:9000/provision" },
];

describe("checking the addresses an admin gave", () => {
  test("public addresses pass, each one asked about", async () => {
    const policy = createStaticOutboundUrlPolicy();

    await assertOutboundUrls(policy, FIELDS);

    expect(policy.asked).toEqual(FIELDS.map((field) => field.url));
  });

  test("every refused address is listed at its field in one URL_NOT_ALLOWED", async () => {
    const policy = createStaticOutboundUrlPolicy(["10.0.0.8", "127.0.0.1"]);

    const refused = await assertOutboundUrls(policy, FIELDS).catch((error) => error);

    expect(refused).toBeInstanceOf(UrlNotAllowed);
    expect(refused).toMatchObject({ code: "URL_NOT_ALLOWED", category: "invalid" });
    expect(refused.errors).toEqual([
      { path: "/management/base_url", code: "URL_NOT_ALLOWED", message: "10.0.0.8 is not a public address" },
      { path: "/provisioner_url", code: "URL_NOT_ALLOWED", message: "127.0.0.1 is not a public address" },
    ]);
  });

  test("no addresses, nothing to refuse", async () => {
    const policy = createStaticOutboundUrlPolicy(["provider.example.com"]);
    await assertOutboundUrls(policy, []);
    expect(policy.asked).toEqual([]);
  });
});
