import {
  EmailAlreadyRegistered,
  EmailAlreadyVerified,
  EmailLinkInvalid,
  UserNotFound,
} from "../../domain/identity/errors.ts";
import { emailAddressFault, emailAddressMessage, normalizeEmail } from "../../domain/shared/email-address.ts";
import { ValidationFailed } from "../../domain/shared/errors.ts";
import { releaseHeldDeliveriesJob } from "../fulfillment/jobs.ts";
import type { EmailQueue } from "../mail/ports.ts";
import type { Clock, Log } from "../shared/clock-and-log.ts";
import type { JobHandler, JobScheduler } from "../shared/jobs.ts";
import { linkToken, sha256Hex } from "../shared/secrets-in-links.ts";
import { accountPageLink, LINK_WINDOW_MS, LINKS_PER_WINDOW, validityText } from "./account-links.ts";
import { emailChangedJob, emailLinkJob } from "./jobs.ts";
import { checkPasswordAgain } from "./password-again.ts";
import type { EmailLinks, PasswordHasher, SignInThrottle, UserRepository } from "./ports.ts";

/** The console page an emailed address link opens; it posts the token to `/api/auth/verify-email/confirm`. */
export const VERIFY_EMAIL_PAGE = "/account/verify-email";

/** Asks for a new verification link for the signed-in account's own address. */
export function makeRequestEmailVerification(deps: { readonly users: UserRepository; readonly jobs: JobScheduler }) {
  return async function requestEmailVerification(userId: string): Promise<void> {
    const user = await deps.users.findById(userId);
    if (!user) throw new UserNotFound();
    if (user.emailVerified) throw new EmailAlreadyVerified();
    await deps.jobs.enqueue(emailLinkJob({ user_id: user.id, email: user.email, purpose: "verify" }));
  };
}

export interface RequestEmailChangeDeps {
  readonly users: UserRepository;
  readonly hasher: PasswordHasher;
  readonly signInThrottle: SignInThrottle;
  readonly jobs: JobScheduler;
  readonly clock: Clock;
}

/**
 * Asks to move the signed-in account to another address, with its password again: a link goes to
 * the new address, and the change takes effect when it is opened. An address another account has
 * is refused as registration refuses it.
 */
export function makeRequestEmailChange(deps: RequestEmailChangeDeps) {
  return async function requestEmailChange(input: {
    readonly userId: string;
    readonly password: string;
    readonly email: string;
    readonly client: string;
  }): Promise<void> {
    const email = normalizeEmail(input.email);
    const fault = emailAddressFault(email);
    if (fault) {
      throw new ValidationFailed([{ path: "/email", message: emailAddressMessage(fault), code: "INVALID_EMAIL" }]);
    }
    const user = await checkPasswordAgain(deps, input);
    if (user.email.toLowerCase() === email.toLowerCase()) {
      throw new ValidationFailed([
        { path: "/email", message: "is already this account's address", code: "EMAIL_UNCHANGED" },
      ]);
    }
    if (await deps.users.findByEmail(email)) throw new EmailAlreadyRegistered();
    await deps.jobs.enqueue(emailLinkJob({ user_id: user.id, email, purpose: "change" }));
  };
}

export interface SendEmailLinkDeps {
  readonly users: UserRepository;
  readonly links: EmailLinks;
  /** Without mail nothing can carry a link: a request is logged and dropped. */
  readonly mail: { readonly queue: EmailQueue; readonly publicBaseUrl: string } | undefined;
  /** EMAIL_LINK_TTL_SECONDS. */
  readonly ttlSeconds: number;
  readonly clock: Clock;
  readonly log: Log;
}

/**
 * The email link job: a fresh link (its token's hash stored, valid for `ttlSeconds`) to the
 * address, unless the account is gone or disabled, a `verify` link's address is no longer the
 * account's or is verified already, a `change` link's address is the account's already, or the
 * account was sent `LINKS_PER_WINDOW` links in the window. The email's key is the job's, so a job
 * run twice sends one email.
 */
export function makeSendEmailLink(deps: SendEmailLinkDeps): JobHandler<typeof emailLinkJob> {
  return async function sendEmailLink({ user_id, email, purpose }, job) {
    if (!deps.mail) {
      deps.log.warn({ job_id: job.jobId }, "email link asked while email is off: no link can be sent");
      return;
    }
    const user = await deps.users.findById(user_id);
    if (!user || user.disabled) return;
    const current = user.email.toLowerCase() === email.toLowerCase();
    if (purpose === "verify" ? !current || user.emailVerified : current) return;
    const now = deps.clock();
    if ((await deps.links.issuedSince(user.id, new Date(now.getTime() - LINK_WINDOW_MS))) >= LINKS_PER_WINDOW) {
      deps.log.warn({ user_id: user.id, purpose }, "email links capped for this account: no link sent");
      return;
    }
    const token = linkToken();
    await deps.links.issue({
      userId: user.id,
      email,
      purpose,
      tokenHash: await sha256Hex(token),
      createdAt: now,
      expiresAt: new Date(now.getTime() + deps.ttlSeconds * 1000),
    });
    const link = accountPageLink(deps.mail.publicBaseUrl, VERIFY_EMAIL_PAGE, token);
    const validFor = validityText(deps.ttlSeconds);
    await deps.mail.queue.queue(
      purpose === "verify"
        ? {
            key: `email-link:${job.jobId}`,
            template: "account.verify_email",
            to: email,
            data: { customer_name: user.name, verify_url: link, valid_for: validFor },
          }
        : {
            key: `email-link:${job.jobId}`,
            template: "account.confirm_email_change",
            to: email,
            data: { customer_name: user.name, confirm_url: link, valid_for: validFor, previous_email: user.email },
          },
    );
    deps.log.info({ user_id: user.id, purpose }, "email link sent");
  };
}

/**
 * Opens an emailed link: the address is verified, or the account moves to it. In the same
 * transaction the customer's deliveries that waited for a verified address are released, and a
 * move tells the previous address.
 */
export function makeConfirmEmail(deps: { readonly links: EmailLinks; readonly clock: Clock }) {
  return async function confirmEmail(input: { readonly token: string }): Promise<void> {
    const redeemed = await deps.links.redeem(await sha256Hex(input.token), deps.clock(), async (spent, jobs) => {
      await jobs.enqueue(releaseHeldDeliveriesJob({ customer_id: spent.userId }));
      if (spent.outcome === "changed") {
        await jobs.enqueue(
          emailChangedJob({ user_id: spent.userId, previous_email: spent.previousEmail, email: spent.email }),
        );
      }
    });
    if (redeemed.outcome === "invalid") throw new EmailLinkInvalid();
    if (redeemed.outcome === "taken") throw new EmailAlreadyRegistered();
  };
}

/** The notice to an account's previous address that the account moved, so a hijack does not go unseen. */
export function makeSendEmailChangedNotice(deps: {
  readonly users: UserRepository;
  readonly mail: { readonly queue: EmailQueue } | undefined;
  readonly log: Log;
}): JobHandler<typeof emailChangedJob> {
  return async function sendEmailChangedNotice({ user_id, previous_email, email }, job) {
    if (!deps.mail) {
      deps.log.warn({ job_id: job.jobId }, "address change notice while email is off: not sent");
      return;
    }
    const user = await deps.users.findById(user_id);
    if (!user) return;
    await deps.mail.queue.queue({
      key: `email-changed:${job.jobId}`,
      template: "account.email_changed",
      to: previous_email,
      data: { customer_name: user.name, previous_email, new_email: email },
    });
  };
}
