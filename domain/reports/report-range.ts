import type { FieldError } from "../shared/domain-error.ts";
import { ValidationFailed } from "../shared/errors.ts";

export const REPORT_INTERVALS = ["day", "week", "month"] as const;
export type ReportInterval = (typeof REPORT_INTERVALS)[number];

/** A year of days: more intervals than a chart can show or a request should cost. */
export const MAX_REPORT_INTERVALS = 366;
/** Without `from`, a report covers this many days up to `to`. */
export const DEFAULT_REPORT_DAYS = 30;

const DAY_MS = 86_400_000;

/** Whole UTC days, `from` and `to` both included; `until` is the midnight after `to`. */
export interface ReportRange {
  readonly from: Date;
  readonly until: Date;
  readonly interval: ReportInterval;
}

export interface ReportRangeQuery {
  readonly from?: string | undefined;
  readonly to?: string | undefined;
  readonly interval?: ReportInterval | undefined;
}

const utcDay = (time: Date) => new Date(Date.UTC(time.getUTCFullYear(), time.getUTCMonth(), time.getUTCDate()));

/** A calendar date written `YYYY-MM-DD` that exists (no 2026-02-30), as UTC midnight. */
export function parseDay(text: string): Date | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  const exists = date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
  return exists && year >= 1970 ? date : null;
}

/** Where the interval holding `time` starts: the day, the Monday of its week, the first of its month. */
export function intervalStart(time: Date, interval: ReportInterval): Date {
  const day = utcDay(time);
  if (interval === "day") return day;
  if (interval === "week") return new Date(day.getTime() - ((day.getUTCDay() + 6) % 7) * DAY_MS);
  return new Date(Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), 1));
}

function nextStart(start: Date, interval: ReportInterval): Date {
  if (interval === "day") return new Date(start.getTime() + DAY_MS);
  if (interval === "week") return new Date(start.getTime() + 7 * DAY_MS);
  return new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 1));
}

/**
 * The intervals of a range, in order: each starts at its day, week (Monday) or month, the first
 * clipped to `from` and the last to `until`, so they tile the range exactly.
 */
export function intervalsOf(range: ReportRange): { readonly start: Date; readonly end: Date }[] {
  const intervals: { start: Date; end: Date }[] = [];
  let start = intervalStart(range.from, range.interval);
  while (start < range.until && intervals.length <= MAX_REPORT_INTERVALS) {
    const end = nextStart(start, range.interval);
    intervals.push({
      start: new Date(Math.max(start.getTime(), range.from.getTime())),
      end: new Date(Math.min(end.getTime(), range.until.getTime())),
    });
    start = end;
  }
  return intervals;
}

/**
 * The range a revenue query asks for, or every problem with it at its parameter: a date that is not
 * `YYYY-MM-DD` or does not exist, `from` after `to`, more than `MAX_REPORT_INTERVALS` intervals.
 * `to` defaults to `today` and `from` to `DEFAULT_REPORT_DAYS` days before `to`, by day.
 */
export function reportRange(query: ReportRangeQuery, today: Date): ReportRange {
  const errors: FieldError[] = [];
  const interval = query.interval ?? "day";
  const day = (name: "from" | "to", text: string | undefined) => {
    if (text === undefined) return undefined;
    const parsed = parseDay(text);
    if (!parsed) errors.push({ path: `/${name}`, code: "INVALID_DATE", message: "must be a date written YYYY-MM-DD" });
    return parsed ?? null;
  };
  const toDay = day("to", query.to);
  const fromDay = day("from", query.from);
  if (toDay === null || fromDay === null) throw new ValidationFailed(errors);
  const to = toDay ?? utcDay(today);
  const from = fromDay ?? new Date(to.getTime() - (DEFAULT_REPORT_DAYS - 1) * DAY_MS);
  if (from > to) {
    throw new ValidationFailed([{ path: "/from", code: "RANGE_REVERSED", message: "must not be after to" }]);
  }
  const range = { from, until: new Date(to.getTime() + DAY_MS), interval };
  if (intervalsOf(range).length > MAX_REPORT_INTERVALS) {
    throw new ValidationFailed([
      {
        path: "/interval",
        code: "TOO_MANY_INTERVALS",
        message: `must give at most ${MAX_REPORT_INTERVALS} intervals between from and to; choose a longer interval or a shorter range`,
      },
    ]);
  }
  return range;
}

/** A range's last day, as the query named it. */
export const lastDay = (range: ReportRange) => new Date(range.until.getTime() - DAY_MS);
