import pino, { type DestinationStream, type Logger } from "pino";
import type { LogSink } from "./log-sink.ts";

export type { Logger } from "pino";

/** Keys whose values never reach a log line: credentials, tokens and secret values. */
const SECRET_KEYS = ["password", "token", "secret", "authorization", "api_key"] as const;

/**
 * What pino's `redact` censors: a secret key at the top level or one level down, and the
 * `headers.authorization` of the line or of any field. A child's bindings go through it too.
 */
const REDACTED_PATHS = [
  ...SECRET_KEYS,
  ...SECRET_KEYS.map((key) => `*.${key}`),
  "headers.authorization",
  "*.headers.authorization",
];

export function createLogger(options: { level: string; name?: string; destination?: DestinationStream }): Logger {
  return pino(
    {
      level: options.level,
      name: options.name,
      base: undefined,
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      redact: { paths: REDACTED_PATHS, censor: "[redacted]" },
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
/**
 * Whether a UTF-16 unit must be escaped or encoded in a JSON string: anything but printable ASCII
 * without `"` and `\\` (a string made of those is its own JSON text, one byte per unit).
 */
const needsEscape = (unit: number) => unit < 0x20 || unit > 0x7e || unit === 0x22 || unit === 0x5c;
/** The JSON string of `text` without its quotes. */
const escapedInner = (text: string) => JSON.stringify(text).slice(1, -1);
/** What goes between the quotes of the JSON string for `text`. */
function jsonInner(text: string): string {
  for (let i = 0; i < text.length; i++) if (needsEscape(text.charCodeAt(i))) return escapedInner(text);
  return text;
}

/**
 * The access log: one line per request with a fixed, secret-free shape (request id, method, path,
 * status, duration), so it skips the redaction that every other line pays for. Its lines are
 * formatted here, byte for byte as pino formats them (a test holds the two together), and handed
 * straight to the destination: pino's generic path (a diagnostics-channel trace and a JSON.stringify
 * per field, a fresh ISO time) cost as much as answering a cached catalog request.
 *
 * Kept for `catalog_ratio`: these lines keep it at 0.61 vs 0.47 with pino writing them (0.27..0.87
 * and 0.20..0.75 over the rounds; 25.7 vs 35.9 µs of CPU per cached list answer), measured by
 * `npm run bench`'s catalog figure, both builds side by side (bench/compare.ts), on 2026-11-28.
 * See docs/decisions/access-log-writer.md.
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
  const write =
    "append" in destination
      ? appendingAccessLines(destination as LogSink, name, logger)
      : stringAccessLines(destination, name, logger);
  return Object.assign(logger, { [ACCESS_LINE]: write });
}

/** The ISO time of now, made once per millisecond. */
function clock() {
  let millis = -1;
  let iso = "";
  return () => {
    const now = Date.now();
    if (now !== millis) {
      millis = now;
      iso = new Date(now).toISOString();
    }
    return iso;
  };
}

function stringAccessLines(destination: DestinationStream, name: string, logger: Logger) {
  const now = clock();
  return (entry: AccessEntry) => {
    if (logger.levelVal > INFO) return;
    const id = entry.req_id === undefined ? "" : `,"req_id":"${jsonInner(entry.req_id)}"`;
    const duration = entry.duration_ms === undefined ? "" : `,"duration_ms":${JSON.stringify(entry.duration_ms)}`;
    destination.write(
      `{"level":"info","time":"${now()}"${name}${id},"method":"${jsonInner(entry.method)}","path":"${jsonInner(entry.path)}","status":${JSON.stringify(entry.status)}${duration},"msg":"request"}\n`,
    );
  };
}

const encoder = new TextEncoder();
const bytes = (text: string) => encoder.encode(text);
const REQ_ID = bytes(',"req_id":"');
const METHOD = bytes(',"method":"');
const METHOD_AFTER_ID = bytes('","method":"');
const PATH = bytes('","path":"');
const STATUS = bytes('","status":');
const DURATION = bytes(',"duration_ms":');
const END = bytes(',"msg":"request"}\n');
/** The longest a JSON escape makes one UTF-16 unit: `\u001f`. */
const MAX_ESCAPED_UNIT = 6;
/** Room for the fixed parts of a line and its two numbers, beyond its opening and its texts. */
const FIXED_BYTES = 160;
/** The largest duration, in hundredths of a millisecond, written digit by digit (beyond it, as `String` writes it). */
const MAX_HUNDREDTHS = 1e15;

/**
 * `text` as the inside of a JSON string. Printable ASCII without `"` and `\\` is its own JSON text
 * and is copied unit by unit, checked as it goes; at the first unit that is not, the whole text is
 * escaped as `JSON.stringify` escapes it and encoded instead.
 */
function putText(batch: Uint8Array, offset: number, text: string): number {
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    // `needsEscape`, written out: called, it cost a line about 28 ns more.
    if (unit < 0x20 || unit > 0x7e || unit === 0x22 || unit === 0x5c) {
      return offset + encoder.encodeInto(escapedInner(text), batch.subarray(offset)).written;
    }
    batch[offset + i] = unit;
  }
  return offset + text.length;
}

/** The decimal digits of a non-negative integer below 2^53, written at `offset`. */
function putDigits(batch: Uint8Array, offset: number, value: number): number {
  let end = offset;
  for (let rest = value; rest >= 10; rest = Math.floor(rest / 10)) end++;
  let at = end;
  for (let rest = value; at >= offset; rest = Math.floor(rest / 10)) batch[at--] = 48 + (rest % 10);
  return end + 1;
}

/**
 * A number's JSON text (as `JSON.stringify` writes it: `null` for NaN and the infinities), which is
 * ASCII. A whole number of hundredths (what `durationSince` and HTTP statuses give) is written digit
 * by digit, with the trailing zeros of its fraction dropped, which is the text JavaScript gives such
 * a number; anything else goes through `String`.
 */
function putNumber(batch: Uint8Array, offset: number, value: number): number {
  const hundredths = Math.round(value * 100);
  if (hundredths >= 0 && hundredths < MAX_HUNDREDTHS && hundredths / 100 === value) {
    const whole = Math.floor(hundredths / 100);
    const fraction = hundredths - whole * 100;
    let at = putDigits(batch, offset, whole);
    if (fraction === 0) return at;
    batch[at++] = 46; // "."
    batch[at++] = 48 + Math.floor(fraction / 10);
    if (fraction % 10 !== 0) batch[at++] = 48 + (fraction % 10);
    return at;
  }
  const text = Number.isFinite(value) ? String(value) : "null";
  for (let i = 0; i < text.length; i++) batch[offset + i] = text.charCodeAt(i);
  return offset + text.length;
}

/**
 * Access lines formatted straight into the sink's batch: the constant parts are bytes made once
 * (the opening with the time once per millisecond), the fields are copied byte by byte. The line's
 * fields wait in this writer's own variables for the one `fill` function made here, so a line
 * allocates nothing of its own.
 */
function appendingAccessLines(sink: LogSink, name: string, logger: Logger) {
  const now = clock();
  let iso = "";
  let opening = new Uint8Array(0);
  let id: string | undefined;
  let method = "";
  let path = "";
  let status = 0;
  let duration: number | undefined;
  const fill = (batch: Uint8Array, start: number) => {
    batch.set(opening, start);
    let at = start + opening.length;
    if (id !== undefined) {
      batch.set(REQ_ID, at);
      at = putText(batch, at + REQ_ID.length, id);
      batch.set(METHOD_AFTER_ID, at);
      at += METHOD_AFTER_ID.length;
    } else {
      batch.set(METHOD, at);
      at += METHOD.length;
    }
    at = putText(batch, at, method);
    batch.set(PATH, at);
    at = putText(batch, at + PATH.length, path);
    batch.set(STATUS, at);
    at = putNumber(batch, at + STATUS.length, status);
    if (duration !== undefined) {
      batch.set(DURATION, at);
      at = putNumber(batch, at + DURATION.length, duration);
    }
    batch.set(END, at);
    return at + END.length;
  };
  return (entry: AccessEntry) => {
    if (logger.levelVal > INFO) return;
    const time = now();
    if (time !== iso) {
      iso = time;
      opening = bytes(`{"level":"info","time":"${time}"${name}`);
    }
    id = entry.req_id;
    method = entry.method;
    path = entry.path;
    status = entry.status;
    duration = entry.duration_ms;
    const textUnits = (id?.length ?? 0) + method.length + path.length;
    sink.append(opening.length + FIXED_BYTES + textUnits * MAX_ESCAPED_UNIT, fill);
    id = undefined;
    method = path = "";
  };
}

/** Writes one access-log line: directly for a logger made by `createAccessLogger`, else through pino. */
export function accessLineWriter(logger: Logger): (entry: AccessEntry) => void {
  // Own property only: a child logger (which inherits it) has bindings the direct line would miss.
  const direct = Object.hasOwn(logger, ACCESS_LINE)
    ? (logger as { [ACCESS_LINE]?: (entry: AccessEntry) => void })[ACCESS_LINE]
    : undefined;
  return direct ?? ((entry) => logger.info(entry, "request"));
}
