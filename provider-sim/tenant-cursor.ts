import { invalidFields } from "../kit/problem.ts";
import type { TenantRecord } from "./tenant.ts";

/** Keyset cursor: the sort key (created_at, tenant id) of the last tenant on a page, opaque to clients. */
export function encodeTenantCursor(record: TenantRecord): string {
  return Buffer.from(JSON.stringify([record.created_at.getTime(), record.ids.tenant])).toString("base64url");
}

export function decodeTenantCursor(cursor: string): { readonly createdAt: number; readonly tenantId: string } {
  try {
    const key: unknown = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
    if (Array.isArray(key) && key.length === 2 && Number.isSafeInteger(key[0]) && typeof key[1] === "string") {
      return { createdAt: key[0], tenantId: key[1] };
    }
  } catch {
    // Falls through to the same answer as a well-formed but foreign cursor.
  }
  throw invalidFields([{ path: "/cursor", code: "INVALID_CURSOR", message: "is not a cursor this API issued" }]);
}

/** Newest first by created_at, then by tenant id, so equal timestamps still have one order. */
export function newestFirst(a: TenantRecord, b: TenantRecord): number {
  const byTime = b.created_at.getTime() - a.created_at.getTime();
  if (byTime !== 0) return byTime;
  return a.ids.tenant < b.ids.tenant ? 1 : a.ids.tenant > b.ids.tenant ? -1 : 0;
}

export function isAfterCursor(record: TenantRecord, cursor: { createdAt: number; tenantId: string }): boolean {
  const time = record.created_at.getTime();
  return time < cursor.createdAt || (time === cursor.createdAt && record.ids.tenant < cursor.tenantId);
}
