import { describe, expect, test } from "bun:test";
import { emailAddressFault, normalizeEmail } from "../../../domain/shared/email-address.ts";

describe("emailAddressFault: one RFC 5321 mailbox", () => {
  test.each([
    "ada@example.com",
    "ada.lovelace+shop@mail.example.co.uk",
    "o'brien@example.ie",
    "x_{1}|~!#$%&*/=?^`@xn--bcher-kva.example",
    `${"a".repeat(64)}@example.com`,
    `a@${"b".repeat(63)}.${"c".repeat(63)}.${"d".repeat(63)}.${"e".repeat(57)}`,
  ])("%s is one address", (address) => {
    expect(emailAddressFault(address)).toBeUndefined();
  });

  test.each([
    ["x,eve@victim.example", "format"],
    ["a@x.example, eve@victim.example", "format"],
    ["a@x.example;eve@victim.example", "format"],
    ["Ada <ada@example.com>", "format"],
    ["<ada@example.com>", "format"],
    ['"ada lovelace"@example.com', "format"],
    ['"a,b"@example.com', "format"],
    ["ada@[192.0.2.1]", "format"],
    ["ada(comment)@example.com", "format"],
    ["ada@example.com\r\nBcc: eve@victim.example", "format"],
    ["ada\u0000@example.com", "format"],
    ["ad a@example.com", "format"],
    ["ada@exa mple.com", "format"],
    [".ada@example.com", "format"],
    ["ada.@example.com", "format"],
    ["a..da@example.com", "format"],
    ["ada@example..com", "format"],
    ["ada@-example.com", "format"],
    ["ada@example-.com", "format"],
    ["ada@localhost", "format"],
    ["ada@192.0.2.1", "format"],
    ["ada@@example.com", "format"],
    ["@example.com", "format"],
    ["ada@", "format"],
    ["adä@example.com", "format"],
    [`${"a".repeat(65)}@example.com`, "local_part_too_long"],
    [`a@${"b".repeat(64)}.com`, "format"],
    [`${"a".repeat(64)}@${"b".repeat(63)}.${"c".repeat(63)}.${"d".repeat(62)}`, "too_long"],
  ])("%j is refused (%s)", (address, fault) => {
    expect(emailAddressFault(address)).toBe(fault as never);
  });

  test("normalizeEmail trims and lower-cases", () => {
    expect(normalizeEmail(" A@B.Co ")).toBe("a@b.co");
  });
});
