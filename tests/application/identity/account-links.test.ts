import { describe, expect, test } from "bun:test";
import { accountPageLink, validityText } from "../../../application/identity/account-links.ts";

describe("the account's emailed links", () => {
  test("say how long they work in words", () => {
    expect([3600, 7200, 60, 1800, 90].map(validityText)).toEqual([
      "1 hour",
      "2 hours",
      "1 minute",
      "30 minutes",
      "2 minutes",
    ]);
  });

  test("point at the console page under the public address, the token in the query", () => {
    expect(accountPageLink("https://shop.example/base/", "/account/verify-email", "a+b/c")).toBe(
      "https://shop.example/account/verify-email?token=a%2Bb%2Fc",
    );
  });
});
