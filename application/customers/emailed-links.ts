import type { Clock } from "../shared/clock-and-log.ts";
import type { ExpiringLinkSigner, SignedLink } from "./ports.ts";

export interface EmailedLinkDeps {
  readonly signer: ExpiringLinkSigner;
  readonly clock: Clock;
  readonly publicBaseUrl: string;
  /** How long a link works after it is made. */
  readonly ttlSeconds: number;
}

/**
 * Links an email carries to something that otherwise needs a session: `path` under the public base
 * URL with `expires` and `access` (the signature of `subject`, what the link opens, and the expiry).
 */
export function makeEmailedLinks(deps: EmailedLinkDeps) {
  return {
    async make(path: string, subject: string): Promise<string> {
      const expiresAt = Math.floor(deps.clock().getTime() / 1000) + deps.ttlSeconds;
      const url = new URL(path, deps.publicBaseUrl);
      url.searchParams.set("expires", String(expiresAt));
      url.searchParams.set("access", await deps.signer.sign(subject, expiresAt));
      return url.href;
    },

    /** A wrong signature is `invalid`, whatever the expiry; a right one past its expiry `expired`. */
    async check(subject: string, link: SignedLink): Promise<"valid" | "invalid" | "expired"> {
      if (!(await deps.signer.verify(subject, link.expiresAt, link.access))) return "invalid";
      return link.expiresAt * 1000 < deps.clock().getTime() ? "expired" : "valid";
    },
  };
}

export type EmailedLinks = ReturnType<typeof makeEmailedLinks>;
