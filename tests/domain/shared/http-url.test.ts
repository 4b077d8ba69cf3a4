import { expect, test } from "bun:test";
import { httpUrlOrNull, isHttpUrl, MAX_URL_LENGTH } from "../../../domain/shared/http-url.ts";

test.each<[string, boolean]>([
  ["https://provider.example/api", true],
  ["http://localhost:8080", true],
  ["ftp://provider.example", false],
  ["https://user@provider.example", false],
  ["https://:secret@provider.example", false],
  ["/relative", false],
])("isHttpUrl(%p) is %p", (url, ok) => {
  expect(isHttpUrl(url)).toBe(ok);
});

test.each<[unknown, string | null]>([
  ["https://workspace.example/acme", "https://workspace.example/acme"],
  ["http://10.0.0.5:8080/", "http://10.0.0.5:8080/"],
  [" https://workspace.example", null],
  ["https://workspace.example\n", null],
  ["https://user:pw@workspace.example", null],
  ["javascript:alert(1)", null],
  [`https://workspace.example/${"a".repeat(MAX_URL_LENGTH)}`, null],
  [42, null],
  [undefined, null],
])("httpUrlOrNull(%p) is %p", (value, expected) => {
  expect(httpUrlOrNull(value)).toBe(expected);
});
