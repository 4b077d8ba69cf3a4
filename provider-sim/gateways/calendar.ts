export type Interval = "day" | "week" | "month" | "year";

/**
 * `at` moved on by `count` intervals in UTC. Months and years keep the day of the month, clamped
 * to the month's last day as the gateways bill: Jan 31 + 1 month is Feb 28 (or 29), not Mar 3.
 */
export function addInterval(at: Date, interval: Interval, count: number): Date {
  if (interval === "day" || interval === "week") {
    return new Date(at.getTime() + count * (interval === "week" ? 7 : 1) * 86_400_000);
  }
  const months = interval === "year" ? 12 * count : count;
  const target = new Date(at);
  target.setUTCDate(1);
  target.setUTCMonth(target.getUTCMonth() + months);
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(at.getUTCDate(), lastDay));
  return target;
}
