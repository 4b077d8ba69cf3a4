import { describe, expect, test } from "bun:test";
import { hostNameLabels } from "../../../domain/shared/host-name.ts";

describe("hostNameLabels", () => {
  test("a name of two or more labels gives its labels", () => {
    expect(hostNameLabels("shop.example.com")).toEqual(["shop", "example", "com"]);
    expect(hostNameLabels("Mail.Example.ORG")).toEqual(["Mail", "Example", "ORG"]);
    expect(hostNameLabels(`${"a".repeat(63)}.example`)).toHaveLength(2);
  });

  test.each([
    ["one label", "localhost"],
    ["an IP address", "10.0.0.1"],
    ["an empty label", "a..example"],
    ["a trailing dot", "example.com."],
    ["a leading hyphen", "-a.example"],
    ["a trailing hyphen", "a-.example"],
    ["a label of 64 characters", `${"a".repeat(64)}.example`],
    ["more than 253 characters", `${"a".repeat(60)}.`.repeat(5).concat("example")],
    ["an underscore", "a_b.example"],
  ])("refuses %s", (_, name) => {
    expect(hostNameLabels(name)).toBeUndefined();
  });
});
