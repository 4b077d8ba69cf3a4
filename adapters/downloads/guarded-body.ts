export interface BodyGuard {
  /** Bytes of the source dropped before the first one passed on (a range the server would not cut). */
  readonly skip: number;
  /** Exactly how many bytes must pass; fewer is a truncation. Undefined: whatever the source sends. */
  readonly length: number | undefined;
  /** The longest wait for the source's next bytes. */
  readonly idleMs: number;
  /** Asked again every `recheckMs` while bytes flow; false stops the transfer where it is. */
  stillAllowed(): Promise<boolean>;
  readonly recheckMs: number;
  /** Why the transfer was stopped, for the operator's log; the client sees its connection cut. */
  onAbort(reason: string): void;
}

class Aborted extends Error {}

/**
 * A download's body as it passes through: the source is read one chunk at a time as the client
 * takes them (the memory of a stream), cut to the bytes wanted, and aborted, never quietly short,
 * when the source stalls, ends early or the download is no longer allowed. Erroring the stream
 * makes the server drop the connection, so the client sees a failed download, not a complete one.
 */
export function guardBody(source: ReadableStream<Uint8Array>, guard: BodyGuard): ReadableStream<Uint8Array> {
  const reader = source.getReader();
  let toSkip = guard.skip;
  let remaining = guard.length ?? Number.POSITIVE_INFINITY;
  let checkedAt = Date.now();
  /** The client went away: a read still under way finds nobody to hand its bytes to. */
  let cancelled = false;

  const read = async (): ReturnType<typeof reader.read> => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const stalled = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Aborted(`no bytes for ${guard.idleMs} ms`)), guard.idleMs);
    });
    try {
      return await Promise.race([reader.read(), stalled]);
    } catch (error) {
      throw error instanceof Aborted ? error : new Aborted(`the source broke off: ${String(error)}`);
    } finally {
      clearTimeout(timer);
    }
  };

  const abort = (controller: ReadableStreamDefaultController<Uint8Array>, reason: string) => {
    guard.onAbort(reason);
    reader.cancel().catch(() => {});
    // Without a reason: the server would print an Error's stack; the reason is in the log already.
    controller.error(undefined);
  };

  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          if (Date.now() - checkedAt >= guard.recheckMs) {
            checkedAt = Date.now();
            if (!(await guard.stillAllowed())) return abort(controller, "the download is no longer allowed");
          }
          for (;;) {
            const { done, value } = await read();
            if (cancelled) return;
            if (done) {
              if (remaining !== Number.POSITIVE_INFINITY && remaining > 0) {
                return abort(controller, `the source ended ${remaining} bytes short`);
              }
              return controller.close();
            }
            let chunk = value;
            if (toSkip > 0) {
              const dropped = Math.min(toSkip, chunk.byteLength);
              toSkip -= dropped;
              chunk = chunk.subarray(dropped);
            }
            if (chunk.byteLength === 0) continue;
            if (chunk.byteLength > remaining) chunk = chunk.subarray(0, remaining);
            remaining -= chunk.byteLength;
            controller.enqueue(chunk);
            if (remaining === 0) {
              // Enough: the rest of a source that would not cut the range is never read.
              await reader.cancel().catch(() => {});
              controller.close();
            }
            return;
          }
        } catch (error) {
          if (!cancelled) abort(controller, error instanceof Aborted ? error.message : String(error));
        }
      },
      cancel() {
        // The client went away: so does the source.
        cancelled = true;
        return reader.cancel().catch(() => {});
      },
    },
    { highWaterMark: 0 },
  );
}
