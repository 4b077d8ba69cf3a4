/** Wall time plus an offset that `/__sim/clock` moves forward, so tests can skip days. */
export interface SimClock {
  now(): Date;
  advance(seconds: number): Date;
  reset(): void;
}

export function createSimClock(wallTime: () => number = Date.now): SimClock {
  let offsetMs = 0;
  const now = () => new Date(wallTime() + offsetMs);
  return {
    now,
    advance(seconds) {
      offsetMs += seconds * 1000;
      return now();
    },
    reset() {
      offsetMs = 0;
    },
  };
}
