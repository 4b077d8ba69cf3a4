import { ResetTokenInvalid } from "../../domain/identity/errors.ts";
import { passwordFieldError } from "../../domain/identity/password-policy.ts";
import { emailAddressFault, emailAddressMessage, normalizeEmail } from "../../domain/shared/email-address.ts";
import { ValidationFailed } from "../../domain/shared/errors.ts";
import type { EmailQueue } from "../mail/ports.ts";
import type { Clock, Log } from "../shared/clock-and-log.ts";
import type { JobHandler, JobScheduler } from "../shared/jobs.ts";
import type { ChangeSignal } from "../shared/ports.ts";
import { linkToken, sha256Hex } from "../shared/secrets-in-links.ts";
import { accountPageLink, LINK_WINDOW_MS, LINKS_PER_WINDOW, validityText } from "./account-links.ts";
import { ACCOUNTS_TOPIC } from "./account-states.ts";
import { passwordResetJob } from "./jobs.ts";
import type { CommonPasswords, PasswordHasher, PasswordResets, SignInThrottle, UserRepository } from "./ports.ts";

/**
 * Asks for a reset link. Every well-formed address takes the same path, one job enqueued, whether an
 * account has it or not, so neither the answer nor its time tells a stranger which addresses have
 * accounts; the job looks the account up.
 */
export function makeRequestPasswordReset(deps: { readonly jobs: JobScheduler }) {
  return async function requestPasswordReset(input: { readonly email: string }): Promise<void> {
    const email = normalizeEmail(input.email);
    const fault = emailAddressFault(email);
    if (fault) {
      throw new ValidationFailed([{ path: "/email", message: emailAddressMessage(fault), code: "INVALID_EMAIL" }]);
    }
    await deps.jobs.enqueue(passwordResetJob({ email }));
  };
}

export interface SendPasswordResetDeps {
  readonly users: UserRepository;
  readonly resets: PasswordResets;
  /** Without mail nothing can carry a link: a request is logged and dropped. */
  readonly mail: { readonly queue: EmailQueue; readonly publicBaseUrl: string } | undefined;
  /** PASSWORD_RESET_TTL_SECONDS. */
  readonly ttlSeconds: number;
  readonly clock: Clock;
  readonly log: Log;
}

/**
 * The password reset job: for an enabled account with the address, a fresh link (its token's hash
 * stored, valid for `ttlSeconds`) in an email. Nothing for an unknown or disabled address, nor past
 * `LINKS_PER_WINDOW` links in the window. The email's key is the job's, so a job run twice
 * sends one email; a link stored by a run whose email was not queued is never sent, and expires.
 */
export function makeSendPasswordReset(deps: SendPasswordResetDeps): JobHandler<typeof passwordResetJob> {
  return async function sendPasswordReset({ email }, job) {
    if (!deps.mail) {
      deps.log.warn({ job_id: job.jobId }, "password reset asked while email is off: no link can be sent");
      return;
    }
    const user = await deps.users.findByEmail(email);
    if (!user || user.disabled) return;
    const now = deps.clock();
    if ((await deps.resets.issuedSince(user.id, new Date(now.getTime() - LINK_WINDOW_MS))) >= LINKS_PER_WINDOW) {
      deps.log.warn({ user_id: user.id }, "password reset links capped for this account: no link sent");
      return;
    }
    const token = linkToken();
    await deps.resets.issue({
      userId: user.id,
      tokenHash: await sha256Hex(token),
      createdAt: now,
      expiresAt: new Date(now.getTime() + deps.ttlSeconds * 1000),
    });
    await deps.mail.queue.queue({
      key: `password-reset:${job.jobId}`,
      template: "account.password_reset",
      to: user.email,
      data: {
        customer_name: user.name,
        reset_url: accountPageLink(deps.mail.publicBaseUrl, "/account/reset-password", token),
        valid_for: validityText(deps.ttlSeconds),
      },
    });
    deps.log.info({ user_id: user.id }, "password reset link sent");
  };
}

export interface ResetPasswordDeps {
  readonly resets: PasswordResets;
  readonly hasher: PasswordHasher;
  readonly commonPasswords: CommonPasswords;
  readonly signInThrottle: SignInThrottle;
  readonly changes: ChangeSignal;
  readonly clock: Clock;
}

/**
 * Sets a new password through a reset link: the link is spent, every session of the account ends
 * (tokens issued before are refused on every instance), and its failed sign-ins are forgotten.
 */
export function makeResetPassword(deps: ResetPasswordDeps) {
  return async function resetPassword(input: { readonly token: string; readonly password: string }): Promise<void> {
    const error = passwordFieldError("/password", input.password, await deps.commonPasswords.includes(input.password));
    if (error) throw new ValidationFailed([error]);
    const passwordHash = await deps.hasher.hash(input.password);
    const done = await deps.resets.redeem(await sha256Hex(input.token), passwordHash, deps.clock());
    if (!done) throw new ResetTokenInvalid();
    await deps.changes.publish(ACCOUNTS_TOPIC);
    await deps.signInThrottle.clear(done.email);
  };
}
