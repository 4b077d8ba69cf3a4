import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { findStructureViolation, JSON_LIMITS } from "../../kit/json-structure.ts";

const nested = (levels: number) => `${"[".repeat(levels)}${"]".repeat(levels)}`;
const array = (members: number) => `[${Array.from({ length: members }, () => "0").join(",")}]`;

describe("findStructureViolation", () => {
  test("64 levels pass, 65 are too deep", () => {
    expect(findStructureViolation(nested(JSON_LIMITS.maxDepth))).toBeNull();
    expect(findStructureViolation(nested(JSON_LIMITS.maxDepth + 1))?.code).toBe("BODY_TOO_DEEP");
  });

  test("1,000 members pass, 1,001 are too many, in arrays and objects alike", () => {
    expect(findStructureViolation(array(1000))).toBeNull();
    expect(findStructureViolation(array(1001))?.code).toBe("BODY_TOO_MANY_MEMBERS");
    const members = (n: number) => `{${Array.from({ length: n }, (_, i) => `"k${i}":${i}`).join(",")}}`;
    expect(findStructureViolation(members(1000))).toBeNull();
    expect(findStructureViolation(members(1001))?.code).toBe("BODY_TOO_MANY_MEMBERS");
  });

  test("members are counted per container, not across siblings", () => {
    const siblings = `[${Array.from({ length: 10 }, () => array(900)).join(",")}]`;
    expect(findStructureViolation(siblings)).toBeNull();
  });

  test("brackets, commas and escaped quotes inside strings are text, not structure", () => {
    const text = JSON.stringify({ a: `${"[".repeat(500)}\\"${",".repeat(5000)}` });
    expect(findStructureViolation(text)).toBeNull();
  });

  test("a string longer than the limit is refused, one at the limit is not", () => {
    expect(findStructureViolation(JSON.stringify("x".repeat(JSON_LIMITS.maxStringLength)))).toBeNull();
    expect(findStructureViolation(JSON.stringify("x".repeat(JSON_LIMITS.maxStringLength + 1)))?.code).toBe(
      "BODY_STRING_TOO_LONG",
    );
  });

  test("never throws, whatever the text", () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.json({ maxDepth: 8 })), (text) => {
        const violation = findStructureViolation(text);
        if (violation === null) return;
        expect(["BODY_TOO_DEEP", "BODY_TOO_MANY_MEMBERS", "BODY_STRING_TOO_LONG"]).toContain(violation.code);
      }),
      { numRuns: 500 },
    );
  });

  test("an attacker's shapes are refused after reading only their start", () => {
    for (const text of [nested(1_000_000), array(2_000_000)]) {
      // A joined string is a rope until first read; flattening it is the engine's cost, not the check's.
      text.charCodeAt(text.length - 1);
      const started = performance.now();
      expect(findStructureViolation(text)).not.toBeNull();
      expect(performance.now() - started).toBeLessThan(50);
    }
  });
});
