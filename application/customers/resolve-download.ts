import { DownloadLinkExpired, DownloadLinkInvalid, DownloadRevoked, DownloadSuspended } from "./errors.ts";
import type { CustomerReadModel, DownloadLinks } from "./ports.ts";

/**
 * Resolves a signed download link to the artifact of its entitlement's release. The link is the
 * whole credential (a browser follows it without any session), so it is checked against the
 * entitlement it names on every use: a revoked or suspended license stops its live links at once.
 */
export function makeResolveDownload(deps: { readModel: CustomerReadModel; downloads: DownloadLinks }) {
  return async (token: string): Promise<string> => {
    const checked = await deps.downloads.verify(token);
    if (!checked.ok) throw checked.reason === "expired" ? new DownloadLinkExpired() : new DownloadLinkInvalid();
    const entitlement = await deps.readModel.entitlement(checked.entitlement_id);
    // A signed link names a row we created: one that is gone was deleted with its license.
    if (!entitlement) throw new DownloadRevoked();
    if (entitlement.customer_id !== checked.customer_id) throw new DownloadLinkInvalid();
    if (entitlement.revoked_at || entitlement.license_status === "revoked") throw new DownloadRevoked();
    if (entitlement.license_status === "suspended") throw new DownloadSuspended();
    const base = entitlement.artifact_source.replace(/\/+$/, "");
    return entitlement.version ? `${base}/${encodeURIComponent(entitlement.version)}` : base;
  };
}
