import type { FieldError } from "../../domain/shared/domain-error.ts";
import { UrlNotAllowed } from "./errors.ts";

/**
 * Decides whether the marketplace may call an admin-supplied URL, when it is saved or tested: the
 * answer is the reason for a refusal, or null. This is early feedback only; every call is checked
 * again as it connects, since what a name resolves to can change after it was saved.
 */
export interface OutboundUrlPolicy {
  refusal(url: string): Promise<string | null>;
}

export interface UrlField {
  /** JSON pointer of the field the URL came from. */
  readonly path: string;
  readonly url: string;
}

/** Checks every URL and refuses them together, as one 422 listing each offending field. */
export async function assertOutboundUrls(policy: OutboundUrlPolicy, fields: readonly UrlField[]): Promise<void> {
  const errors: FieldError[] = [];
  for (const field of fields) {
    const reason = await policy.refusal(field.url);
    if (reason !== null) errors.push({ path: field.path, code: "URL_NOT_ALLOWED", message: reason });
  }
  if (errors.length > 0) throw new UrlNotAllowed(errors);
}
