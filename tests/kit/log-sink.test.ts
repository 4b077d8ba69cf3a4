import { afterAll, describe, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createLogSink } from "../../kit/log-sink.ts";
import { accessLineWriter, createAccessLogger, createLogger } from "../../kit/logger.ts";

const dir = mkdtempSync(join(tmpdir(), "log-sink-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const FIXTURE = join(import.meta.dir, "fixtures", "log-and-exit.ts");

/**
 * A FIFO whose reader opens it at once but reads nothing until `go()`; `received()` waits for the
 * writer to close it and returns all the reader got.
 */
function stalledReader(name: string) {
  const fifo = join(dir, `${name}.fifo`);
  const started = join(dir, `${name}.go`);
  const out = join(dir, `${name}.out`);
  expect(spawnSync("mkfifo", [fifo]).status).toBe(0);
  const reader = Bun.spawn([
    "sh",
    "-c",
    `exec 3<"${fifo}"; while [ ! -e "${started}" ]; do sleep 0.02; done; cat <&3 >"${out}"`,
  ]);
  const fd = openSync(fifo, "w");
  return {
    fd,
    go: () => writeFileSync(started, ""),
    received: async () => {
      expect(await reader.exited).toBe(0);
      return readFileSync(out, "utf8");
    },
  };
}

const lineCount = (text: string) => text.split("\n").filter((line) => line.includes('"msg":"request"')).length;
const ids = (text: string) =>
  text
    .split("\n")
    .filter((line) => line.includes('"msg":"request"'))
    .map((line) => (JSON.parse(line) as { req_id: string }).req_id);

describe("createLogSink", () => {
  test("holds lines until a batch is full or the interval passes, then writes them in order", async () => {
    const path = join(dir, "batches.log");
    const fd = openSync(path, "w");
    const sink = createLogSink({ fd, batchBytes: 100, intervalMs: 20 });
    sink.write("a".repeat(60));
    expect(readFileSync(path, "utf8")).toBe("");
    sink.write("b".repeat(60));
    expect(readFileSync(path, "utf8")).toBe("a".repeat(60) + "b".repeat(60));
    sink.write("c\n");
    await Bun.sleep(60);
    expect(readFileSync(path, "utf8")).toBe(`${"a".repeat(60)}${"b".repeat(60)}c\n`);
    sink.flushSync();
    closeSync(fd);
  });

  test("flushSync writes everything held", () => {
    const path = join(dir, "sync.log");
    const fd = openSync(path, "w");
    const sink = createLogSink({ fd, intervalMs: 60_000 });
    for (let i = 0; i < 1000; i++) sink.write(`line ${i} é\n`);
    sink.flushSync();
    const lines = readFileSync(path, "utf8").split("\n");
    expect(lines).toHaveLength(1001);
    expect(lines[999]).toBe("line 999 é");
    closeSync(fd);
  });

  test("a pipe whose reader stalls never blocks the writer; every line arrives once it reads again", async () => {
    const { fd, go, received } = stalledReader("stalled");
    const sink = createLogSink({ fd, batchBytes: 16 * 1024, intervalMs: 10 });
    const line = `${"x".repeat(200)}\n`;
    // 1 MB, far more than a pipe holds: a blocking write would wait for the reader, which waits for `go`.
    for (let i = 0; i < 5000; i++) sink.write(line);
    sink.flush();
    go();
    sink.close();
    closeSync(fd);
    expect(await received()).toBe(line.repeat(5000));
  });

  test("a reader too far behind loses the newest lines, whole, and a line counts them", async () => {
    const { fd, go, received } = stalledReader("behind");
    // The pipe takes 64 KiB; the sink holds at most 16 KiB more; 1 MB is offered.
    const sink = createLogSink({ fd, batchBytes: 4096, intervalMs: 10, maxHeldBytes: 16 * 1024 });
    const line = (i: number) => `${String(i).padStart(6, "0")} ${"x".repeat(193)}\n`;
    for (let i = 0; i < 5000; i++) sink.write(line(i));
    go();
    await Bun.sleep(100);
    sink.write(line(5000));
    sink.close();
    closeSync(fd);
    const lines = (await received()).split("\n").filter(Boolean);
    const notes = lines.filter((text) => text.startsWith("{"));
    const kept = lines.filter((text) => !text.startsWith("{"));
    // Every line that arrived is whole, in order, and the first ones are all there.
    for (const text of kept) expect(text).toBe(line(Number(text.slice(0, 6))).trimEnd());
    const numbers = kept.map((text) => Number(text.slice(0, 6)));
    expect(numbers).toEqual([...numbers].sort((a, b) => a - b));
    // The oldest lines (what the pipe and the sink could hold) all arrived; the newest did not.
    expect(numbers.slice(0, 100)).toEqual(Array.from({ length: 100 }, (_, i) => i));
    expect(numbers.at(-1)).toBe(5000);
    const dropped = notes.reduce((sum, text) => sum + (JSON.parse(text) as { dropped: number }).dropped, 0);
    expect(dropped).toBeGreaterThan(0);
    expect(notes.length).toBeLessThanOrEqual(2);
    expect(kept.length + dropped).toBe(5001);
  });

  test("a closed sink drops later lines", () => {
    const path = join(dir, "closed.log");
    const fd = openSync(path, "w");
    const sink = createLogSink({ fd });
    sink.write("kept\n");
    sink.close();
    sink.write("dropped\n");
    sink.flushSync();
    expect(readFileSync(path, "utf8")).toBe("kept\n");
    closeSync(fd);
  });

  test.each(["pipe", "file"] as const)(
    "process.exit right after logging loses nothing (standard output is a %s)",
    async (kind) => {
      const count = 20_000;
      const path = join(dir, `exit-${kind}.log`);
      const proc = Bun.spawn([process.execPath, FIXTURE, String(count)], {
        stdout: kind === "pipe" ? "pipe" : Bun.file(path),
        stderr: "pipe",
      });
      const text = kind === "pipe" ? await new Response(proc.stdout as ReadableStream).text() : "";
      expect(await proc.exited).toBe(0);
      const written = kind === "pipe" ? text : readFileSync(path, "utf8");
      expect(lineCount(written)).toBe(count);
      expect(ids(written)).toEqual(Array.from({ length: count }, (_, i) => `line-${i}`));
    },
  );

  test("an uncaught exception loses nothing either", async () => {
    const proc = Bun.spawn([process.execPath, FIXTURE, "5000", "throw"], { stdout: "pipe", stderr: "pipe" });
    const text = await new Response(proc.stdout).text();
    expect(await proc.exited).not.toBe(0);
    expect(lineCount(text)).toBe(5000);
  });
});

describe("the access log", () => {
  const entries = [
    { req_id: "abc-123", method: "GET", path: "/api/products?q=a", status: 200, duration_ms: 0.42 },
    { req_id: "abc-124", method: "HEAD", path: '/x?q="é\\\u0001', status: 304, duration_ms: 12 },
    { req_id: undefined, method: "POST", path: "/api/auth/login", status: 429, duration_ms: undefined },
  ];
  const withoutTime = (line: string) => line.replace(/"time":"[^"]+"/, '"time":"T"');

  test.each([["marketplace"], [undefined]])("writes each line as pino writes it (name %p)", (name) => {
    const lines: string[] = [];
    const logger = createAccessLogger({ level: "info", name, destination: { write: (line) => void lines.push(line) } });
    const direct = accessLineWriter(logger);
    for (const entry of entries) {
      direct(entry);
      logger.info(entry, "request");
    }
    expect(lines).toHaveLength(entries.length * 2);
    for (let i = 0; i < lines.length; i += 2) {
      expect(withoutTime(lines[i] ?? "")).toBe(withoutTime(lines[i + 1] ?? ""));
      const parsed = JSON.parse(lines[i] ?? "{}") as Record<string, unknown>;
      expect(Date.parse(parsed.time as string)).toBeGreaterThan(Date.now() - 60_000);
    }
  });

  test.each([["marketplace"], [undefined]])(
    "into a log sink, formats each line in place as pino writes it (name %p)",
    (name) => {
      const path = join(dir, `append-${name}.log`);
      const fd = openSync(path, "w");
      // A small batch, so lines also land across batch boundaries.
      const sink = createLogSink({ fd, batchBytes: 512, intervalMs: 60_000 });
      const logger = createAccessLogger({ level: "info", name, destination: sink });
      const direct = accessLineWriter(logger);
      const more = [
        ...entries,
        { req_id: "ünï", method: "GET", path: `/api/products/${"é😀".repeat(300)}`, status: 404, duration_ms: 1e-7 },
        { req_id: "r", method: "GET", path: `/${"a".repeat(5000)}`, status: 200, duration_ms: 123456.78 },
      ];
      for (const entry of more) {
        direct(entry);
        logger.info(entry, "request");
      }
      sink.close();
      closeSync(fd);
      const lines = readFileSync(path, "utf8").split("\n").filter(Boolean);
      expect(lines).toHaveLength(more.length * 2);
      for (let i = 0; i < lines.length; i += 2) {
        expect(withoutTime(lines[i] ?? "")).toBe(withoutTime(lines[i + 1] ?? ""));
        expect(JSON.parse(lines[i] ?? "{}")).toMatchObject({ path: more[i / 2]?.path, status: more[i / 2]?.status });
      }
    },
  );

  test("into a log sink, writes every status and duration as JSON.stringify does", () => {
    const path = join(dir, "numbers.log");
    const fd = openSync(path, "w");
    const sink = createLogSink({ fd, intervalMs: 60_000 });
    const direct = accessLineWriter(createAccessLogger({ level: "info", destination: sink }));
    const random = (scale: number) => Math.floor(Math.random() * scale);
    const durations = [
      0,
      -0,
      0.01,
      0.1,
      0.29,
      1,
      9.99,
      10,
      100.5,
      1234.05,
      1e13 - 0.01,
      1e13,
      1e15,
      1e21,
      1e-7,
      0.005,
      0.125,
      -0.01,
      -12.5,
      Number.NaN,
      Number.POSITIVE_INFINITY,
      Number.MAX_SAFE_INTEGER,
      Number.MIN_VALUE,
      // what durationSince gives: whole hundredths, at every scale
      ...Array.from({ length: 2000 }, (_, i) => random(10 ** ((i % 15) + 1)) / 100),
      // anything else a caller might pass
      ...Array.from({ length: 500 }, () => Math.random() * 10 ** random(12)),
    ];
    const statuses = [100, 200, 204, 304, 404, 429, 500, 599];
    const expected = durations.map((duration, i) => {
      const status = statuses[i % statuses.length] as number;
      direct({ req_id: "r", method: "GET", path: "/", status, duration_ms: duration });
      return `"status":${JSON.stringify(status)},"duration_ms":${JSON.stringify(duration)},`;
    });
    sink.close();
    closeSync(fd);
    const lines = readFileSync(path, "utf8").split("\n").filter(Boolean);
    expect(lines.map((line) => /"status":.*"duration_ms":[^,]*,/.exec(line)?.[0])).toEqual(expected);
  });

  test("a level above info writes no access line", () => {
    const lines: string[] = [];
    const logger = createAccessLogger({ level: "warn", destination: { write: (line) => void lines.push(line) } });
    accessLineWriter(logger)(entries[0] as (typeof entries)[0]);
    expect(lines).toEqual([]);
  });

  test("any other logger writes access lines through pino", () => {
    const lines: string[] = [];
    const logger = createLogger({ level: "info", destination: { write: (line) => void lines.push(line) } });
    accessLineWriter(logger)(entries[0] as (typeof entries)[0]);
    expect(JSON.parse(lines[0] ?? "{}")).toMatchObject({ ...entries[0], msg: "request", level: "info" });
  });
});
