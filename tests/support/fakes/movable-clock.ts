import type { Clock } from "../../../application/shared/clock-and-log.ts";

/** A clock the test moves: `advance` by milliseconds, `hours` for readability. */
export function createMovableClock(start: Date | string = "2026-01-15T09:30:00.000Z") {
  let now = new Date(start);
  const clock: Clock = () => new Date(now);
  return {
    clock,
    now: () => new Date(now),
    advance(ms: number) {
      now = new Date(now.getTime() + ms);
    },
    hours: (count: number) => count * 3_600_000,
  };
}
