import { ValidationFailed } from "../../domain/shared/errors.ts";

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
