import { makeAccountStates } from "../../application/identity/account-states.ts";
import { makeApiKeyAuthenticator, makeManageApiKeys } from "../../application/identity/api-keys.ts";
import { makeAuthenticate } from "../../application/identity/authenticate.ts";
import { makeChangeAccess } from "../../application/identity/change-access.ts";
import { makeChangePassword } from "../../application/identity/change-password.ts";
import {
  makeConfirmEmail,
  makeRequestEmailChange,
  makeRequestEmailVerification,
  makeSendEmailChangedNotice,
  makeSendEmailLink,
} from "../../application/identity/email-links.ts";
import { makeGetUser } from "../../application/identity/get-user.ts";
import { makeClaimGuestAccount } from "../../application/identity/guest-claims.ts";
import { emailChangedJob, emailLinkJob, passwordResetJob } from "../../application/identity/jobs.ts";
import { makeLogOutEverywhere } from "../../application/identity/log-out-everywhere.ts";
import {
  makeRequestPasswordReset,
  makeResetPassword,
  makeSendPasswordReset,
} from "../../application/identity/password-reset.ts";
import { makeRegisterCustomer } from "../../application/identity/register-customer.ts";
import { createPostgresApiKeys } from "../postgres/api-keys.ts";
import { createPostgresEmailLinks } from "../postgres/email-links.ts";
import { createPostgresGuestClaims } from "../postgres/guest-customers.ts";
import { createPostgresPasswordResets } from "../postgres/password-resets.ts";
import { createPostgresSignInThrottle } from "../postgres/sign-in-throttle.ts";
import { createPostgresUserRepository } from "../postgres/user-repository.ts";
import { createBunPasswordHasher } from "../security/bun-password-hasher.ts";
import { createCommonPasswordList } from "../security/common-password-list.ts";
import type { MailFeature } from "./mail.ts";
import type { Platform } from "./platform.ts";

/** Accounts, sign-in, password resets, tokens and roles. */
export function wireIdentity(
  { infra, config, sql, changes, clock, jobsFor, logger: log }: Platform,
  { mail }: { readonly mail: MailFeature },
) {
  const users = createPostgresUserRepository(sql);
  const hasher = infra.hasher ?? createBunPasswordHasher();
  const signInThrottle = createPostgresSignInThrottle(sql);
  const commonPasswords = createCommonPasswordList();
  const resets = createPostgresPasswordResets(sql);
  const links = createPostgresEmailLinks(sql, jobsFor);
  const jobs = jobsFor(sql);
  const mailLinks = mail.queue && { queue: mail.queue, publicBaseUrl: config.publicBaseUrl };
  const apiKeys = createPostgresApiKeys(sql);
  return {
    users,
    emailLinks: links,
    hasher,
    signInThrottle,
    commonPasswords,
    useCases: {
      auth: {
        secret: infra.jwtSecret,
        issuer: config.jwtIssuer,
        ttlSeconds: config.jwtTtlSeconds,
        accounts: makeAccountStates({ users, changes, now: () => performance.now() }),
        apiKeys: makeApiKeyAuthenticator({ keys: apiKeys, changes, clock, now: () => performance.now(), log }),
      },
      ...makeManageApiKeys({ keys: apiKeys, changes, clock }),
      registerCustomer: makeRegisterCustomer({ users, hasher, commonPasswords, jobs }),
      authenticate: makeAuthenticate({ users, hasher, signInThrottle, clock }),
      getUser: makeGetUser({ users }),
      logOutEverywhere: makeLogOutEverywhere({ users, changes }),
      listAccounts: users.list,
      changeAccess: makeChangeAccess({ users, changes }),
      requestPasswordReset: makeRequestPasswordReset({ jobs }),
      resetPassword: makeResetPassword({ resets, hasher, commonPasswords, signInThrottle, changes, clock }),
      changePassword: makeChangePassword({ users, hasher, signInThrottle, clock, commonPasswords, changes }),
      requestEmailVerification: makeRequestEmailVerification({ users, jobs }),
      requestEmailChange: makeRequestEmailChange({ users, hasher, signInThrottle, jobs, clock }),
      confirmEmail: makeConfirmEmail({ links, clock }),
      claimGuestAccount: makeClaimGuestAccount({
        claims: createPostgresGuestClaims(sql, jobsFor),
        hasher,
        commonPasswords,
        changes,
        clock,
      }),
    },
    jobs: {
      [passwordResetJob.kind]: makeSendPasswordReset({
        users,
        resets,
        mail: mailLinks,
        ttlSeconds: config.passwordResetTtlSeconds,
        clock,
        log,
      }),
      [emailLinkJob.kind]: makeSendEmailLink({
        users,
        links,
        mail: mailLinks,
        ttlSeconds: config.emailLinkTtlSeconds,
        clock,
        log,
      }),
      [emailChangedJob.kind]: makeSendEmailChangedNotice({ users, mail: mail.queue && { queue: mail.queue }, log }),
    },
  };
}
export type IdentityFeature = ReturnType<typeof wireIdentity>;
