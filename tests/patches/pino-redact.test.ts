import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { createLogger } from "../../kit/logger.ts";

const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), "utf8");

test("the installed redaction parses each path once, when first used, and the patch names its upstream report", () => {
  const version = JSON.parse(read("node_modules/@pinojs/redact/package.json")).version;
  expect(read(`patches/@pinojs+redact+${version}.patch`)).toContain("docs/upstream/pino-redact.md");
  const redactPaths = read("node_modules/@pinojs/redact/index.js").match(/function redactPaths [\s\S]*?\n}\n/)?.[0];
  expect(redactPaths).toContain("const parts = parsedPath(path)");
});

test("with the parsed paths kept, the thousandth line is redacted exactly as the first", () => {
  const lines: string[] = [];
  const logger = createLogger({ level: "info", destination: { write: (line: string) => lines.push(line) } });
  const fields = (i: number) => ({
    n: i,
    password: "p",
    user: { token: "t", name: "n" },
    headers: { authorization: "Bearer x", accept: "a" },
    request: { headers: { authorization: "Bearer y" } },
  });
  for (let i = 0; i < 1000; i++) logger.info(fields(i), "line");
  const shown = (line: string | undefined) => {
    const { time: _time, n: _n, ...rest } = JSON.parse(line ?? "{}");
    return rest;
  };
  expect(shown(lines[0])).toEqual({
    level: "info",
    msg: "line",
    password: "[redacted]",
    user: { token: "[redacted]", name: "n" },
    headers: { authorization: "[redacted]", accept: "a" },
    request: { headers: { authorization: "[redacted]" } },
  });
  expect(shown(lines[999])).toEqual(shown(lines[0]));
});
