import { closeSync, constants, fstatSync, openSync, writeSync } from "node:fs";
import pino, { type DestinationStream, type Logger } from "pino";

export type { Logger } from "pino";

/**
 * Paths scrubbed from every line, whatever logs them: credentials, tokens and secret values
 * must never reach a log sink.
 */
export const REDACTED_PATHS = [
  "password",
  "*.password",
  "token",
  "*.token",
  "secret",
  "*.secret",
  "authorization",
  "*.authorization",
  "headers.authorization",
  "req.headers.authorization",
  "*.headers.authorization",
  "api_key",
  "*.api_key",
];

/** A log destination that holds lines in memory and writes them in batches. */
export interface LogSink extends DestinationStream {
  write(line: string): void;
  /** Writes what is held now, without waiting; pino's `logger.flush()` lands here. */
  flush(callback?: (error?: Error) => void): void;
  /** Writes everything held before returning, waiting out a full pipe: for shutdown and exit. */
  flushSync(): void;
  /** Flushes, then stops: later lines are dropped, and a descriptor the sink opened itself is closed. */
  close(): void;
}

export interface LogSinkOptions {
  /** The descriptor written to; standard output by default. */
  readonly fd?: number;
  /** Characters held before a batch is written at once. */
  readonly batchChars?: number;
  /** The longest a line waits in memory while the process is idle. */
  readonly intervalMs?: number;
  /** Bytes held for a reader that does not keep up before new lines are dropped (and counted). */
  readonly maxHeldBytes?: number;
  /** How long `flushSync` waits for a full pipe to take the rest. */
  readonly exitWaitMs?: number;
}

const sinks = new Set<LogSink>();
let exitHookInstalled = false;
const pause = new Int32Array(new SharedArrayBuffer(4));

/**
 * A pipe (a FIFO) reopened without blocking: a reader that falls behind makes writes come back
 * short (EAGAIN) instead of stalling the event loop. Anything else (a regular file, a terminal, a
 * socket, or a system without /proc) is written through the descriptor as it is.
 */
function nonBlocking(fd: number): number {
  try {
    if (!fstatSync(fd).isFIFO()) return fd;
    return openSync(`/proc/self/fd/${fd}`, constants.O_WRONLY | constants.O_NONBLOCK);
  } catch {
    return fd;
  }
}

/**
 * Log lines written in batches from the event loop's own thread: a line is appended to an array,
 * and one `write(2)` takes every line held once they reach `batchChars` or `intervalMs` has passed,
 * so a line costs an append plus its share of one join, one encoding and one system call. (Pino's
 * asynchronous sonic-boom destination measured its byte length on every write and copied every
 * chunk once more: those frames led the catalog's profile.) A pipe is written without blocking;
 * what it does not take yet stays held. The writes are synchronous on purpose: in Bun, an
 * asynchronous `fs.write` still in flight when the process exits is lost, whereas here every byte
 * is either written or still held, and `flushSync` (called on shutdown and from the process's
 * `exit` event) writes all that is held, waiting up to `exitWaitMs` for a full pipe. Only a SIGKILL
 * loses lines: at most the last `intervalMs`. A reader that falls more than `maxHeldBytes` behind
 * loses the newest lines rather than the process its memory; a line then counts them.
 */
export function createLogSink(options: LogSinkOptions = {}): LogSink {
  const target = options.fd ?? 1;
  const fd = nonBlocking(target);
  const batchChars = options.batchChars ?? 64 * 1024;
  const maxHeldBytes = options.maxHeldBytes ?? 64 * 1024 * 1024;
  const exitWaitMs = options.exitWaitMs ?? 10_000;
  let lines: string[] = [];
  let chars = 0;
  /** Encoded batches the descriptor has not taken yet, oldest first. */
  const pending: Uint8Array[] = [];
  let pendingBytes = 0;
  let dropped = 0;
  /** Set once the reader is gone (EPIPE) or `close` was called: lines are dropped from then on. */
  let closed = false;
  let timerStopped = false;

  function encodeHeld() {
    if (lines.length === 0) return;
    if (dropped > 0 && pendingBytes === 0) {
      lines.unshift(
        `${JSON.stringify({ level: "warn", time: new Date().toISOString(), dropped, msg: "log lines dropped: the reader fell behind" })}\n`,
      );
      dropped = 0;
    }
    const batch = Buffer.from(lines.join(""), "utf8");
    if (pendingBytes + batch.length > maxHeldBytes) dropped += lines.length;
    else {
      pending.push(batch);
      pendingBytes += batch.length;
    }
    lines = [];
    chars = 0;
  }

  /** Writes what the descriptor takes now; false when a full pipe leaves bytes held. */
  function writePending(): boolean {
    while (pending.length > 0) {
      const batch = pending[0] as Uint8Array;
      let written: number;
      try {
        written = writeSync(fd, batch);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "EAGAIN") return false;
        // The reader is gone (EPIPE) or the descriptor is closed: nothing can be written any more.
        closed = true;
        pending.length = 0;
        pendingBytes = 0;
        return true;
      }
      pendingBytes -= written;
      if (written < batch.length) pending[0] = batch.subarray(written);
      else pending.shift();
    }
    return true;
  }

  function flushNow() {
    encodeHeld();
    writePending();
  }

  const timer = setInterval(flushNow, options.intervalMs ?? 100);
  timer.unref();

  const sink: LogSink = {
    write(line: string) {
      if (closed) return;
      lines.push(line);
      chars += line.length;
      if (chars >= batchChars) flushNow();
    },
    flush(callback) {
      flushNow();
      callback?.();
    },
    flushSync() {
      encodeHeld();
      const deadline = Date.now() + exitWaitMs;
      while (!writePending() && Date.now() < deadline) Atomics.wait(pause, 0, 0, 1);
    },
    close() {
      if (timerStopped) return;
      sink.flushSync();
      closed = true;
      timerStopped = true;
      clearInterval(timer);
      sinks.delete(sink);
      if (fd !== target) closeSync(fd);
    },
  };
  sinks.add(sink);
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.on("exit", () => {
      for (const each of sinks) each.flushSync();
    });
  }
  return sink;
}

export function createLogger(options: { level: string; name?: string; destination?: DestinationStream }): Logger {
  return pino(
    {
      level: options.level,
      name: options.name,
      base: undefined,
      redact: { paths: REDACTED_PATHS, censor: "[redacted]" },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
    },
    options.destination,
  );
}

/** The fields of one access-log line. */
export interface AccessEntry {
  readonly req_id: string | undefined;
  readonly method: string;
  /** The request target (path and query), with what grants access hidden. */
  readonly path: string;
  readonly status: number;
  readonly duration_ms: number | undefined;
}

const ACCESS_LINE = Symbol("access-line");
const INFO = 30;
/** Anything but printable ASCII without `"` and `\\` (a string made of those is its own JSON text). */
const NEEDS_ESCAPE = /[^\x20\x21\x23-\x5b\x5d-\x7e]/;
/** What goes between the quotes of the JSON string for `text`. */
const jsonInner = (text: string) => (NEEDS_ESCAPE.test(text) ? JSON.stringify(text).slice(1, -1) : text);

/**
 * The access log: one line per request with a fixed, secret-free shape (request id, method, path,
 * status, duration), so it skips the redaction that every other line pays for. Its lines are
 * formatted here, byte for byte as pino formats them (a test holds the two together), and handed
 * straight to the destination: pino's generic path (a diagnostics-channel trace and a JSON.stringify
 * per field, a fresh ISO time) cost as much as answering a cached catalog request.
 */
export function createAccessLogger(options: { level: string; name?: string; destination?: DestinationStream }): Logger {
  const logger = pino(
    {
      level: options.level,
      name: options.name,
      base: undefined,
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
    },
    options.destination,
  );
  const destination = options.destination;
  if (destination === undefined) return logger;
  const name = options.name === undefined ? "" : `,"name":${JSON.stringify(options.name)}`;
  let millis = -1;
  let time = "";
  const write = (entry: AccessEntry) => {
    if (logger.levelVal > INFO) return;
    const now = Date.now();
    if (now !== millis) {
      millis = now;
      time = new Date(now).toISOString();
    }
    const id = entry.req_id === undefined ? "" : `,"req_id":"${jsonInner(entry.req_id)}"`;
    const duration = entry.duration_ms === undefined ? "" : `,"duration_ms":${entry.duration_ms}`;
    destination.write(
      `{"level":"info","time":"${time}"${name}${id},"method":"${jsonInner(entry.method)}","path":"${jsonInner(entry.path)}","status":${entry.status}${duration},"msg":"request"}\n`,
    );
  };
  return Object.assign(logger, { [ACCESS_LINE]: write });
}

/** Writes one access-log line: directly for a logger made by `createAccessLogger`, else through pino. */
export function accessLineWriter(logger: Logger): (entry: AccessEntry) => void {
  // Own property only: a child logger (which inherits it) has bindings the direct line would miss.
  const direct = Object.hasOwn(logger, ACCESS_LINE)
    ? (logger as { [ACCESS_LINE]?: (entry: AccessEntry) => void })[ACCESS_LINE]
    : undefined;
  return direct ?? ((entry) => logger.info(entry, "request"));
}
