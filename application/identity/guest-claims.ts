import { validateGuestName } from "../../domain/checkout/guest-buyer.ts";
import type { Account } from "../../domain/identity/account.ts";
import { AccountDisabled, EmailAlreadyRegistered, EmailLinkInvalid } from "../../domain/identity/errors.ts";
import { passwordFieldError } from "../../domain/identity/password-policy.ts";
import { ValidationFailed } from "../../domain/shared/errors.ts";
import type { OrderAccess } from "../checkout/ports.ts";
import { releaseHeldDeliveriesJob } from "../fulfillment/jobs.ts";
import type { GuestLinks } from "../notifications/ports.ts";
import type { Clock } from "../shared/clock-and-log.ts";
import type { ChangeSignal } from "../shared/ports.ts";
import { linkToken, sha256Hex } from "../shared/secrets-in-links.ts";
import { accountPageLink } from "./account-links.ts";
import { ACCOUNTS_TOPIC } from "./account-states.ts";
import type { CommonPasswords, EmailLinks, GuestClaims, PasswordHasher } from "./ports.ts";

/** The console page a guest's set-a-password link opens; it posts the token to `/api/auth/claim`. */
export const CLAIM_ACCOUNT_PAGE = "/account/claim";

export interface GuestLinkDeps {
  readonly links: EmailLinks;
  readonly access: OrderAccess;
  /** The order status page, with a guest's access. */
  readonly orderStatusUrl: (orderId: string, access: string) => string;
  /** GUEST_CLAIM_TTL_SECONDS: how long a set-a-password link works. */
  readonly ttlSeconds: number;
  readonly publicBaseUrl: string;
  readonly clock: Clock;
}

/**
 * What a guest's emails link to: the order status page with the order's signed access, and a
 * fresh set-a-password link, its token's hash stored as a `claim` link of the guest record.
 */
export function makeGuestLinks(deps: GuestLinkDeps): GuestLinks {
  return {
    orderStatus: async (orderId) => deps.orderStatusUrl(orderId, await deps.access.sign(orderId)),
    async claim(customerId, email) {
      const token = linkToken();
      const now = deps.clock();
      await deps.links.issue({
        userId: customerId,
        email,
        purpose: "claim",
        tokenHash: await sha256Hex(token),
        createdAt: now,
        expiresAt: new Date(now.getTime() + deps.ttlSeconds * 1000),
      });
      return accountPageLink(deps.publicBaseUrl, CLAIM_ACCOUNT_PAGE, token);
    },
  };
}

export interface ClaimGuestAccountDeps {
  readonly claims: GuestClaims;
  readonly hasher: PasswordHasher;
  readonly commonPasswords: CommonPasswords;
  readonly changes: ChangeSignal;
  readonly clock: Clock;
}

/**
 * Sets a password through a guest's link: the guest record becomes an account with a verified
 * address (its orders with it), or joins the account that has the address. Deliveries that waited
 * for a verified address start, in the same transaction. Every other session of the account ends.
 */
export function makeClaimGuestAccount(deps: ClaimGuestAccountDeps) {
  return async function claimGuestAccount(input: {
    readonly token: string;
    readonly password: string;
    readonly name?: string | undefined;
  }): Promise<Account> {
    const passwordError = passwordFieldError(
      "/password",
      input.password,
      await deps.commonPasswords.includes(input.password),
    );
    if (passwordError) throw new ValidationFailed([passwordError]);
    const name = validateGuestName(input.name);
    const passwordHash = await deps.hasher.hash(input.password);
    const claimed = await deps.claims.claim(
      await sha256Hex(input.token),
      passwordHash,
      name,
      deps.clock(),
      async (account, jobs) => {
        await jobs.enqueue(releaseHeldDeliveriesJob({ customer_id: account.id }));
      },
    );
    if (claimed.outcome === "invalid") throw new EmailLinkInvalid();
    if (claimed.outcome === "disabled") throw new AccountDisabled();
    if (claimed.outcome === "taken") throw new EmailAlreadyRegistered();
    await deps.changes.publish(ACCOUNTS_TOPIC);
    return claimed.account;
  };
}
