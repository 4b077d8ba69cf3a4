import { describe, expect, test } from "bun:test";
import {
  contentRange,
  parseContentLength,
  parseContentRange,
  parseRangeHeader,
  rangeHeader,
  resolveRange,
} from "../../kit/byte-range.ts";

describe("Range headers", () => {
  test.each([
    ["bytes=0-99", { kind: "from", start: 0, end: 99 }],
    ["bytes=100-", { kind: "from", start: 100 }],
    ["bytes=-500", { kind: "suffix", length: 500 }],
    ["BYTES= 5-5 ", { kind: "from", start: 5, end: 5 }],
  ])("%s is one range", (header, spec) => {
    expect(parseRangeHeader(header)).toEqual(spec as never);
  });

  test.each([
    [null],
    [""],
    ["items=0-5"],
    ["bytes=0-1,5-6"],
    ["bytes=9-3"],
    ["bytes=-"],
    ["bytes=a-b"],
    ["bytes=1-2-3"],
    ["bytes=1234567890123456-"],
  ])("%p is ignored", (header) => {
    expect(parseRangeHeader(header)).toBeUndefined();
  });

  test("a range is clipped to the size, and one past the end or empty is unsatisfiable", () => {
    expect(resolveRange({ kind: "from", start: 10, end: 5000 }, 100)).toEqual({ start: 10, end: 99 });
    expect(resolveRange({ kind: "from", start: 100 }, 100)).toBeUndefined();
    expect(resolveRange({ kind: "suffix", length: 30 }, 100)).toEqual({ start: 70, end: 99 });
    expect(resolveRange({ kind: "suffix", length: 300 }, 100)).toEqual({ start: 0, end: 99 });
    expect(resolveRange({ kind: "suffix", length: 0 }, 100)).toBeUndefined();
    expect(resolveRange({ kind: "suffix", length: 5 }, 0)).toBeUndefined();
  });

  test("headers are written back as they are read", () => {
    expect(rangeHeader({ kind: "from", start: 3 })).toBe("bytes=3-");
    expect(rangeHeader({ kind: "from", start: 3, end: 9 })).toBe("bytes=3-9");
    expect(rangeHeader({ kind: "suffix", length: 9 })).toBe("bytes=-9");
    expect(contentRange({ start: 0, end: 9 }, 100)).toBe("bytes 0-9/100");
    expect(contentRange({ start: 0, end: 9 }, undefined)).toBe("bytes 0-9/*");
    expect(contentRange(undefined, 100)).toBe("bytes */100");
  });

  test("Content-Range is read back, and nonsense is refused", () => {
    expect(parseContentRange("bytes 0-9/100")).toEqual({ range: { start: 0, end: 9 }, size: 100 });
    expect(parseContentRange("bytes 0-9/*")).toEqual({ range: { start: 0, end: 9 } });
    expect(parseContentRange("bytes */100")).toEqual({ size: 100 });
    for (const nonsense of [null, "bytes 9-0/100", "bytes 0-100/100", "bytes */*", "items 0-1/2", "bytes 0-1"]) {
      expect(parseContentRange(nonsense)).toBeUndefined();
    }
    expect(parseContentLength("42")).toBe(42);
    expect(parseContentLength("-1")).toBeUndefined();
    expect(parseContentLength(null)).toBeUndefined();
  });
});
