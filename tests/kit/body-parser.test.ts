import { describe, expect, test } from "bun:test";
import { withCheckedBody } from "../../kit/body-parser.ts";
import { HttpProblem } from "../../kit/problem.ts";

const post = (body: BodyInit, type?: string) =>
  new Request("http://localhost/x", { method: "POST", body, headers: type ? { "content-type": type } : {} });

const codeOf = (promise: Promise<unknown>) =>
  promise.then(
    () => "accepted",
    (error) => (error instanceof HttpProblem ? `${error.status} ${error.code}` : String(error)),
  );

describe("a body checked before its route reads it", () => {
  test("JSON reaches the route as the same text, typed as JSON", async () => {
    const checked = await withCheckedBody(post('{"a":1}', "application/merge-patch+json"), 1024);
    expect(checked.headers.get("content-type")).toBe("application/json");
    expect(await checked.json()).toEqual({ a: 1 });
  });

  test("a form reaches the route as its fields, the last of a repeated one", async () => {
    const checked = await withCheckedBody(post("a=1&a=2&b=x+y", "application/x-www-form-urlencoded"), 1024);
    expect(await checked.json()).toEqual({ a: "2", b: "x y" });
  });

  test("any other body reaches the route as one string", async () => {
    const checked = await withCheckedBody(post("<a>1</a>", "application/xml"), 1024);
    expect(await checked.json()).toBe("<a>1</a>");
  });

  test("a blank JSON body is no body", async () => {
    expect((await withCheckedBody(post("  ", "application/json"), 1024)).body).toBeNull();
  });

  test("oversized, invalid UTF-8, too deep, a reserved key: each refused with its problem", async () => {
    expect(await codeOf(withCheckedBody(post("x".repeat(2000), "text/plain"), 1024))).toBe("413 PAYLOAD_TOO_LARGE");
    expect(await codeOf(withCheckedBody(post("x".repeat(2000), "application/json"), 1024))).toBe(
      "413 PAYLOAD_TOO_LARGE",
    );
    expect(await codeOf(withCheckedBody(post(new Uint8Array([0x22, 0xff, 0x22]), "application/json"), 1024))).toBe(
      "400 MALFORMED_BODY",
    );
    const deep = `${"[".repeat(500)}${"]".repeat(500)}`;
    expect(await codeOf(withCheckedBody(post(deep, "application/json"), 1 << 20))).toMatch(/^400 /);
    expect(await codeOf(withCheckedBody(post('{"__proto__":1}', "application/json"), 1024))).toBe(
      "422 VALIDATION_FAILED",
    );
  });
});
