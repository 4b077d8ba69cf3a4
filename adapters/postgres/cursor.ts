import { ValidationFailed } from "../../domain/shared/domain-error.ts";

/** Keyset cursors: the sort key of the last row, opaque to clients. */
export function encodeCursor(key: readonly (string | number)[]): string {
  return Buffer.from(JSON.stringify(key)).toString("base64url");
}

export function decodeCursor(cursor: string, arity: number): (string | number)[] {
  try {
    const key = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
    if (
      Array.isArray(key) &&
      key.length === arity &&
      key.every((part) => typeof part === "string" || typeof part === "number")
    ) {
      return key;
    }
  } catch {
    // Falls through to the validation error below.
  }
  throw new ValidationFailed([{ path: "/cursor", code: "INVALID_CURSOR", message: "is not a cursor this API issued" }]);
}

/**
 * The page of a keyset query that fetched `limit + 1` rows ordered newest first by
 * (`created_at` to the millisecond, `id`): the extra row only says whether a next page exists.
 */
export function newestFirstPage<T extends { created_at: Date; id: string }>(rows: readonly T[], limit: number) {
  const items = rows.slice(0, limit);
  const last = items.at(-1);
  return {
    items,
    next_cursor: rows.length > limit && last ? encodeCursor([last.created_at.toISOString(), last.id]) : null,
  };
}
