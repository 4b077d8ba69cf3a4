import { closeSync, constants, fstatSync, openSync, writeSync } from "node:fs";
import type { DestinationStream } from "pino";

/** A log destination that holds lines in memory and writes them in batches. */
export interface LogSink extends DestinationStream {
  write(line: string): void;
  /**
   * Appends one line written in place: `fill` gets the batch and the offset to write at, with at
   * least `maxBytes` free from there, and returns the offset after its last byte. A line formatted
   * straight into the batch costs no string, no join and no encoding pass of its own.
   */
  append(maxBytes: number, fill: (batch: Uint8Array, offset: number) => number): void;
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
  /** Bytes held before a batch is written at once. */
  readonly batchBytes?: number;
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
const encoder = new TextEncoder();
/** UTF-8 takes at most three bytes per UTF-16 code unit. */
const MAX_BYTES_PER_UNIT = 3;

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
 * Log lines gathered in one byte buffer and written in batches from the event loop's own thread;
 * the access log formats its lines straight into the batch (kit/logger.ts), which is what keeps
 * `catalog_ratio` at 0.61 vs 0.47 with pino writing them (see docs/decisions/access-log-writer.md):
 * a line is encoded (or formatted, see `append`) into the batch, and one `write(2)` takes the
 * batch once it holds `batchBytes` or `intervalMs` has passed. (Pino's asynchronous sonic-boom
 * destination measures each line's byte length and copies every chunk once more, and a batch of
 * strings joined before encoding costs a third of a cached catalog answer: see
 * docs/performance.md.) A pipe is written without blocking; what it does not take yet stays held.
 * The writes are synchronous on purpose: in Bun, an asynchronous `fs.write` still in flight when
 * the process exits is lost, whereas here every byte is either written or still held, and
 * `flushSync` (called on shutdown and from the process's `exit` event) writes all that is held,
 * waiting up to `exitWaitMs` once for a full pipe. What is lost: on a SIGKILL (or a signal that
 * skips the `exit` event), the last `intervalMs` of lines and whatever a slow reader had not taken;
 * at exit, what a stalled reader still has not taken after `exitWaitMs`; and once the descriptor
 * fails for good (EPIPE, ENOSPC), every later line. A reader that falls more than `maxHeldBytes`
 * behind loses the newest lines rather than the process its memory; a line then counts them. A
 * socket or terminal is written as it is, blocking: point a deployment's logs at a pipe or a file.
 */
export function createLogSink(options: LogSinkOptions = {}): LogSink {
  const target = options.fd ?? 1;
  const fd = nonBlocking(target);
  const batchBytes = options.batchBytes ?? 64 * 1024;
  const maxHeldBytes = options.maxHeldBytes ?? 64 * 1024 * 1024;
  const exitWaitMs = options.exitWaitMs ?? 10_000;
  let batch = new Uint8Array(batchBytes + 4096);
  let used = 0;
  let linesInBatch = 0;
  /** Batches the descriptor has not taken (all of) yet, oldest first. */
  const pending: Uint8Array[] = [];
  let pendingBytes = 0;
  let dropped = 0;
  /** Set once the reader is gone (EPIPE) or `close` was called: lines are dropped from then on. */
  let closed = false;
  let timerStopped = false;
  let waitedOut = false;

  /** Writes as much of `bytes` as the descriptor takes now: the count, or -1 when it is gone. */
  function writeSome(bytes: Uint8Array): number {
    try {
      return writeSync(fd, bytes);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "EAGAIN") return 0;
      // The reader is gone (EPIPE) or the descriptor is closed: nothing can be written any more.
      closed = true;
      pending.length = 0;
      pendingBytes = 0;
      return -1;
    }
  }

  /** Writes what the descriptor takes of the held batches; false when a full pipe leaves bytes held. */
  function writePending(): boolean {
    while (pending.length > 0) {
      const held = pending[0] as Uint8Array;
      const written = writeSome(held);
      if (written < 0) return true;
      if (written === 0) return false;
      pendingBytes -= written;
      if (written < held.length) pending[0] = held.subarray(written);
      else pending.shift();
    }
    return true;
  }

  /** Keeps `bytes` for the descriptor, unless a reader so far behind would make the process hold too much. */
  function hold(bytes: Uint8Array, lines: number) {
    if (pendingBytes + bytes.length > maxHeldBytes) {
      dropped += lines;
      return;
    }
    keep(bytes);
  }

  function keep(bytes: Uint8Array) {
    pending.push(bytes);
    pendingBytes += bytes.length;
  }

  /** The count of the lines dropped so far, as a line of its own, once the reader has taken all that was held. */
  function noteDropped() {
    if (dropped === 0 || pendingBytes > 0) return;
    const note = {
      level: "warn",
      time: new Date().toISOString(),
      dropped,
      msg: "log lines dropped: the reader fell behind",
    };
    keep(encoder.encode(`${JSON.stringify(note)}\n`));
    dropped = 0;
  }

  /** The batch out: straight from the buffer when nothing is held before it, else behind what is. */
  function flushNow() {
    noteDropped();
    if (used > 0) {
      const lines = linesInBatch;
      const filled = batch.subarray(0, used);
      if (pending.length === 0) {
        const written = writeSome(filled);
        // The rest of a batch begun is always kept: a line is written whole or not at all.
        if (written >= 0 && written < used) keep(filled.slice(written));
      } else {
        hold(filled.slice(), lines);
      }
      used = 0;
      linesInBatch = 0;
    }
    writePending();
  }

  /** Room for `bytes` more in the batch, flushing it first when needed; false for a line larger than any batch. */
  function room(bytes: number): boolean {
    if (used + bytes <= batch.length) return true;
    flushNow();
    return bytes <= batch.length;
  }

  function added() {
    linesInBatch++;
    if (used >= batchBytes) flushNow();
  }

  const timer = setInterval(flushNow, options.intervalMs ?? 100);
  timer.unref();

  const sink: LogSink = {
    write(line: string) {
      if (closed) return;
      if (!room(line.length * MAX_BYTES_PER_UNIT)) {
        // Larger than a batch: held on its own, behind the batch just flushed.
        hold(encoder.encode(line), 1);
        writePending();
        return;
      }
      used += encoder.encodeInto(line, batch.subarray(used)).written;
      added();
    },
    append(maxBytes, fill) {
      if (closed) return;
      if (!room(maxBytes)) batch = new Uint8Array(maxBytes + batchBytes);
      used = fill(batch, used);
      added();
    },
    flush(callback) {
      flushNow();
      callback?.();
    },
    flushSync() {
      flushNow();
      // One wait per process: after a reader let it run out, later calls (the exit hook after a
      // shutdown's own flush) write what they can and return.
      const deadline = Date.now() + (waitedOut ? 0 : exitWaitMs);
      while (!writePending() && Date.now() < deadline) Atomics.wait(pause, 0, 0, 1);
      noteDropped();
      writePending();
      if (pendingBytes > 0) waitedOut = true;
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
