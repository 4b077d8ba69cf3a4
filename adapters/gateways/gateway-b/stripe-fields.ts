import { isRecord, type JsonRecord } from "../../../domain/shared/is-record.ts";

export type Fields = JsonRecord;

/** Field checks over an untrusted JSON object; every failure goes to `fail`, which throws. */
export interface FieldReader {
  record(value: unknown, what: string): Fields;
  string(object: Fields, key: string): string;
  optionalString(object: Fields, key: string): string | null;
  integer(object: Fields, key: string): number;
  optionalInteger(object: Fields, key: string): number | null;
  boolean(object: Fields, key: string): boolean;
  /** A Stripe reference: the id string, or the expanded object's `id`. */
  id(object: Fields, key: string): string;
  optionalId(object: Fields, key: string): string | null;
  /** Unix seconds as ISO 8601. */
  optionalTime(object: Fields, key: string): string | null;
}

export function createFieldReader(fail: (reason: string) => never): FieldReader {
  const absent = (value: unknown) => value === undefined || value === null;
  const reader: FieldReader = {
    record(value, what) {
      return isRecord(value) ? value : fail(`${what} is not an object`);
    },
    string(object, key) {
      const value = object[key];
      return typeof value === "string" && value !== "" ? value : fail(`"${key}" is missing or not a string`);
    },
    optionalString(object, key) {
      return absent(object[key]) ? null : reader.string(object, key);
    },
    integer(object, key) {
      const value = object[key];
      return Number.isSafeInteger(value) && (value as number) >= 0
        ? (value as number)
        : fail(`"${key}" is missing or not a non-negative integer`);
    },
    optionalInteger(object, key) {
      return absent(object[key]) ? null : reader.integer(object, key);
    },
    boolean(object, key) {
      const value = object[key];
      return typeof value === "boolean" ? value : fail(`"${key}" is missing or not a boolean`);
    },
    id(object, key) {
      const value = object[key];
      return isRecord(value) ? reader.string(value, "id") : reader.string(object, key);
    },
    optionalId(object, key) {
      return absent(object[key]) ? null : reader.id(object, key);
    },
    optionalTime(object, key) {
      const seconds = reader.optionalInteger(object, key);
      return seconds === null ? null : new Date(seconds * 1000).toISOString();
    },
  };
  return reader;
}
