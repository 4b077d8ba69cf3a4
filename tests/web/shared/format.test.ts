import { describe, expect, test } from "bun:test";
import { formatMoney, fractionDigits, safeHref } from "../../../web/shared/format.ts";

describe("amounts", () => {
  test("minor units in the currency's own decimals", () => {
    expect(formatMoney(4900, "usd")).toContain("49.00");
    expect(fractionDigits("JPY")).toBe(0);
    expect(formatMoney(1250, "JPY")).toContain("1,250");
    expect(fractionDigits("KWD")).toBe(3);
  });

  test("a currency code the browser does not know shows with two decimals instead of throwing", () => {
    expect(fractionDigits("not a currency")).toBe(2);
    expect(formatMoney(1234, "not a currency")).toBe("12.34 NOT A CURRENCY");
  });
});

describe("links from API data", () => {
  test("http(s) addresses and paths on this site are linked", () => {
    expect(safeHref("https://acme.pos.example/workspaces/1")).toBe("https://acme.pos.example/workspaces/1");
    expect(safeHref("http://127.0.0.1:4010/w")).toBe("http://127.0.0.1:4010/w");
    expect(safeHref("/api/downloads/abc")).toBe("/api/downloads/abc");
  });

  test("scripts, data, other schemes, protocol-relative and unreadable addresses are not", () => {
    for (const url of [
      "javascript:alert(1)",
      "JavaScript:alert(1)",
      " javascript:alert(1)",
      "data:text/html,<script>alert(1)</script>",
      "vbscript:msgbox",
      "//evil.example/x",
      "/\\evil.example/x",
      "ftp://files.example/x",
      "not a url",
      "",
      null,
      undefined,
    ]) {
      expect(safeHref(url)).toBeUndefined();
    }
  });
});
