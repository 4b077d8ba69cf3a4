const WRITTEN = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(?:Z|[+-]\d{2}:\d{2})$/i;

/**
 * An RFC 3339 date and time, or null unless it names a real one within years 1 to 9999: the
 * calendar fields must read back as written (`2026-02-30` is not moved to March), and the instant
 * must be one PostgreSQL stores (it has no year 0, nor years before 1 written with a sign).
 */
export function parseInstant(text: string): Date | null {
  const fields = WRITTEN.exec(text);
  if (!fields) return null;
  const [year, month, day, hour, minute, second] = fields.slice(1, 7).map((field) => Number(field ?? 0)) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const calendar = new Date(Date.UTC(2000, month - 1, day, hour, minute, second));
  calendar.setUTCFullYear(year, month - 1, day);
  const readsBack =
    calendar.getUTCFullYear() === year &&
    calendar.getUTCMonth() === month - 1 &&
    calendar.getUTCDate() === day &&
    calendar.getUTCHours() === hour &&
    calendar.getUTCMinutes() === minute &&
    calendar.getUTCSeconds() === second;
  const at = new Date(text);
  if (!readsBack || Number.isNaN(at.getTime())) return null;
  const utcYear = at.getUTCFullYear();
  return utcYear >= 1 && utcYear <= 9999 ? at : null;
}
