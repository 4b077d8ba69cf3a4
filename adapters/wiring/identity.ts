import { makeAccountStates } from "../../application/identity/account-states.ts";
import { makeAuthenticate } from "../../application/identity/authenticate.ts";
import { makeChangeAccess } from "../../application/identity/change-access.ts";
import { makeGetUser } from "../../application/identity/get-user.ts";
import { makeLogOutEverywhere } from "../../application/identity/log-out-everywhere.ts";
import { makeRegisterCustomer } from "../../application/identity/register-customer.ts";
import { createPostgresSignInThrottle } from "../postgres/sign-in-throttle.ts";
import { createPostgresUserRepository } from "../postgres/user-repository.ts";
import { createBunPasswordHasher } from "../security/bun-password-hasher.ts";
import type { Platform } from "./platform.ts";

/** Accounts, sign-in, tokens and roles. */
export function wireIdentity({ infra, config, sql, changes, clock }: Platform) {
  const users = createPostgresUserRepository(sql);
  const hasher = infra.hasher ?? createBunPasswordHasher();
  const signInThrottle = createPostgresSignInThrottle(sql);
  return {
    users,
    hasher,
    signInThrottle,
    useCases: {
      auth: {
        secret: infra.jwtSecret,
        issuer: config.jwtIssuer,
        ttlSeconds: config.jwtTtlSeconds,
        accounts: makeAccountStates({ users, changes, now: () => performance.now() }),
      },
      registerCustomer: makeRegisterCustomer({ users, hasher }),
      authenticate: makeAuthenticate({ users, hasher, signInThrottle, clock }),
      getUser: makeGetUser({ users }),
      logOutEverywhere: makeLogOutEverywhere({ users, changes }),
      listAccounts: users.list,
      changeAccess: makeChangeAccess({ users, changes }),
    },
  };
}
