import type { Page, PageRequest } from "../shared/ports.ts";
import type { AuditFilter, AuditLogReader, AuditRecord } from "./ports.ts";

const MAX_PAGE = 100;

/** Who changed what, newest first, narrowed by actor, target and action (each optional, all combined). */
export function makeListAuditLog(deps: { readonly log: AuditLogReader }) {
  return function listAuditLog(filter: AuditFilter, page: PageRequest): Promise<Page<AuditRecord>> {
    const limit = Math.min(Math.max(Math.trunc(page.limit), 1), MAX_PAGE);
    return deps.log.list(filter, { ...page, limit });
  };
}
