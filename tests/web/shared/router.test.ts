import { describe, expect, test } from "bun:test";
import { href, match, setBase } from "../../../web/shared/router.ts";

const PATTERNS = ["/products", "/products/new", "/products/:id", "/orders/:id"] as const;

describe("the console's routes", () => {
  test("the first pattern that fits wins, with its parameters decoded", () => {
    expect(match(PATTERNS, "/products/new")?.pattern).toBe("/products/new");
    expect(match(PATTERNS, "/products/a%20b")).toEqual({ pattern: "/products/:id", params: { id: "a b" } });
    expect(match(PATTERNS, "/products/")?.pattern).toBe("/products");
  });

  test("a path of another length, or another word, matches nothing", () => {
    expect(match(PATTERNS, "/products/1/extra")).toBeUndefined();
    expect(match(PATTERNS, "/customers/1")).toBeUndefined();
    expect(match(PATTERNS, "/")).toBeUndefined();
  });

  test("a stray % in a pasted address is kept as written instead of throwing", () => {
    expect(match(PATTERNS, "/orders/50%off")).toEqual({ pattern: "/orders/:id", params: { id: "50%off" } });
  });

  test("links are made under the console's base", () => {
    setBase("/admin");
    expect(href("/products")).toBe("/admin/products");
    expect(href("/")).toBe("/admin");
  });
});
