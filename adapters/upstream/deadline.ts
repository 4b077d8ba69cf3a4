/** The time given to an outbound exchange ran out. */
export class DeadlinePassed extends Error {
  constructor(readonly ms: number) {
    super(`no answer within ${ms} ms`);
    this.name = "DeadlinePassed";
  }
}

/**
 * Runs `exchange` with a signal that aborts after `ms`, and rejects with `DeadlinePassed` at that
 * moment even if some step ignores the signal (a host name still resolving, a body still arriving).
 * The timer is cleared as soon as the exchange settles, so a fast call leaves nothing waiting.
 */
export async function withinDeadline<T>(ms: number, exchange: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      reject(new DeadlinePassed(ms));
      controller.abort(new DeadlinePassed(ms));
    }, ms);
  });
  try {
    return await Promise.race([exchange(controller.signal), expired]);
  } finally {
    clearTimeout(timer);
  }
}
