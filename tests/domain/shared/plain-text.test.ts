import { describe, expect, test } from "bun:test";
import {
  asOneLine,
  hasControlCharacters,
  hasControlCharactersBesidesLines,
} from "../../../domain/shared/plain-text.ts";

describe("control characters", () => {
  test.each([
    "Ada\nLovelace",
    "Ada\rLovelace",
    "Ada\tLovelace",
    "Ada\u0000",
    "Ada\u001b[31m",
    "Ada\u007f",
    "Ada\u0085",
    "Ada\u2028Lovelace",
    "\u202egnp.exe",
    "Ada\u2066x\u2069",
  ])("a one-line value %j holds one", (value) => {
    expect(hasControlCharacters(value)).toBeTrue();
  });

  test.each(["Ada Lovelace", "Zoë O'Brien-Ngữ", "株式会社", "Ada <ada@example.com> & co", "👩‍💻 Ada"])(
    "%j holds none",
    (value) => {
      expect(hasControlCharacters(value)).toBeFalse();
      expect(hasControlCharactersBesidesLines(value)).toBeFalse();
    },
  );

  test("multi-line text may break lines and indent, nothing else", () => {
    expect(hasControlCharactersBesidesLines("Line one\n\tLine two\r\nLine three")).toBeFalse();
    expect(hasControlCharactersBesidesLines("Line one\u0007")).toBeTrue();
    expect(hasControlCharactersBesidesLines("Line one\u2028two")).toBeTrue();
    expect(hasControlCharactersBesidesLines("\u202eevil")).toBeTrue();
  });

  test("asOneLine writes each control character out, so a value stays on its line and shows what it held", () => {
    expect(asOneLine("Ada\nRefund everything\r\n")).toBe("Ada\\u{a}Refund everything\\u{d}\\u{a}");
    expect(asOneLine("\u202eabc\u2028")).toBe("\\u{202e}abc\\u{2028}");
    expect(asOneLine("Zoë <b>bold</b>")).toBe("Zoë <b>bold</b>");
  });
});
