import { describe, expect, test } from "bun:test";
import { csvField, csvRecord, defused, FORMULA_TRIGGERS } from "../../../adapters/exports/csv.ts";
import { parseCsv } from "../../support/csv.ts";

/** A spreadsheet starts a formula at one of these; a defused cell never does. */
const startsFormula = (cell: string) => FORMULA_TRIGGERS.some((trigger) => cell.startsWith(trigger));

describe("CSV fields (RFC 4180)", () => {
  test("plain text stays as it is; comma, quote, CR and LF are quoted with quotes doubled", () => {
    expect(csvField("plain")).toBe("plain");
    expect(csvField("a,b")).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField("two\nlines")).toBe('"two\nlines"');
    expect(csvField("cr\rhere")).toBe('"cr\rhere"');
    expect(csvField("")).toBe("");
  });

  test("a record ends in CRLF; null is an empty field, times ISO in UTC, booleans words, numbers as numbers", () => {
    const at = new Date("2026-11-29T10:00:00.123Z");
    expect(csvRecord(["a", null, 4900, true, at])).toBe("a,,4900,true,2026-11-29T10:00:00.123Z\r\n");
    expect(() => csvField(Number.NaN)).toThrow(RangeError);
    expect(() => csvField(Number.POSITIVE_INFINITY)).toThrow(RangeError);
  });

  test("every formula trigger at the start of text gets a single quote in front, then quoting as needed", () => {
    for (const trigger of FORMULA_TRIGGERS) {
      const payload = `${trigger}HYPERLINK("http://evil.example","x")`;
      const [[cell]] = parseCsv(csvRecord([payload])) as [[string]];
      expect(cell).toBe(`'${payload}`);
      expect(startsFormula(cell)).toBe(false);
    }
    expect(csvField("=1+1")).toBe("'=1+1");
    expect(csvField("\t=1")).toBe("'\t=1");
    expect(csvField("\r=1")).toBe(`"'\r=1"`);
    expect(csvField("=A1,B1")).toBe(`"'=A1,B1"`);
    expect(csvField('@SUM("x")')).toBe(`"'@SUM(""x"")"`);
    // Only the start counts: a trigger inside text is harmless and left alone.
    expect(csvField("a=b")).toBe("a=b");
    expect(defused("ok-text")).toBe("ok-text");
  });

  test("numbers are ours and are never prefixed, so money columns stay numbers, negative ones included", () => {
    expect(csvField(-1250)).toBe("-1250");
    expect(csvField(0)).toBe("0");
    expect(csvField(Number.MAX_SAFE_INTEGER)).toBe("9007199254740991");
    // The same characters as text are someone's words, and are defused.
    expect(csvField("-1250")).toBe("'-1250");
  });
});

describe("CSV round trip at the extremes", () => {
  /** A deterministic generator, so a failure can be replayed. */
  function random(seed: number) {
    let state = seed >>> 0;
    return () => {
      state = (state * 1664525 + 1013904223) >>> 0;
      return state / 2 ** 32;
    };
  }
  const ALPHABET = [..."ab,\"\r\n\t =+-@'", "é", "中", "😀", "\u0000", "\u2028", "\uFEFF", "＝"];

  test("a thousand random records of dangerous characters read back as their defused text", () => {
    const next = random(38);
    for (let n = 0; n < 1000; n++) {
      const cells = Array.from({ length: 1 + Math.floor(next() * 5) }, () =>
        Array.from({ length: Math.floor(next() * 12) }, () => ALPHABET[Math.floor(next() * ALPHABET.length)]).join(""),
      );
      const [read] = parseCsv(csvRecord(cells)) as [string[]];
      expect(read).toEqual(cells.map(defused));
      for (const cell of read) expect(startsFormula(cell)).toBe(false);
    }
  });

  test("a huge cell of quotes and newlines survives whole", () => {
    const huge = `=${'"\r\n,'.repeat(250_000)}😀`;
    const text = csvRecord(["id", huge, 7]);
    const [read] = parseCsv(text) as [string[]];
    expect(read).toEqual(["id", `'${huge}`, "7"]);
    expect(read[1]?.length).toBe(huge.length + 1);
  });

  test("unicode passes through unchanged, astral characters and combining marks included", () => {
    const text = "Zoë 中文 😀 e\u0301 \u2028";
    expect(csvField(text)).toBe(text);
    expect(parseCsv(csvRecord([text, "x"]))).toEqual([[text, "x"]]);
  });
});
